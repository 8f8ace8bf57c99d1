#if canImport(Glibc)
import Glibc
#endif
public import Foundation
import Histogram
import LogbookClient

/// `logbook-bench client`: what LogbookClient's cache and journal cost an app, each against its
/// baseline in the same run, over a real `logbook serve`.
///
/// - Reads of one user's week of statistics: uncached (the baseline: every read fetches the
///   answer), revalidated (the cache sends `If-None-Match`, the server answers `304`), and current
///   (an ``EventFollower`` is live and no event changed the answer: no request at all).
/// - The journal: commands journaled per second (each flushed to the disk) against the same bytes
///   written and flushed by plain `write` and `fsync`; and commands drained to the server per second
///   against the same commands sent directly by the typed client.
public struct ClientBenchmark: Sendable {
    public var reads = 400
    public var commands = 1_000
    /// Where the benchmark's data go (a fresh directory inside it, removed after; default: the temporary directory).
    public var directory: String?
    /// The `logbook` program to serve with (by default the one beside this executable).
    public var executable: URL? = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("logbook")
    public var progress: @Sendable (String) -> Void = { _ in }

    public init() {}

    static let user = "bench-1"

    public func run() async throws -> BenchmarkReport {
        guard let program = executable, FileManager.default.isExecutableFile(atPath: program.path) else {
            throw BenchmarkFailure("cannot find \(executable?.path ?? "logbook") to serve: build it with `swift build -c release --product logbook`")
        }
        // A directory of its own, inside the one given: removed after.
        let root = URL(fileURLWithPath: directory ?? FileManager.default.temporaryDirectory.path).appendingPathComponent("logbook-bench-client-\(getpid())").path
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let server = try await ServedStore(program: program, path: root + "/data")
        defer { server.stop() }
        let base = URL(string: "http://127.0.0.1:\(server.port)")!
        let tokens = FixedAccessToken(try server.token(user: Self.user))

        var report = BenchmarkReport()
        report.set("reads", reads)
        report.set("commands", commands)
        let plain = Client(logbook: base, tokens: tokens)
        _ = try await plain.postUsersUser(path: .init(user: Self.user), body: .json(.init(displayName: "Bench", timeZone: "UTC", units: .metric, weekStart: .monday))).created
        // The week of 2026-10-26: four runs a day.
        for (day, date) in ["2026-10-26", "2026-10-27", "2026-10-28", "2026-10-29", "2026-10-30", "2026-10-31", "2026-11-01"].enumerated() {
            for session in 0..<4 {
                let id = "w-\(day)-\(session)"
                let start = "\(date)T\(10 + session * 2):00:00Z"
                _ = try await plain.postUsersUserWorkouts(path: .init(user: Self.user), body: .json(.init(activityType: .run, source: .init(kind: .manual), startedAt: start, workoutId: id))).created
                _ = try await plain.postUsersUserWorkoutsWorkoutIdFinish(path: .init(user: Self.user, workoutId: id), body: .json(.init(
                    distanceMeters: 5_000 + session * 100, endedAt: "\(date)T\(10 + session * 2):40:00Z", movingSeconds: 2_400))).created
            }
        }
        progress("reads: uncached, revalidated and current, \(reads) each")
        try await measureReads(base: base, tokens: tokens, into: &report)
        progress("journal: \(commands) commands journaled, then drained")
        try await measureJournal(base: base, tokens: tokens, root: root, into: &report)
        return report
    }

    private func read(_ client: Client) async throws {
        _ = try await client.getUsersUserStatsWeekly(path: .init(user: Self.user), query: .init(date: "2026-10-28")).ok.body.json
    }

