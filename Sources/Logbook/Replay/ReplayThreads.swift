import Foundation

/// Threads of their own for replay (rebuilds, verification, upgrades in the background), one per
/// core: a replay reads, opens, decodes and folds millions of events, and on the cooperative pool
/// that serves every request it would hold the server's requests back for as long as it runs. Run
/// under this executor's preference (`withTaskExecutorPreference`), a replay's child tasks run here
/// too, and the system's scheduler shares the cores between them and the server's own threads.
///
/// The threads start with the first replay and wait for work between replays; jobs run in the
/// order they were enqueued.
final class ReplayThreads: TaskExecutor, @unchecked Sendable {
    /// The process's replay threads, as many as it has cores.
    static let shared = ReplayThreads(count: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Guards the queue; the threads wait on it for jobs.
    private let condition = NSCondition()
    /// Jobs not yet started, from `head` on (consumed slots are dropped as the queue empties or
    /// when they are most of it).
    private var queue: [UnownedJob] = []
    private var head = 0

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.runJobs() }
            thread.name = "logbook-replay-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while head == queue.count { condition.wait() }
            let job = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1_024, head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
