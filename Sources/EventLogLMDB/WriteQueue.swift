import EventLog
import Dispatch
import Synchronization

/// One caller's work for the writer: appends (each decided on its own) and checkpoints, answered
/// through a continuation once the transaction that holds them commits.
struct WriteJob: Sendable {
    typealias Results = [Result<AppendResult, EventStoreError>]

    var batch: PreparedBatch
    /// Stored in the same transaction, if every append of the job succeeded.
    var checkpoints: [Checkpoint]
    var eventCount: Int { batch.events.count }
    var byteCount: Int { batch.byteCount }
    let continuation: CheckedContinuation<Results, any Error>
}

/// The hand-off between appending tasks and the writer thread.
///
/// Callers await their own job's result, so the number of jobs waiting is bounded by the number
/// of callers; the writer takes as many waiting jobs as fit in one transaction's limits.
final class WriteQueue: Sendable {
    private struct State {
        var jobs: [WriteJob] = []
        var closed = false
    }

    private let state = Mutex(State())
    private let wakeup = DispatchSemaphore(value: 0)

    /// Queues a job; false if the queue is closed.
    func enqueue(_ job: WriteJob) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { wakeup.signal() }
        return accepted
    }

    /// Refuses new jobs; the writer drains what is queued, then stops.
    func close() {
        state.withLock { $0.closed = true }
        wakeup.signal()
    }

    /// Blocks until jobs are waiting and takes those that fit the limits (always at least one);
    /// nil once the queue is closed and empty.
    ///
    /// Group commit: if fewer than `expected` jobs are waiting (the callers the last commit just
    /// answered are likely to be back in a moment), waits up to `gather` for more before taking
    /// them, so concurrent appenders share one fsync instead of alternating small and large
    /// commits. A lone appender never waits: its job meets an expectation of one.
    func takeBatch(maxEvents: Int, maxBytes: Int, expected: Int, gather: Duration) -> [WriteJob]? {
        var deadline: DispatchTime?
        while true {
            let waiting = state.withLock { $0.jobs.count }
            if waiting > 0, waiting < expected {
                let now = DispatchTime.now()
                if deadline == nil {
                    let nanoseconds = gather.components.seconds * 1_000_000_000 + gather.components.attoseconds / 1_000_000_000
                    deadline = now + .nanoseconds(Int(nanoseconds))
                }
                if let deadline, now < deadline, wakeup.wait(timeout: deadline) == .success { continue }
            }
            let taken: [WriteJob]? = state.withLock { state in
                if state.jobs.isEmpty { return state.closed ? nil : [] }
                var events = 0
                var bytes = 0
                var count = 0
                for job in state.jobs {
                    if count > 0, events + job.eventCount > maxEvents || bytes + job.byteCount > maxBytes { break }
                    events += job.eventCount
                    bytes += job.byteCount
                    count += 1
                }
                if count == state.jobs.count {
                    defer { state.jobs = [] }
                    return state.jobs
                }
                let batch = Array(state.jobs[..<count])
                state.jobs.removeFirst(count)
                return batch
            }
            guard let taken else { return nil }
            if !taken.isEmpty { return taken }
            deadline = nil
            wakeup.wait()
        }
    }
}
