import AsyncHTTPClient
public import Foundation
import DemoData
import Histogram
import NIOCore
@_spi(Benchmarks) import Logbook

/// `logbook-bench scale`: do costs stay flat as data grows? One user's history and the catalog
/// at several scales (by default 1×, 10× and 100× of 9,000 events and 1,000 places), each served
/// by a real `logbook serve`: every query route's p99 uncached (a server whose query caches keep
/// nothing, so every read is computed) and cached (the same request again), a command's p99, the
/// server's peak RSS, and a rebuild of the whole store (events/s, peak RSS). Reports per route
/// `<route>_p99_growth`: the uncached p99 at the largest scale ÷ at the smallest. Every route
/// measured answers the same amount whatever the scale (a week, a month, a page), so the
/// target is a growth of at most 3×.
public struct ScaleBenchmark: Sendable {
    public var scales = [1, 10, 100]
    public var baseEvents = 9_000
    public var basePlaces = 1_000
    /// Requests per route and mode (uncached, cached), and commands.
    public var requests = 100
    public var directory: String?
    /// Keep the stores afterwards, and reuse those already built there.
    public var keep = false
    /// The `logbook` program to serve and rebuild with (by default the one beside this executable).
    public var executable: URL? = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("logbook")
    public var progress: @Sendable (String) -> Void = { _ in }

    public init() {}

    /// The uncached p99 of a route may grow this much from the smallest scale to the largest.
    public static let growthTarget = 3.0

