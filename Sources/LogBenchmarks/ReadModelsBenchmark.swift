import EventLogLMDB
import DemoData
import Synchronization
import EventLog
import Foundation
import Histogram
@_spi(Benchmarks) public import Logbook

/// `logbook-bench projections`: a full rebuild of every read model over the generated data set
/// against a decode-only scan of the same log, live appends with and without inline projections,
/// and query latencies cached and uncached — all in one run.
public struct ReadModelsBenchmark: Sendable {
    public var users = 760
    public var weeks = 12
    public var seed: UInt64 = 7
    public var queryIterations = 20_000
    public var appendEvents = 200_000
    public var directory: String?
    /// Keep the directory afterwards, and reuse a data set already generated there.
    public var keep = false
    /// Only generate (or reuse) the data set and time the decode scan and the rebuild.
    public var rebuildOnly = false
    /// Only generate (or reuse) the data set and time the appends (for profiling).
    public var appendOnly = false
    /// How the generated store keeps payloads (a new store's default: encrypted per user).
    public var payloadEncryption: PayloadFormat = .current
    public var progress: @Sendable (String) -> Void = { _ in }

    public init() {}

    public func run() async throws -> BenchmarkReport {
        let root = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("logbook-bench-projections-\(ProcessInfo.processInfo.processIdentifier)").path
        if !keep { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(atPath: root) } }
        try? FileManager.default.removeItem(atPath: root + "/plain")

        var configuration = LogbookConfiguration()
        configuration.log.durability = .noSync
        configuration.log.initialMapSize = 1 << 32
        configuration.payloadEncryption = payloadEncryption
        var logbook = try await Logbook.open(path: root + "/logbook", configuration: configuration)
        var generator = DemoDataGenerator(seed: seed, users: users)
        generator.weeks = weeks
        progress("generating \(users) users × \(weeks) weeks")
        let generation = Stopwatch()
        let existing = try await logbook.log.headPosition().rawValue
        var generated = DemoDataGenerator.Report()
        if !(keep && existing > 0) {
            // A line each time the count passes another 500,000 (it grows a batch at a time).
            let reported = Atomic<Int>(0)
            generated = try await generator.run(on: logbook) { commands in
                let step = commands / 500_000
                if step > reported.load(ordering: .relaxed) {
                    reported.store(step, ordering: .relaxed)
                    progress("  \(commands) commands")
                }
            }
        }
        let events = Int(try await logbook.log.headPosition().rawValue)
        var report = BenchmarkReport()
        report.set("events", events)
        report.set("users", users)
        report.set("payloads", logbook.payloadFormat.rawValue)
        report.set("generate_seconds", generation.seconds)
        report.set("commands_rejected", generated.rejected.values.reduce(0, +))

        if appendOnly {
            await logbook.close()
            let (inline, plain) = try await appendRates(at: root + "/logbook", configuration: configuration, head: events)
            report.set("append_inline_eps", inline)
            report.set("append_plain_eps", plain)
            report.set("append_inline_ratio", inline / plain)
            return report
        }
        progress("decode-only scan of \(events) events")
        let decodeClock = Stopwatch()
        let decoded = try await Self.decodeAll(logbook)
        let decodeSeconds = decodeClock.seconds
        guard decoded == events else { throw BenchmarkFailure("decoded \(decoded) of \(events) events") }

        progress("rebuilding every read model")
        // Start the rebuild's peak from what the process holds, not from the decode scan's pages.
        (logbook.log as? LMDBEventStore)?.environment.releaseResidentPages()
        ProcessStats.resetPeakResident()
        let memory = SharedMemoryPeak()
        let rebuildClock = Stopwatch()
        try await logbook.rebuild { _ in memory.sample() }
        let rebuildSeconds = rebuildClock.seconds
        memory.sample()
        let rebuildPeak = ProcessStats.peakResidentBytes

        report.set("rebuild_eps", Double(events) / rebuildSeconds)
        report.set("decode_scan_eps", Double(events) / decodeSeconds)
        report.set("rebuild_vs_decode_ratio", rebuildSeconds / decodeSeconds)
        report.set("rebuild_peak_rss_bytes", rebuildPeak)
        report.set("rebuild_peak_rss_anon_bytes", memory.peak)
        if rebuildOnly {
            await logbook.close()
            return report
        }

        progress("upgrading every read model beside the live ones, querying meanwhile")
        report.set("upgrade", try await upgradeMeasurements(logbook, events: events, rebuildSeconds: rebuildSeconds))

        progress("appending with and without inline projections")
        await logbook.close()
        let (inline, plain) = try await appendRates(at: root + "/logbook", configuration: configuration, head: events)
        report.set("append_inline_eps", inline)
        report.set("append_plain_eps", plain)
        report.set("append_inline_ratio", inline / plain)
        logbook = try await Logbook.open(path: root + "/logbook", configuration: configuration)

