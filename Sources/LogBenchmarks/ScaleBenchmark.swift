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
/// server's peak RSS, and a rebuild of the whole store (events/s, peak RSS). Every scale is
/// served at once and each route is measured at every scale in turn, in interleaved blocks, so a
/// machine whose speed drifts during the run moves all scales alike. Reports per route
/// `<route>_p99_growth`: the uncached p99 at the largest scale ÷ at the smallest. Every route
/// measured answers the same amount whatever the scale (a week, a month, a page), so the
/// target is a growth of at most 3×.
public struct ScaleBenchmark: Sendable {
    public var scales = [1, 10, 100]
    public var baseEvents = 9_000
    public var basePlaces = 1_000
    /// Requests per route, mode (uncached, cached) and scale, and commands per scale.
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
        // Every store first, then each route measured at every scale in interleaved blocks: a
        // machine that slows down meanwhile slows every scale alike, instead of the last one.
        var stores: [ScaleStore] = []
        for scale in scales.sorted() {
            let (events, places) = try Self.multiply(scale, baseEvents, basePlaces)
            let path = (root as NSString).appendingPathComponent("scale-\(scale)")
            if !keep { try? FileManager.default.removeItem(atPath: path) }
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let built = Stopwatch()
            try await HostileDataSet(places: places, attackerEvents: events, progress: progress).build(at: path)
            progress("scale \(scale)×: \(events) events of one user, \(places) places, ready in \(Int(built.seconds)) s")
            stores.append(ScaleStore(
                scale: scale, path: path, events: events, places: places,
                span: ScaleRoutes.Span(days: HostileDataSet.days(holding: events), places: places, head: 0)))
        }
        progress("reads and commands at every scale, interleaved")
        var measured = try await measure(stores, program: program)
        for (index, store) in stores.enumerated() {
            progress("rebuilding scale \(store.scale)×")
            let rebuild = try await RebuildRun.run(program, path: store.path)
            measured[index].rebuildEventsPerSecond = rebuild.seconds > 0 ? Double(measured[index].head) / rebuild.seconds : 0
            measured[index].rebuildPeakBytes = rebuild.peakBytes
            report.set("scale_\(store.scale)", measured[index].report(events: store.events, places: store.places))
        }
        guard let first = measured.first, let last = measured.last, stores.first?.scale == smallest, stores.last?.scale == largest else { return report }
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

    /// Every scale at once: uncached reads against servers that cache nothing, then cached reads
    /// and commands against ordinary ones; each measured at every scale in turn, in blocks.
    private func measure(_ stores: [ScaleStore], program: URL) async throws -> [ScaleMeasurement] {
        var results = stores.map { _ in ScaleMeasurement() }
        var spans = stores.map(\.span)
        let paths = stores.map(\.path)
        // Budgets wide enough that no read is refused: this measures what a read costs.
        let unthrottled = ["--query-cpu-burst-seconds", "3600", "--query-cpu-per-second", "1000", "--reads-per-caller", "8"]
        try await withServers(program, paths, unthrottled + ["--query-cache-entries", "0"]) { servers, callers in
            for index in spans.indices { spans[index].head = try await callers[index].head() }
            let routes = spans.map(ScaleRoutes.routes)
            for route in routes[0].indices {
                var rngs = spans.map { _ in SplitMix64(seed: 5) }
                let timings = try await Self.interleaved(requests, scales: spans.count, routes[0][route].name) { scale in
                    let path = routes[scale][route].next(&rngs[scale])
                    return (path, try await callers[scale].get(path))
                }
                for scale in results.indices {
                    results[scale].uncached[routes[0][route].name] = timings[scale].p99
                    results[scale].uncachedMax[routes[0][route].name] = timings[scale].max
                    results[scale].uncachedMedian[routes[0][route].name] = timings[scale].p50
                }
            }
            for scale in results.indices { results[scale].servedPeakBytes = Self.peakResidentBytes(of: servers[scale].process.processIdentifier) }
        }
        try await withServers(program, paths, unthrottled) { _, callers in
            let routes = spans.map(ScaleRoutes.routes)
            for route in routes[0].indices {
                var first: [String] = []
                for scale in spans.indices {
                    var rng = SplitMix64(seed: 5)
                    first.append(routes[scale][route].next(&rng))
                    _ = try await callers[scale].get(first[scale])
                }
                let timings = try await Self.interleaved(requests, scales: spans.count, routes[0][route].name) { scale in
                    (first[scale], try await callers[scale].get(first[scale]))
                }
                for scale in results.indices { results[scale].cached[routes[0][route].name] = timings[scale].p99 }
            }
            var sent = spans.map { _ in 0 }
            let steps = "/users/\(ScaleRoutes.user)/steps"
            let commands = try await Self.interleaved(requests, scales: spans.count, "command") { scale in
                sent[scale] += 1
                return (steps, try await callers[scale].post(steps, json: ScaleRoutes.stepsBody(sent[scale], spans[scale])))
            }
            for scale in results.indices {
                results[scale].commandP99 = commands[scale].p99
                results[scale].head = try await callers[scale].head()
            }
        }
        return results
    }

