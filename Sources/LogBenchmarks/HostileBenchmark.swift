import AsyncHTTPClient
import DemoData
import EventLog
public import Foundation
import Histogram
import NIOCore
import Synchronization
@_spi(Benchmarks) import Logbook

/// `logbook-bench hostile`: can one user slow another? A real `logbook serve` over a catalog of
/// `places` places and an attacker whose history holds `attackerEvents` events. The victim (another
/// user) reads alone first — its quiet p99, the baseline of the same run — then again while the
/// attacker sends the worst request of one route at a time, `attackers` at once with fresh
/// parameters (so the cache never answers), and finally all routes together. Reports the victim's
/// p99 under each attack against its quiet p99, and what the attacker got (answers, 429s).
public struct HostileBenchmark: Sendable {
    public var places = 10_000
    public var attackerEvents = 1_000_000
    public var phaseSeconds = 4.0
    public var attackers = 8
    /// Only these attacks (by name), or all.
    public var only: Set<String>?
    public var directory: String?
    /// Keep the store afterwards, and reuse one already built there.
    public var keep = false
    /// The `logbook` program to serve with (by default the one beside this executable).
    public var executable: URL? = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("logbook")
    public var progress: @Sendable (String) -> Void = { _ in }

    public init() {}

    public func run() async throws -> BenchmarkReport {
        guard let program = executable, FileManager.default.isExecutableFile(atPath: program.path) else {
            throw BenchmarkFailure("cannot find \(executable?.path ?? "logbook") to serve: build it with `swift build -c release --product logbook`")
        }
        let root = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("logbook-bench-hostile-\(places)-\(attackerEvents)").path
        if !keep { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(atPath: root) } }
        let built = Stopwatch()
        try await HostileDataSet(places: places, attackerEvents: attackerEvents, progress: progress).build(at: root)
        progress("data set ready in \(Int(built.seconds)) s; serving it")