        progress("querying")
        report.set("query_p99_us", try await queryLatencies(logbook))
        report.set("peak_rss_bytes", ProcessStats.peakResidentBytes)
        report.set("peak_rss_anon_bytes", max(memory.peak, ProcessStats.anonymousResidentBytes))
        let verification = try await logbook.verify()
        report.set("verify_matches", verification.filter(\.matches).count)
        await logbook.close()
        return report
    }

    /// Decodes every event of the log into domain events without folding them: the baseline a
    /// rebuild is compared with (payloads opened as a rebuild opens them). Returns how many
    /// events were decoded.
    static func decodeAll(_ logbook: Logbook, chunkSize: Int = 65_536) async throws -> Int {
        var count = 0
        let payloads = logbook.payloads
        try await logbook.log.scan(after: .start, through: nil, filter: .all, chunkSize: chunkSize) { envelope, _, payload in
            if try FoldEvent.decode(envelope, payload: payload, payloads) != nil { count += 1 }
            return true
        }
        return count
    }

    /// Live appends of step batches of 1,000 events (no flush at commit, so the projections' CPU
    /// cost is what differs), into the same log in blocks of fifty batches: through a Logbook
    /// (inline projections folding every commit), then through the bare LMDB log with nothing
    /// attached. Before each block with projections, opening the Logbook catches them up
    /// (untimed) with the batches they missed. Payloads are sealed, untimed, for both.
    private func appendRates(at path: String, configuration: LogbookConfiguration, head: Int) async throws -> (inline: Double, plain: Double) {
        let batch = 1_000
        var generator = StepBatchGenerator(seed: seed &+ 99, users: users, after: head)
        var inlineSeconds = 0.0
        var plainSeconds = 0.0
        var inlineEvents = 0
        var plainEvents = 0
        var open: (logbook: Logbook?, store: LMDBEventStore?, keys: PayloadKeys?) = (nil, nil, nil)
        func closeOpen() async {
            await open.logbook?.close()
            await open.store?.close()
            open.keys?.close()
        }
        do {
            for batchIndex in 0..<((appendEvents + batch - 1) / batch) {
                // Blocks of fifty batches: with the projections, then without.
                let withReadModels = (batchIndex / 50) % 2 == 0
                if batchIndex % 50 == 0 {
                    await closeOpen()
                    if withReadModels {
                        open = (try await Logbook.open(path: path, configuration: configuration), nil, nil)
                    } else {
                        let encrypted = configuration.payloadEncryption.isEncrypted
                        let keys = encrypted ? try PayloadKeys(encryptingWithKeysIn: (path as NSString).appendingPathComponent("keys")) : nil
                        do {
                            open = (nil, try LMDBEventStore(path: path, configuration: configuration.log), keys)
                        } catch {
                            keys?.close()
                            throw error
                        }
                    }
                }
                var requests = generator.next(batch)
                // Sealed untimed, as a command seals them: an encrypted store holds no plaintext payload of a user's event.
                if let keys = open.logbook?.payloads ?? open.keys {
                    for index in requests.indices { try keys.seal(&requests[index]) }
                }
                let log: any EventStore = open.logbook?.log ?? open.store!
                let clock = Stopwatch()
                for result in try await log.append(batch: requests) { _ = try result.get() }
                if withReadModels {
                    inlineSeconds += clock.seconds
                    inlineEvents += batch
                } else {
                    plainSeconds += clock.seconds
                    plainEvents += batch
                }
            }
        } catch {
            await closeOpen()
            throw error
        }
        await closeOpen()
        return (Double(inlineEvents) / inlineSeconds, Double(plainEvents) / plainSeconds)
    }

    /// p99 latencies in microseconds of six queries, uncached (caching off) and cached. The
    /// training week is asked of the demo's trainees (every third user), whose weeks hold plans,
    /// heart-rate tracks and a target.
    /// An upgrade of every read model (built beside the live ones, switched in) against the
    /// rebuild in place just measured, and the p99 of uncached weekly-stats queries while it runs
    /// against the same queries once it has ended: what an upgrade costs and what it leaves
    /// queries.
    private func upgradeMeasurements(_ logbook: Logbook, events: Int, rebuildSeconds: Double) async throws -> BenchmarkReport {
        let week = CivilDate(year: 2026, month: 10, day: 14)!
        let everyone = (0..<min(users, 64)).map(DemoDataGenerator.userId)
        logbook.setQueryCaching(false)
        defer { logbook.setQueryCaching(true) }
        func query(_ index: Int) async throws -> UInt64 {
            let started = ContinuousClock.now
            _ = try await logbook.weeklyStats(user: everyone[index % everyone.count], containing: week)
            let elapsed = ContinuousClock.now - started
            return UInt64(elapsed.components.seconds) * 1_000_000_000 + UInt64(elapsed.components.attoseconds / 1_000_000_000)
        }
        let finished = Atomic<Bool>(false)
        let clock = Stopwatch()
        let upgrade = Task {
            defer { finished.store(true, ordering: .releasing) }
            try await logbook.upgrade()
        }
        var during = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        var answered = 0
        while !finished.load(ordering: .acquiring) {
            _ = during.record(try await query(answered))
            answered += 1
        }
        try await upgrade.value
        let upgradeSeconds = clock.seconds
        var after = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        for index in 0..<max(answered, 1_000) { _ = after.record(try await query(index)) }
        var report = BenchmarkReport()
        report.set("upgrade_eps", Double(events) / upgradeSeconds)
        report.set("upgrade_vs_rebuild_ratio", upgradeSeconds / rebuildSeconds)
        report.set("queries_during_upgrade", answered)
        report.set("query_during_upgrade_p99_us", Double(during.valueAtPercentile(99.0)) / 1000)
        report.set("query_after_upgrade_p99_us", Double(after.valueAtPercentile(99.0)) / 1000)
        report.set("query_during_upgrade_p99_ratio", Double(during.valueAtPercentile(99.0)) / Double(max(1, after.valueAtPercentile(99.0))))
        return report
    }

    private func queryLatencies(_ logbook: Logbook) async throws -> BenchmarkReport {
        let week = CivilDate(year: 2026, month: 10, day: 14)!
        let everyone = (0..<min(users, 64)).map(DemoDataGenerator.userId)
        let trainees = (0..<min(users, 192)).filter { $0 % 3 == 1 }.prefix(64).map(DemoDataGenerator.userId)
        let queries: [(String, [String], @Sendable (String) async throws -> Void)] = [
            ("weekly_stats", everyone, { user in _ = try await logbook.weeklyStats(user: user, containing: week) }),
            ("goal_week", everyone, { user in _ = try await logbook.goalWeek(user: user, containing: week) }),
            ("saved_places", everyone, { user in _ = try await logbook.savedPlaces(user: user, category: .restaurant) }),
            ("timeline_page", everyone, { user in _ = try await logbook.timeline(user: user, limit: 50) }),
            // The stats tab over ten years of weeks (522 buckets).
            ("stats_summary", everyone, { user in
                _ = try await logbook.statsSummary(user: user, period: .week, from: week.adding(days: -3652), to: week)
            }),
            ("training_week", trainees.isEmpty ? everyone : trainees, { user in
                _ = try await logbook.trainingWeek(user: user, containing: week, today: week.adding(days: 3))
            }),
        ]
        var report = BenchmarkReport()
        for (name, sampleUsers, run) in queries {
            for cached in [true, false] {
                logbook.setQueryCaching(cached)
                var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
                if cached { for user in sampleUsers { try await run(user) } }
                for iteration in 0..<queryIterations {
                    let user = sampleUsers[iteration % sampleUsers.count]
                    let started = ContinuousClock.now
                    try await run(user)
                    let elapsed = ContinuousClock.now - started
                    _ = histogram.record(UInt64(elapsed.components.attoseconds / 1_000_000_000) + UInt64(elapsed.components.seconds) * 1_000_000_000)
                }
                report.set("\(name)_\(cached ? "cached" : "uncached")", Double(histogram.valueAtPercentile(99.0)) / 1000)
            }
        }
        logbook.setQueryCaching(true)
        return report
    }
}

