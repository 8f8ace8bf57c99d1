import Foundation

/// Threads of their own for replay (rebuilds, verification, upgrades in the background), one per
/// core: a replay reads, opens, decodes and folds millions of events, and on the cooperative pool
/// that serves every request it would hold the server's requests back for as long as it runs. Run
/// under this executor's preference (`withTaskExecutorPreference`), a replay's child tasks run here
/// too, and the system's scheduler shares the cores between them and the server's own threads.
///
/// The threads start with the first replay and wait for work between replays. Jobs of tasks
/// above ``TaskPriority/low`` run first, then low ones, each lane in the order enqueued: a
/// replay folds at its own priority and reads ahead at low, so the fold (which the reading ahead
/// only feeds) never waits behind it.
final class ReplayThreads: TaskExecutor, @unchecked Sendable {
    /// The process's replay threads, as many as it has cores.
    static let shared = ReplayThreads(count: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Guards the lanes; the threads wait on it for jobs.
    private let condition = NSCondition()
    /// Jobs above low priority, not yet started.
    private var urgent = JobQueue()
    /// Jobs at low priority or below, not yet started.
    private var background = JobQueue()

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.runJobs() }
            thread.name = "logbook-replay-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let low = job.priority.rawValue <= TaskPriority.low.rawValue
        let job = UnownedJob(job)
        condition.lock()
        if low { background.append(job) } else { urgent.append(job) }
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while urgent.isEmpty && background.isEmpty { condition.wait() }
            let job = urgent.isEmpty ? background.next() : urgent.next()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Jobs in the order enqueued: consumed slots are dropped as the queue empties or when they are
/// most of it.
private struct JobQueue {
    private var jobs: [UnownedJob] = []
    private var head = 0

    var isEmpty: Bool { head == jobs.count }

    mutating func append(_ job: UnownedJob) { jobs.append(job) }

    /// The oldest job (call only when not empty).
    mutating func next() -> UnownedJob {
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1_024, head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

}