        let server = try await ServedStore(program: program, path: root)
        defer { server.stop() }
        // The victim and the attacker are two clients, as two people's apps are: each with its
        // own connections (a shared pool of 8 would queue the victim's reads behind the
        // attacker's 8 loops in the client itself, and measure that), the attacker with one
        // connection per loop.
        let timeout = HTTPClient.Configuration.Timeout(connect: .seconds(5), read: .seconds(120))
        var attackerConfiguration = HTTPClient.Configuration(timeout: timeout)
        attackerConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, attackers)
        let clients = (victim: HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(timeout: timeout)),
                       attacker: HTTPClient(eventLoopGroupProvider: .singleton, configuration: attackerConfiguration))
        do {
            let report = try await measure(server: server, victimClient: clients.victim, attackerClient: clients.attacker)
            try await clients.victim.shutdown()
            try await clients.attacker.shutdown()
            return report
        } catch {
            try? await clients.victim.shutdown()
            try? await clients.attacker.shutdown()
            throw error
        }
    }

    private func measure(server: ServedStore, victimClient: HTTPClient, attackerClient: HTTPClient) async throws -> BenchmarkReport {
        let base = "http://127.0.0.1:\(server.port)"
        let victim = Caller(client: victimClient, base: base, token: try server.token(user: HostileDataSet.victim))
        let attacker = Caller(client: attackerClient, base: base, token: try server.token(user: HostileDataSet.attacker))
        let admin = Caller(client: victimClient, base: base, token: try server.token(user: "bench", admin: true))
        let head = try await admin.head()

        var report = BenchmarkReport()
        report.set("benchmark", "hostile")
        report.set("places", places)
        report.set("attacker_events", attackerEvents)
        report.set("phase_seconds", phaseSeconds)
        report.set("attackers", attackers)

        // The victim alone, twice (the first pass warms the server), then the search alone.
        _ = try await run(victim: victim, attacks: [], attacker: attacker, head: head)
        let quiet = try await run(victim: victim, attacks: [], attacker: attacker, head: head)
        let quietP99 = quiet.victim.p99
        report.set("victim_quiet_p50_ms", quiet.victim.p50)
        report.set("victim_quiet_p99_ms", quietP99)
        progress("victim alone: p50 \(quiet.victim.p50) ms, p99 \(quietP99) ms")
        let attacks = HostileRequests.attacks(head: head).filter { only?.contains($0.name) ?? true }
        if let search = attacks.first(where: { $0.name == "places_search" }) {
            let alone = try await run(victim: nil, attacks: [search], attacker: attacker, head: head, concurrency: 1)
            report.set("search_alone_p50_ms", alone.attacker.p50)
            report.set("search_alone_p99_ms", alone.attacker.p99)
            progress("places search alone: p50 \(alone.attacker.p50) ms, p99 \(alone.attacker.p99) ms")
        }
        var worst = 0.0
        var routes = BenchmarkReport()
        for attack in attacks + [HostileRequests.Attack(name: "all", next: { _ in "" })] {
            let chosen = attack.name == "all" ? attacks : [attack]
            let phase = try await run(victim: victim, attacks: chosen, attacker: attacker, head: head)
            let ratio = quietP99 > 0 ? phase.victim.p99 / quietP99 : 0
            worst = max(worst, ratio)
            var route = BenchmarkReport()
            route.set("victim_p99_ms", phase.victim.p99)
            route.set("victim_p99_ratio", ratio)
            route.set("attacker_p50_ms", phase.attacker.p50)
            route.set("attacker_p99_ms", phase.attacker.p99)
            route.set("attacker_answered", phase.attacker.answered)
            route.set("attacker_refused_429", phase.attacker.refused)
            route.set("attacker_failed", phase.attacker.failed)
            routes.set(attack.name, route)
            progress("\(attack.name): victim p99 \(phase.victim.p99) ms (×\(String(format: "%.2f", ratio))), attacker p99 \(phase.attacker.p99) ms, "
                + "\(phase.attacker.answered) answered, \(phase.attacker.refused) refused, \(phase.attacker.failed) failed")
        }
        report.set("victim_p99_ratio_max", worst)
        report.set("routes", routes)
        return report
    }

    /// Latencies and outcomes of one side of a phase.
    struct Side {
        var p50 = 0.0
        var p99 = 0.0
        var answered = 0
        var refused = 0
        var failed = 0
    }

    /// One phase: the victim reading in a loop (if given) while `concurrency` attacker loops send
    /// `attacks` in turn, for ``phaseSeconds``.
    private func run(
        victim: Caller?, attacks: [HostileRequests.Attack], attacker: Caller, head: UInt64, concurrency: Int? = nil
    ) async throws -> (victim: Side, attacker: Side) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(phaseSeconds * 1000))
        let loops = attacks.isEmpty ? 0 : (concurrency ?? attackers)
        return try await withThrowingTaskGroup(of: (Bool, Side).self) { group in
            if let victim {
                group.addTask {
                    var rng = SplitMix64(seed: 99)
                    return (true, try await Self.loop(until: deadline) { try await victim.get(HostileRequests.victim(&rng)) })
                }
            }
            for index in 0..<loops {
                group.addTask {
                    var rng = SplitMix64(seed: UInt64(index) &* 7919 &+ UInt64(attacks.count))
                    var turn = index
                    return (false, try await Self.loop(until: deadline) {
                        let attack = attacks[turn % attacks.count]
                        turn += 1
                        return try await attacker.get(attack.next(&rng), streamBytes: attack.streamBytes)
                    })
                }
            }
            var result = (victim: Side(), attacker: Side())
            for try await (isVictim, side) in group {
                if isVictim { result.victim = side } else {
                    result.attacker.answered += side.answered
                    result.attacker.refused += side.refused
                    result.attacker.failed += side.failed
                    result.attacker.p50 = max(result.attacker.p50, side.p50)
                    result.attacker.p99 = max(result.attacker.p99, side.p99)
                }
            }
            return result
        }
    }

    /// Sends requests until `deadline`, timing each; a 429 is counted, not timed, and waited out briefly.
    private static func loop(until deadline: ContinuousClock.Instant, _ send: () async throws -> Int) async throws -> Side {
        var histogram = Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
        var side = Side()
        while ContinuousClock.now < deadline {
            let started = ContinuousClock.now
            let status = try await send()
            let elapsed = ContinuousClock.now - started
            switch status {
            case 200..<300:
                side.answered += 1
                histogram.record(UInt64(max(0, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)))
            case 429:
                side.refused += 1
                try await Task.sleep(for: .milliseconds(50))
            default:
                side.failed += 1
            }
        }
        side.p50 = Double(histogram.valueAtPercentile(50)) / 1000
        side.p99 = Double(histogram.valueAtPercentile(99)) / 1000
        return side
    }
}

/// One caller of the served store: its token, GETs answered with their status.
struct Caller: Sendable {
    let client: HTTPClient
    let base: String
    let token: String

    /// GETs `path`, reads the answer (at most `streamBytes` of a stream), returns the status.
    func get(_ path: String, streamBytes: Int? = nil) async throws -> Int {
        var request = HTTPClientRequest(url: base + path)
        request.headers.add(name: "Authorization", value: "Bearer " + token)
        let response = try await client.execute(request, timeout: .seconds(120))
        var read = 0
        for try await chunk in response.body {
            read += chunk.readableBytes
            if let streamBytes, read >= streamBytes { break }
        }
        return Int(response.status.code)
    }

    /// POSTs `json` to `path`, reads the answer, returns the status.
    func post(_ path: String, json: String) async throws -> Int {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer " + token)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: json))
        let response = try await client.execute(request, timeout: .seconds(120))
        for try await _ in response.body {}
        return Int(response.status.code)
    }

    /// The log's head position (`/ready`).
    func head() async throws -> UInt64 {
        let response = try await client.execute(HTTPClientRequest(url: base + "/ready"), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 16)
        let text = String(buffer: body)
        guard let range = text.range(of: "\"head\":"), let value = UInt64(text[range.upperBound...].prefix { $0.isNumber }) else {
            throw BenchmarkFailure("/ready answered \(response.status.code): \(text)")
        }
        return value
    }
}
