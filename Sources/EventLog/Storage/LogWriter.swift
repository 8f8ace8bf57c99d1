import Foundation
import LMDB
import Synchronization

/// The single writer: one dedicated thread that takes whatever appends are waiting, writes them
/// in one LMDB transaction, commits once (one `fsync` in durable mode), and answers every caller.
///
/// Positions are assigned inside that transaction, so they are gapless and in commit order. A
/// caller's conflict fails only its own append. A storage failure fails the whole batch and
/// leaves the writer's caches to be reloaded from the database.
final class LogWriter: Sendable {
    private let queue = WriteQueue()
    private let finished = Completion()
    private let limits: AppendLimits
    let statistics = WriterStatistics()

    init(environment: Environment, databases: LogDatabases, configuration: LogConfiguration, watcher: HeadWatcher) {
        limits = AppendLimits(maxEventBytes: configuration.maxEventBytes)
        let queue = self.queue
        let statistics = self.statistics
        let finished = self.finished
        let thread = Thread {
            let loop = WriterLoop(
                environment: environment, databases: databases, configuration: configuration,
                watcher: watcher, statistics: statistics)
            while let jobs = queue.takeBatch(
                maxEvents: configuration.maxEventsPerTransaction, maxBytes: configuration.maxBytesPerTransaction)
            {
                loop.commit(jobs)
            }
            finished.complete()
        }
        thread.name = "logbook-writer"
        thread.start()
    }

    /// Submits appends and checkpoints to be committed together; each append gets its own result.
    func submit(_ appends: [AppendRequest], checkpoints: [Checkpoint] = []) async throws -> WriteJob.Results {
        var results: WriteJob.Results = []
        var valid: [AppendRequest] = []
        var slots: [Int] = []
        var events = 0
        var bytes = 0
        for (index, request) in appends.enumerated() {
            if let problem = limits.problem(with: request) {
                results.append(.failure(problem))
            } else {
                results.append(.failure(.closed))
                valid.append(request)
                slots.append(index)
                events += request.events.count
                for event in request.events { bytes += event.payload.count + event.metadata.count + 64 }
            }
        }
        for checkpoint in checkpoints {
            if let problem = limits.problem(with: checkpoint) { throw problem }
        }
        if valid.isEmpty && checkpoints.isEmpty { return results }
        let written = try await withCheckedThrowingContinuation { continuation in
            let job = WriteJob(
                appends: valid, checkpoints: checkpoints, eventCount: events, byteCount: bytes, continuation: continuation)
            if !queue.enqueue(job) { continuation.resume(throwing: EventStoreError.closed) }
        }
        for (slot, result) in zip(slots, written) { results[slot] = result }
        return results
    }

    /// Stops taking work, commits everything already queued, and returns when the thread ends.
    func close() async {
        queue.close()
        await finished.wait()
    }
}

/// A one-time signal that async code can wait for: here, the writer thread's end.
final class Completion: Sendable {
    private let state = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func complete() {
        let waiters = state.withLock { state in
            state.done = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if !state.done { state.waiters.append(continuation) }
                return state.done
            }
            if done { continuation.resume() }
        }
    }
}

/// Counters of the writer's work, for metrics and benchmarks.
public final class WriterStatistics: Sendable {
    private let transactionsCounter = Atomic<Int>(0)
    private let eventsCounter = Atomic<Int>(0)
    private let appendsCounter = Atomic<Int>(0)
    private let rejectedCounter = Atomic<Int>(0)

    /// Write transactions committed (each one `fsync` in durable mode).
    public var transactions: Int { transactionsCounter.load(ordering: .relaxed) }
    /// Events written.
    public var events: Int { eventsCounter.load(ordering: .relaxed) }
    /// Appends (requests) committed, including idempotent repeats.
    public var appends: Int { appendsCounter.load(ordering: .relaxed) }
    /// Appends refused for a conflict.
    public var rejected: Int { rejectedCounter.load(ordering: .relaxed) }

    func record(events: Int, appends: Int, rejected: Int) {
        transactionsCounter.add(1, ordering: .relaxed)
        eventsCounter.add(events, ordering: .relaxed)
        appendsCounter.add(appends, ordering: .relaxed)
        rejectedCounter.add(rejected, ordering: .relaxed)
    }
}

/// The writer thread's own state and the commit of one batch.
private final class WriterLoop {
    let environment: Environment
    let databases: LogDatabases
    let state: WriterState
    let clock: any LogClock
    let watcher: HeadWatcher
    let statistics: WriterStatistics

    init(environment: Environment, databases: LogDatabases, configuration: LogConfiguration, watcher: HeadWatcher, statistics: WriterStatistics) {
        self.environment = environment
        self.databases = databases
        self.state = WriterState(databases: databases, capacity: configuration.writerCacheCapacity)
        self.clock = configuration.clock
        self.watcher = watcher
        self.statistics = statistics
    }

    func commit(_ jobs: [WriteJob]) {
        let recordedAt = clock.now()
        do {
            let (results, written) = try environment.write { txn in
                var session = try AppendSession(txn: txn, databases: databases, state: state, recordedAt: recordedAt)
                var results: [WriteJob.Results] = []
                results.reserveCapacity(jobs.count)
                for job in jobs {
                    var jobResults: WriteJob.Results = []
                    jobResults.reserveCapacity(job.appends.count)
                    for request in job.appends { jobResults.append(try session.apply(request)) }
                    if jobResults.allSatisfy({ (try? $0.get()) != nil }) {
                        for checkpoint in job.checkpoints { try session.store(checkpoint) }
                    }
                    results.append(jobResults)
                }
                try session.finish()
                return (results, session.eventsWritten)
            }
            state.committed()
            watcher.publish(state.headPosition)
            let appends = results.reduce(0) { $0 + $1.count }
            let rejected = results.reduce(0) { total, job in total + job.filter { (try? $0.get()) == nil }.count }
            statistics.record(events: written, appends: appends, rejected: rejected)
            for (job, result) in zip(jobs, results) { job.continuation.resume(returning: result) }
        } catch {
            for job in jobs { job.continuation.resume(throwing: error) }
        }
    }
}
