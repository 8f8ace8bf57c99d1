import DemoData
import EventLog
import EventLogPostgres
import Foundation

/// `logbook-bench log --backend postgres`: the LMDB benchmark's workload and keys on the log in
/// PostgreSQL, next to a plain multi-row `INSERT` into an unindexed table and a plain `SELECT`
/// over the same connection pool, measured in the same run (alternating blocks of batches).
///
/// It runs in a database of its own, made on the server `url` points at and dropped afterwards:
/// the database `url` names is never written (and a log with events is never touched).
public struct PostgresLogBenchmark: Sendable {
    public var url: String
    public var events = 200_000
    public var batchSize = 5_000
    public var batchesPerBlock = 4
    public var durableSingleAppends = 1_000
    public var durableConcurrentAppends = 20_000
    public var concurrentWriters = 64
    public var streamReads = 1_000
    public var conditionedEvents = 20_000
    public var conditionedBatchSize = 1_000
    public var pointReads = 10_000
    public var progress: @Sendable (String) -> Void = { _ in }

    public init(url: String) { self.url = url }

    public func run() async throws -> BenchmarkReport {
        let workload = LogWorkload(events: events)
        var configuration = PostgresLogConfiguration()
        configuration.maxEventsPerCommit = max(batchSize, 8_192)
        configuration.operationTimeout = .seconds(120)
        if let inFlight = ProcessInfo.processInfo.environment["LOGBOOK_BENCH_COMMITS_IN_FLIGHT"].flatMap(Int.init) { configuration.commitsInFlight = inFlight }
        let server = try PostgresURL(url)
        let own = try await PostgresRawBaseline.createOwnDatabase(on: server)
        progress("measuring in a database of its own, \(own.database) (dropped afterwards)")
        do {
            let store = try await PostgresEventStore.connect(own, configuration: configuration)
            let report: BenchmarkReport
            do {
                report = try await measure(store, workload)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            try await PostgresRawBaseline.dropOwnDatabase(own, on: server)
            return report
        } catch {
            try? await PostgresRawBaseline.dropOwnDatabase(own, on: server)
            throw error
        }
    }

    private func measure(_ store: PostgresEventStore, _ workload: LogWorkload) async throws -> BenchmarkReport {
        let raw = PostgresRawBaseline(store: store)
        try await raw.reset()
        var report = BenchmarkReport()
        report.set("backend", "postgres")
        report.set("events", events)
        report.set("batch_size", batchSize)

        progress("appending \(events) events to the log and to a raw table, batch by batch in turn")
        var logSeconds = 0.0
        var rawSeconds = 0.0
        let batches = (events + batchSize - 1) / batchSize
        var versions = [UInt64](repeating: 0, count: workload.streams)
        var block = 0
        while block < batches {
            let blockBatches = block..<min(block + batchesPerBlock, batches)
            var clock = Stopwatch()
            for batch in blockBatches {
                var random = SplitMix64(seed: UInt64(batch + 1))
                let range = range(batch)
                let rows = range.map { n -> (String, UInt64, ProposedEvent) in
                    let index = workload.streamIndex(n)
                    defer { versions[index] += 1 }
                    return (workload.stream(n), versions[index], workload.event(n, random: &random))
                }
                try await raw.insert(rows, first: UInt64(range.lowerBound), recordedAt: workload.base)
            }
            rawSeconds += clock.seconds
            // Two batches in flight, as a server's requests arrive: one is prepared and sent while
            // the other commits (the LMDB benchmark's pipeline depth).
            clock = Stopwatch()
            let batchSize = self.batchSize
            let events = self.events
            try await BenchmarkDrivers.appendPipelined(store, batches: blockBatches, depth: 2) { batch in
                var random = SplitMix64(seed: UInt64(batch + 1))
                let range = (batch * batchSize + 1)...min((batch + 1) * batchSize, events)
                return range.map { n in AppendRequest(stream: workload.stream(n), events: [workload.event(n, random: &random)]) }
            }
            logSeconds += clock.seconds
            block = blockBatches.upperBound
        }
        let logBytes = try await raw.tableBytes(log: true)
        let rawBytes = try await raw.tableBytes(log: false)

        progress("scanning")
        var clock = Stopwatch()
        let rawScanned = try await raw.scan()
        let rawScanSeconds = clock.seconds
        clock = Stopwatch()
        var scanned = 0
        try await store.scan(after: .start, through: nil, filter: .all, chunkSize: 8_192) { _, _, payload in
            scanned += payload.count > 0 ? 1 : 0
            return true
        }
        let scanSeconds = clock.seconds
        guard scanned == events, rawScanned == events else {
            throw BenchmarkFailure("scanned \(scanned) log events and \(rawScanned) raw rows, expected \(events)")
        }

        progress("conditioned appends: \(conditionedEvents) events in calls of \(conditionedBatchSize) requests, each with a subject condition")
        let conditionedSeconds = try await appendConditioned(store, workload, events: conditionedEvents)
        report.set("append_conditioned_eps", Double(conditionedEvents) / conditionedSeconds)
        report.set("append_conditioned_ratio", Double(conditionedEvents) / conditionedSeconds / (Double(events) / rawSeconds))

        progress("reading streams and positions")
        let (streamSeconds, streamEvents) = try await BenchmarkDrivers.readStreams(store, workload, reads: streamReads)
        let pointSeconds = try await BenchmarkDrivers.readPoints(store, workload, reads: pointReads)

        progress("durable appends: 1 writer (and a raw single-row INSERT), then \(concurrentWriters) writers")
        clock = Stopwatch()
        for n in 0..<durableSingleAppends {
            var random = SplitMix64(seed: 1 << 41 + UInt64(n))
            try await raw.insert([("single", UInt64(n), workload.event(n + 1, random: &random))], first: UInt64(events + n + 1), recordedAt: workload.base)
        }
        let rawSingleSeconds = clock.seconds
        // How long commits took (encoding, the call, the round trip) against the wall time: the
        // rest is the appenders' turnaround between commits.
        let singleCommitsBefore = (store.statistics?.transactions ?? 0, store.statistics?.commitMicroseconds ?? 0)
        let singleSeconds = try await BenchmarkDrivers.appendConcurrently(store, workload, writers: 1, total: durableSingleAppends)
        let transactionsBefore = store.statistics?.transactions ?? 0
        let commitMicrosecondsBefore = store.statistics?.commitMicroseconds ?? 0
        let concurrentSeconds = try await BenchmarkDrivers.appendConcurrently(store, workload, writers: concurrentWriters, total: durableConcurrentAppends)
        let concurrentTransactions = (store.statistics?.transactions ?? 0) - transactionsBefore
        let singleCommits = transactionsBefore - singleCommitsBefore.0
        let singleCommitMicroseconds = commitMicrosecondsBefore - singleCommitsBefore.1
        let concurrentCommitMicroseconds = (store.statistics?.commitMicroseconds ?? 0) - commitMicrosecondsBefore
        let concurrentCommitMilliseconds = Double(concurrentCommitMicroseconds) / Double(max(concurrentTransactions, 1)) / 1_000
        report.set("durable_1_writer_commit_ms", Double(singleCommitMicroseconds) / Double(max(singleCommits, 1)) / 1_000)
        report.set("durable_64_writers_commit_ms", concurrentCommitMilliseconds)
        report.set("durable_64_writers_between_commits_ms",
                   max(0, concurrentSeconds * 1_000 / Double(max(concurrentTransactions, 1)) - concurrentCommitMilliseconds))

        LogMeasurements(
            events: events, appendSeconds: logSeconds, rawAppendSeconds: rawSeconds, scanned: scanned, scanSeconds: scanSeconds,
            rawScanned: rawScanned, rawScanSeconds: rawScanSeconds, streamEvents: streamEvents, streamSeconds: streamSeconds,
            pointReads: pointReads, pointSeconds: pointSeconds, singleAppends: durableSingleAppends, singleSeconds: singleSeconds,
            rawSingleSeconds: rawSingleSeconds, concurrentAppends: durableConcurrentAppends, concurrentSeconds: concurrentSeconds,
            concurrentTransactions: concurrentTransactions, bytesPerEvent: Double(logBytes) / Double(events),
            rawBytesPerEvent: Double(rawBytes) / Double(events)
        ).report(into: &report)
        report.set("peak_rss_bytes", ProcessStats.peakResidentBytes)
        return report
    }

    /// Appends `events` in calls of `conditionedBatchSize` requests of one event each, every
    /// request with a subject condition (as every append of a server on a shared log carries),
    /// each subject once per call and each condition current; answers seconds. Streams and
    /// subjects are the phase's own (`cond-…`), so the conditions start from empty subjects.
    private func appendConditioned(_ store: PostgresEventStore, _ workload: LogWorkload, events: Int) async throws -> Double {
        let size = conditionedBatchSize
        var last = [Position](repeating: .start, count: size)
        var random = SplitMix64(seed: 1 << 42)
        let clock = Stopwatch()
        var written = 0
        while written < events {
            let count = min(size, events - written)
            let requests = (0..<count).map { j -> AppendRequest in
                let n = written + j + 1
                var event = workload.event(n, random: &random)
                event.header.subject = "cond-\(j)"
                return AppendRequest(
                    stream: "cond-\(j)", events: [event], expectedVersion: .any,
                    subjectCondition: SubjectCondition(subject: "cond-\(j)", lastPosition: last[j]))
            }
            for (j, result) in try await store.append(batch: requests).enumerated() {
                guard case .success(let appended) = result else { throw BenchmarkFailure("a conditioned append was refused: \(result)") }
                last[j] = appended.lastPosition
            }
            written += count
        }
        return clock.seconds
    }

    private func range(_ batch: Int) -> ClosedRange<Int> { (batch * batchSize + 1)...min((batch + 1) * batchSize, events) }
}