    /// Serves each of `paths` (one server each, all at once), hands `body` the servers and a
    /// caller of each signed in as the measured user.
    private func withServers(
        _ program: URL, _ paths: [String], _ arguments: [String], _ body: ([ServedStore], [Caller]) async throws -> Void
    ) async throws {
        var servers: [ServedStore] = []
        defer { for server in servers { server.stop() } }
        for path in paths { servers.append(try await ServedStore(program: program, path: path, arguments: arguments)) }
        let timeout = HTTPClient.Configuration.Timeout(connect: .seconds(5), read: .seconds(300))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(timeout: timeout))
        do {
            var callers: [Caller] = []
            for server in servers {
                callers.append(Caller(client: client, base: "http://127.0.0.1:\(server.port)", token: try server.token(user: ScaleRoutes.user)))
            }
            try await body(servers, callers)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Blocks the requests of one route (or of the command) are measured in, at each scale in
    /// turn, the first scale of each block rotating.
    static let blocks = 10

    /// The p99 and the slowest, in milliseconds, at each of `scales` scales, of `count` calls of
    /// `send` per scale (which answers the path it sent at that scale and the status), one at a
    /// time, in ``blocks`` interleaved blocks; any answer but 2xx fails the run, naming `route`
    /// and the path.
    private static func interleaved(
        _ count: Int, scales: Int, _ route: String, _ send: (Int) async throws -> (String, Int)
    ) async throws -> [(p50: Double, p99: Double, max: Double)] {
        var histograms = (0..<scales).map { _ in Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three) }
        let blocks = max(1, min(Self.blocks, count))
        for block in 0..<blocks {
            let size = count / blocks + (block < count % blocks ? 1 : 0)
            for turn in 0..<scales {
                let scale = (block + turn) % scales
                for _ in 0..<size {
                    let started = ContinuousClock.now
                    let (path, status) = try await send(scale)
                    let elapsed = ContinuousClock.now - started
                    guard (200..<300).contains(status) else { throw BenchmarkFailure("\(route): \(path) answered \(status)") }
                    histograms[scale].record(UInt64(max(0, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)))
                }
            }
        }
        return histograms.map { (Double($0.valueAtPercentile(50)) / 1000, Double($0.valueAtPercentile(99)) / 1000, Double($0.max) / 1000) }
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

/// One scale's store, built before any is measured.
struct ScaleStore {
    let scale: Int
    let path: String
    let events: Int
    let places: Int
    let span: ScaleRoutes.Span
}

/// What one scale measured.
struct ScaleMeasurement {
    /// Uncached and cached p99 by route, in milliseconds.
    var uncached: [String: Double] = [:]
    /// The slowest uncached read of each route (the first pays for what later ones find kept).
    var uncachedMax: [String: Double] = [:]
    /// The median uncached read of each route: what a read costs once what it keeps is kept.
    var uncachedMedian: [String: Double] = [:]
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
            if let median = uncachedMedian[name] { report.set("\(name)_uncached_p50_ms", median) }
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