    /// `reads` reads one after the other, in microseconds.
    private func latencies(_ client: Client) async throws -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        for _ in 0..<reads {
            let started = ContinuousClock.now
            try await read(client)
            histogram.record(UInt64(max(0, (ContinuousClock.now - started) / .microseconds(1))))
        }
        return histogram
    }

    private func measureReads(base: URL, tokens: FixedAccessToken, into report: inout BenchmarkReport) async throws {
        let uncached = try await latencies(Client(logbook: base, tokens: tokens))
        let revalidating = Client(logbook: base, tokens: tokens, cache: QueryCache())
        try await read(revalidating)
        let revalidated = try await latencies(revalidating)
        let cache = QueryCache()
        let following = Client(logbook: base, tokens: tokens, cache: cache)
        let follower = EventFollower(user: Self.user, client: following, cache: cache, linger: .milliseconds(20))
        await follower.start()
        while !(await cache.status().followerLive) { try await Task.sleep(for: .milliseconds(10)) }
        try await read(following)
        let current = try await latencies(following)
        let served = await cache.status().counts.current
        await follower.stop()
        guard served >= reads else { throw BenchmarkFailure("the followed cache answered \(served) of \(reads) reads itself") }
        for (name, values) in [("uncached", uncached), ("revalidated", revalidated), ("current", current)] {
            report.set("client_read_\(name)_p50_us", Double(values.valueAtPercentile(50)))
            report.set("client_read_\(name)_p99_us", Double(values.valueAtPercentile(99)))
        }
        let uncachedMedian = Double(uncached.valueAtPercentile(50))
        report.set("client_revalidated_vs_uncached", Double(revalidated.valueAtPercentile(50)) / uncachedMedian)
        report.set("client_current_vs_uncached", Double(current.valueAtPercentile(50)) / uncachedMedian)
    }

    private func measureJournal(base: URL, tokens: FixedAccessToken, root: String, into report: inout BenchmarkReport) async throws {
        // Journaling alone: the server is unreachable, and the sender waits a minute between tries.
        let file = URL(fileURLWithPath: root + "/journal")
        let journal = try CommandJournal(file: file, limits: .init(commands: commands + 1, bytes: 64 << 20),
                                         backoff: .init(first: .seconds(60), longest: .seconds(60)), answerWait: .zero)
        let offline = Client(logbook: URL(string: "http://127.0.0.1:9")!, tokens: tokens, journal: journal)
        let journaling = Stopwatch()
        for number in 0..<commands {
            do {
                _ = try await offline.postUsersUserSteps(path: .init(user: Self.user), body: .json(.init(samples: [Self.sample(number)])))
            } catch where CommandQueued.thrown(in: error) != nil {}
        }
        let journaled = Double(commands) / journaling.seconds
        let lineBytes = await journal.status().fileBytes / commands
        await journal.stop()
        report.set("journal_append_per_second", journaled)
        report.set("journal_line_bytes", lineBytes)
        let baseline = try Self.writeAndFlush(count: commands, bytes: lineBytes, path: root + "/baseline")
        report.set("fsync_baseline_per_second", baseline)
        report.set("journal_append_ratio", journaled / baseline)

        // Draining what was journaled to the server, against sending the same commands directly.
        let reopened = try CommandJournal(file: file, limits: .init(commands: commands + 1, bytes: 64 << 20))
        let draining = Stopwatch()
        _ = Client(logbook: base, tokens: tokens, journal: reopened)
        await reopened.drained()
        let drained = Double(commands) / draining.seconds
        let status = await reopened.status()
        await reopened.stop()
        guard status.counts.answered == commands, status.refused.isEmpty else {
            throw BenchmarkFailure("the journal drained \(status.counts.answered) of \(commands) commands, \(status.refused.count) refused")
        }
        let direct = Client(logbook: base, tokens: tokens)
        let sending = Stopwatch()
        for number in commands..<(2 * commands) {
            _ = try await direct.postUsersUserSteps(path: .init(user: Self.user), body: .json(.init(samples: [Self.sample(number)]))).created
        }
        let sent = Double(commands) / sending.seconds
        report.set("journal_drain_per_second", drained)
        report.set("direct_send_per_second", sent)
        report.set("journal_drain_ratio", drained / sent)
    }

    /// Step sample `number`: 30 seconds in minute `number` of 2026-10 (no two overlap).
    static func sample(_ number: Int) -> Components.Schemas.StepsRecordedData.samplesPayloadPayload {
        let minute = number % 40_000
        let at = String(format: "2026-10-%02dT%02d:%02d", 1 + minute / 1440, minute / 60 % 24, minute % 60)
        return .init(count: 10 + number % 90, end: at + ":30Z", source: "bench", start: at + ":00Z")
    }

    /// Lines of `bytes` bytes appended and flushed one at a time with `write` and `fsync`: per second.
    static func writeAndFlush(count: Int, bytes: Int, path: String) throws -> Double {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw BenchmarkFailure("cannot open \(path)") }
        defer { close(descriptor); unlink(path) }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: max(1, bytes - 1)) + [UInt8(ascii: "\n")]
        let clock = Stopwatch()
        for _ in 0..<count {
            guard line.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == line.count, fsync(descriptor) == 0 else {
                throw BenchmarkFailure("cannot write \(path)")
            }
        }
        return Double(count) / clock.seconds
    }
}