/// The append measurement's events: 15-sample step batches of every user in turn, each with the
/// value its payload encodes attached (as a command hands it over).
private struct StepBatchGenerator {
    var random: SplitMix64
    let users: Int
    var sent = 0
    var minute: Int64 = 0
    /// 2026-11-16T07:00:00Z, in microseconds since 1970.
    let base: Int64 = 1_794_812_400_000_000

    /// Events for `users`, different for each `head` the log has (a run over a kept data set
    /// appends new ids and new sample times, not retries of the previous run's events, which
    /// the log would answer without writing).
    init(seed: UInt64, users: Int, after head: Int) {
        random = SplitMix64(seed: seed &+ UInt64(head))
        self.users = users
        minute = Int64(head / 1_000) * 15
    }

    mutating func next(_ count: Int) -> [AppendRequest] {
        var requests: [AppendRequest] = []
        for index in 0..<count {
            let user = DemoDataGenerator.userId((sent + index) % users)
            var samples: [StepSample] = []
            for offset in 0..<15 {
                let start = Timestamp(microsecondsSinceEpoch: base + (minute + Int64(offset)) * 60_000_000)
                let end = Timestamp(microsecondsSinceEpoch: start.instant + 60_000_000)
                samples.append(StepSample(start: start, end: end, count: Int(random.next() % 120), source: "phone"))
            }
            let steps = DomainEvent.stepsRecorded(StepsRecorded(samples: samples))
            var event = ProposedEvent(
                eventId: random.uuid(), type: EventType.stepsRecorded.rawValue, schemaVersion: 2, subject: user,
                occurredAt: Timestamp(microsecondsSinceEpoch: base + minute * 60_000_000),
                payload: BinaryEventCodec.encode(steps))
            event.decoded = steps
            requests.append(AppendRequest(stream: "steps-\(user)", events: [event]))
        }
        sent += count
        minute += 15
        return requests
    }
}