    public func run() async throws -> BenchmarkReport {
        guard let program = executable, FileManager.default.isExecutableFile(atPath: program.path) else {
            throw BenchmarkFailure("cannot find \(executable?.path ?? "logbook") to serve: build it with `swift build -c release --product logbook`")
        }
        guard let smallest = scales.min(), let largest = scales.max() else { throw BenchmarkFailure("no scales to measure") }
        let root = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("logbook-bench-scale").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(atPath: root) } }

        var report = BenchmarkReport()
        report.set("benchmark", "scale")
        report.set("scales", scales.map(String.init).joined(separator: ","))
        report.set("base_events", baseEvents)
        report.set("base_places", basePlaces)
        report.set("requests", requests)
        var measured: [Int: ScaleMeasurement] = [:]
        for scale in scales.sorted() {
            let (events, places) = try Self.multiply(scale, baseEvents, basePlaces)
            let path = (root as NSString).appendingPathComponent("scale-\(scale)")
            if !keep { try? FileManager.default.removeItem(atPath: path) }
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let built = Stopwatch()
            try await HostileDataSet(places: places, attackerEvents: events, progress: progress).build(at: path)
            progress("scale \(scale)×: \(events) events of one user, \(places) places, ready in \(Int(built.seconds)) s")
            let span = ScaleRoutes.Span(days: HostileDataSet.days(holding: events), places: places, head: 0)
            let measurement = try await measure(path: path, program: program, span: span)
            measured[scale] = measurement
            report.set("scale_\(scale)", measurement.report(events: events, places: places))
        }
        guard let first = measured[smallest], let last = measured[largest] else { return report }
        var worst = 0.0
        for (name, p99) in last.uncached.sorted(by: { $0.key < $1.key }) {
            guard let base = first.uncached[name], base > 0 else { continue }
            let growth = p99 / base
            worst = max(worst, growth)
            report.set("\(name)_p99_growth", growth)
        }
        if first.commandP99 > 0 { report.set("command_p99_growth", last.commandP99 / first.commandP99) }
        if first.rebuildEventsPerSecond > 0 { report.set("rebuild_eps_growth", last.rebuildEventsPerSecond / first.rebuildEventsPerSecond) }
        report.set("p99_growth_max", worst)
        report.set("p99_growth_target", Self.growthTarget)
        return report
    }

    /// Events and places at `scale`, refusing sizes that overflow.
    private static func multiply(_ scale: Int, _ events: Int, _ places: Int) throws -> (Int, Int) {
        let (e, eOverflow) = events.multipliedReportingOverflow(by: scale)
        let (p, pOverflow) = places.multipliedReportingOverflow(by: scale)
        guard scale >= 1, !eOverflow, !pOverflow else { throw BenchmarkFailure("scale \(scale) of \(events) events and \(places) places is out of range") }
        return (e, p)
    }

    /// One scale: uncached reads and a rebuild against a server that caches nothing, then cached
    /// reads and commands against an ordinary one.
    private func measure(path: String, program: URL, span: ScaleRoutes.Span) async throws -> ScaleMeasurement {
        var result = ScaleMeasurement()
        // Budgets wide enough that no read is refused: this measures what a read costs.
        let unthrottled = ["--query-cpu-burst-seconds", "3600", "--query-cpu-per-second", "1000", "--reads-per-caller", "8"]
        var span = span
        try await withServer(program, path, unthrottled + ["--query-cache-entries", "0"]) { server, caller in
            span.head = try await caller.head()
            for route in ScaleRoutes.routes(span) {
                var rng = SplitMix64(seed: 5)
                (result.uncached[route.name], result.uncachedMax[route.name]) = try await Self.latencies(requests, route.name) {
                    let path = route.next(&rng)
                    return (path, try await caller.get(path))
                }
            }
            result.servedPeakBytes = Self.peakResidentBytes(of: server.process.processIdentifier)
        }
        try await withServer(program, path, unthrottled) { _, caller in
            for route in ScaleRoutes.routes(span) {
                var rng = SplitMix64(seed: 5)
                let path = route.next(&rng)
                _ = try await caller.get(path)
                result.cached[route.name] = try await Self.latencies(requests, route.name) { (path, try await caller.get(path)) }.p99
            }
            var index = 0
            let steps = "/users/\(ScaleRoutes.user)/steps"
            result.commandP99 = try await Self.latencies(requests, "command") {
                index += 1
                return (steps, try await caller.post(steps, json: ScaleRoutes.stepsBody(index, span)))
            }.p99
            result.head = try await caller.head()
        }
        let rebuild = try await RebuildRun.run(program, path: path)
        result.rebuildEventsPerSecond = rebuild.seconds > 0 ? Double(result.head) / rebuild.seconds : 0
        result.rebuildPeakBytes = rebuild.peakBytes
        return result
    }

    /// Serves `path`, hands `body` the server and a caller signed in as the measured user.
    private func withServer(
        _ program: URL, _ path: String, _ arguments: [String], _ body: (ServedStore, Caller) async throws -> Void
    ) async throws {
        let server = try await ServedStore(program: program, path: path, arguments: arguments)
        defer { server.stop() }
        let timeout = HTTPClient.Configuration.Timeout(connect: .seconds(5), read: .seconds(300))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(timeout: timeout))
        do {
            try await body(server, Caller(client: client, base: "http://127.0.0.1:\(server.port)", token: try server.token(user: ScaleRoutes.user)))
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The p99 and the slowest, in milliseconds, of `count` calls of `send` (which answers the path
    /// it sent and the status), one at a time; any answer but 2xx fails the run, naming `route`
    /// and the path.
    private static func latencies(_ count: Int, _ route: String, _ send: () async throws -> (String, Int)) async throws -> (p99: Double, max: Double) {
        var histogram = Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
        for _ in 0..<count {
            let started = ContinuousClock.now
            let (path, status) = try await send()
            let elapsed = ContinuousClock.now - started
            guard (200..<300).contains(status) else { throw BenchmarkFailure("\(route): \(path) answered \(status)") }
            histogram.record(UInt64(max(0, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)))
        }
        return (Double(histogram.valueAtPercentile(99)) / 1000, Double(histogram.max) / 1000)
    }

    /// A process's peak resident set (`VmHWM`), in bytes (0 if unreadable).
    static func peakResidentBytes(of pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}

/// What one scale measured.
struct ScaleMeasurement {
    /// Uncached and cached p99 by route, in milliseconds.
    var uncached: [String: Double] = [:]
    /// The slowest uncached read of each route (the first pays for what later ones find kept).
    var uncachedMax: [String: Double] = [:]
    var cached: [String: Double] = [:]
    var commandP99 = 0.0
    /// The log's head after the commands: the events a rebuild folds.
    var head: UInt64 = 0
    var servedPeakBytes = 0
    var rebuildEventsPerSecond = 0.0
    var rebuildPeakBytes = 0

    func report(events: Int, places: Int) -> BenchmarkReport {
        var report = BenchmarkReport()
        report.set("user_events", events)
        report.set("places", places)
        for (name, p99) in uncached.sorted(by: { $0.key < $1.key }) {
            report.set("\(name)_uncached_p99_ms", p99)
            if let slowest = uncachedMax[name] { report.set("\(name)_uncached_max_ms", slowest) }
            if let cached = cached[name] { report.set("\(name)_cached_p99_ms", cached) }
        }
        report.set("command_p99_ms", commandP99)
        report.set("served_peak_rss_mb", servedPeakBytes / (1 << 20))
        report.set("log_events", Int(head))
        report.set("rebuild_eps", rebuildEventsPerSecond)
        report.set("rebuild_peak_rss_mb", rebuildPeakBytes / (1 << 20))
        return report
    }
}

/// `logbook rebuild` of a whole store in a child process: its wall time and peak RSS (sampled
/// from `/proc` while it runs; the peak only grows, so the last sample is within one interval
/// of the end).
enum RebuildRun {
    static func run(_ program: URL, path: String) async throws -> (seconds: Double, peakBytes: Int) {
        let process = Process()
        process.executableURL = program
        process.arguments = ["rebuild", "--path", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let watch = Stopwatch()
        try process.run()
        var peak = 0
        while process.isRunning {
            peak = max(peak, ScaleBenchmark.peakResidentBytes(of: process.processIdentifier))
            try await Task.sleep(for: .milliseconds(20))
        }
        let seconds = watch.seconds
        guard process.terminationStatus == 0 else { throw BenchmarkFailure("logbook rebuild --path \(path) exited \(process.terminationStatus)") }
        return (seconds, peak)
    }
}
