import EventLog
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

    init(
        environment: Environment, databases: LogDatabases, configuration: LogConfiguration, watcher: HeadWatcher, journal: IdJournal
    ) {
        limits = AppendLimits(maxEventBytes: configuration.maxEventBytes)
        let observerSlot = ObserverSlot()
        self.observerSlot = observerSlot
        let queue = self.queue
        let statistics = self.statistics
        let finished = self.finished
        let thread = Thread {
            let loop = WriterLoop(
                environment: environment, databases: databases, configuration: configuration,
                watcher: watcher, statistics: statistics, observer: observerSlot, journal: journal)
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
        var batch = PreparedBatch(reservingFor: appends)
        for (index, request) in appends.enumerated() {
            if let problem = limits.problem(with: request) {
                rejected.append((index, problem))
            } else {
                batch.add(request)
            }
        }
        if batch.appends.isEmpty && checkpoints.isEmpty { return rejected.map { .failure($0.problem) } }
        let prepared = batch
        let appending = prepared.appends.count
        statistics.enqueued(appending)
        defer { statistics.answered(appending) }
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
