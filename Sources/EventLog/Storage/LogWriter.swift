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
    private let observerSlot: ObserverSlot

    init(environment: Environment, databases: LogDatabases, configuration: LogConfiguration, watcher: HeadWatcher) {
        limits = AppendLimits(maxEventBytes: configuration.maxEventBytes)
        let observerSlot = ObserverSlot()
        self.observerSlot = observerSlot
        let queue = self.queue
        let statistics = self.statistics
        let finished = self.finished
        let thread = Thread {
            let loop = WriterLoop(
                environment: environment, databases: databases, configuration: configuration,
                watcher: watcher, statistics: statistics, observer: observerSlot)
            var expected = 1
            var gather = Duration.microseconds(100)
            while let jobs = queue.takeBatch(
                maxEvents: configuration.maxEventsPerTransaction, maxBytes: configuration.maxBytesPerTransaction,
                expected: expected, gather: gather)
            {
                let started = ContinuousClock.now
                loop.commit(jobs)
                // Expect as many callers back as were just answered; gather for at most half a
                // commit's time (between 50 µs and 2 ms).
                expected = jobs.count
                gather = min(max((ContinuousClock.now - started) / 2, .microseconds(50)), .milliseconds(2))
            }
            finished.complete()
        }
        thread.name = "logbook-writer"
        thread.start()
    }

    /// Submits appends and checkpoints to be committed together; each append gets its own result.
    ///
    /// Validation and the encoding of every event's tail happen here, on the caller's task, so
    /// the writer thread does as little as possible while it holds the write transaction.
    func submit(_ appends: [AppendRequest], checkpoints: [Checkpoint] = []) async throws -> WriteJob.Results {
        for checkpoint in checkpoints {
            if let problem = limits.problem(with: checkpoint) { throw problem }
        }
        var rejected: [(index: Int, problem: EventStoreError)] = []
        var batch = PreparedBatch(reservingEvents: appends.count)
        for (index, request) in appends.enumerated() {
            if let problem = limits.problem(with: request) {
                rejected.append((index, problem))
            } else {
                batch.add(request)
            }
        }
        if batch.appends.isEmpty && checkpoints.isEmpty { return rejected.map { .failure($0.problem) } }
        let prepared = batch
        let written = try await withCheckedThrowingContinuation { continuation in
            let job = WriteJob(batch: prepared, checkpoints: checkpoints, continuation: continuation)
            if !queue.enqueue(job) { continuation.resume(throwing: EventStoreError.closed) }
        }
        guard !rejected.isEmpty else { return written }
        // Put the refused requests' errors back in their places among the written results.
        var results: WriteJob.Results = []
        results.reserveCapacity(appends.count)
        var writtenIndex = 0
        var rejectedIndex = 0
        for index in appends.indices {
            if rejectedIndex < rejected.count, rejected[rejectedIndex].index == index {
                results.append(.failure(rejected[rejectedIndex].problem))
                rejectedIndex += 1
            } else {
                results.append(written[writtenIndex])
                writtenIndex += 1
            }
        }
        return results
    }

    /// Installs the observer that runs inside every write transaction (once, before appends).
    func attach(_ observer: any LogCommitObserver) throws(EventStoreError) {
        try observerSlot.attach(observer)
    }

    /// Stops taking work, commits everything already queued, and returns when the thread ends.
    func close() async {
        queue.close()
        await finished.wait()
    }
}

/// The commit observer, set once and read by the writer thread before each transaction.
final class ObserverSlot: Sendable {
    private let observer = Mutex<(any LogCommitObserver)?>(nil)

    func attach(_ new: any LogCommitObserver) throws(EventStoreError) {
        let attached = observer.withLock { current -> Bool in
            guard current == nil else { return false }
            current = new
            return true
        }
        if !attached { throw .storage("a commit observer is already attached to this log") }
    }

    var current: (any LogCommitObserver)? { observer.withLock { $0 } }
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

    /// Upper bounds of the commit-size buckets: 1, 2, 4, … 2¹⁶ events, then everything larger.
    public static let commitSizeBounds: [Int] = (0...16).map { 1 << $0 }
    private let commitSizeBuckets = Mutex([Int](repeating: 0, count: 18))

    /// How many commits wrote at most each of ``commitSizeBounds`` events (not cumulative; the
    /// last entry counts commits larger than every bound).
    public var commitSizes: [Int] { commitSizeBuckets.withLock { $0 } }

    func record(events: Int, appends: Int, rejected: Int) {
        let bucket = events <= 1 ? 0 : min(Self.commitSizeBounds.count, Int.bitWidth - (events - 1).leadingZeroBitCount)
        commitSizeBuckets.withLock { $0[bucket] += 1 }
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
    /// Moved into each transaction's session and back after it; left dirty if it failed.
    var state: WriterState
    let clock: any LogClock
    let watcher: HeadWatcher
    let statistics: WriterStatistics
    let observerSlot: ObserverSlot

    init(
        environment: Environment, databases: LogDatabases, configuration: LogConfiguration, watcher: HeadWatcher,
        statistics: WriterStatistics, observer: ObserverSlot
    ) {
        self.observerSlot = observer
        self.environment = environment
        self.databases = databases
        self.state = WriterState(capacity: configuration.writerCacheCapacity)
        self.clock = configuration.clock
        self.watcher = watcher
        self.statistics = statistics
    }

    func commit(_ jobs: [WriteJob]) {
        let recordedAt = clock.now()
        let capacity = state.capacity
        let observer = observerSlot.current
        do {
            let (results, counts) = try environment.write { txn in
                try txn.withCursor(databases.events) { events in
                    // Move the state in; if this attempt throws, a fresh (dirty) state takes its place.
                    let taken = state
                    state = WriterState(capacity: capacity)
                    var session = try AppendSession(
                        txn: txn, events: events, databases: databases, state: taken, recordedAt: recordedAt,
                        recordsEvents: observer != nil)
                    var results: [WriteJob.Results] = []
                    results.reserveCapacity(jobs.count)
                    var rejected = 0
                    for job in jobs {
                        var jobResults: WriteJob.Results = []
                        jobResults.reserveCapacity(job.batch.appends.count)
                        var jobRejected = 0
                        for append in job.batch.appends {
                            let result = try session.apply(append, of: job.batch)
                            if case .failure = result { jobRejected += 1 }
                            jobResults.append(result)
                        }
                        if jobRejected == 0 {
                            for checkpoint in job.checkpoints { try session.store(checkpoint) }
                        }
                        rejected += jobRejected
                        results.append(jobResults)
                    }
                    try session.finish()
                    if let observer, session.eventsWritten > 0 {
                        try observer.logWillCommit(CommittedBatch(events: session.written), in: txn)
                    }
                    state = session.state
                    return (results, (events: session.eventsWritten, appends: results.reduce(0) { $0 + $1.count }, rejected: rejected))
                }
            }
            state.committed()
            if counts.events > 0 { observer?.logDidCommit() }
            watcher.publish(state.headPosition)
            statistics.record(events: counts.events, appends: counts.appends, rejected: counts.rejected)
            for (job, result) in zip(jobs, results) { job.continuation.resume(returning: result) }
        } catch {
            observer?.logDidAbort()
            for job in jobs { job.continuation.resume(throwing: error) }
        }
    }
}
