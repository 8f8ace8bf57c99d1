import EventLog
import Foundation
import LogbookDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs uncached query work on threads of its own, fairly between users (each user's next job in
/// turn), within each user's caps and CPU budget (``QueryWorkLimits``).
///
/// The state lives behind one condition lock; the threads wait on it for work. A job waiting
/// when its task is cancelled leaves the queue at once; a running job finishes.
final class QueryWorkPool: @unchecked Sendable {
    /// One piece of work and how its caller hears the result.
    private final class Job: @unchecked Sendable {
        let user: BytewiseString
        /// A later step of work already admitted (the next page of a fold): charged to the user's
        /// budget, never refused for it halfway.
        let continuing: Bool
        /// Runs the work and gives back what resumes the caller with its result (set once, under
        /// the pool's lock). The caller is resumed only after the work's CPU time is charged, so its
        /// next query is judged by a budget that already counts this one.
        var run: (() -> () -> Void)?
        /// Resumes the caller with an error instead (set with ``run``).
        var fail: ((any Error) -> Void)?
        var cancelled = false
        var started = false

        init(user: BytewiseString, continuing: Bool) {
            self.user = user
            self.continuing = continuing
        }
    }

    /// One user's jobs and budget.
    private struct UserWork {
        var waiting: [Job] = []
        var head = 0
        var running = 0
        /// CPU seconds left in the budget (negative after a job that overspent it).
        var budget: Double
        var refilledAt: ContinuousClock.Instant
        /// Whether the user is in the queue of users with work ready to start.
        var ready = false

        var waitingCount: Int { waiting.count - head }
    }

    private let limits: QueryWorkLimits
    private let burstSeconds: Double
    /// Guards everything below; the threads wait on it.
    private let condition = NSCondition()
    private var users: [BytewiseString: UserWork] = [:]
    /// Users with a job waiting and a running slot free, in turn.
    private var readyUsers: [BytewiseString] = []
    private var readyHead = 0
    private var stopping = false
    private var runningJobs = 0
    private var threadsAlive = 0
    private var refusals = 0

    /// Whether the threads were started (on the first job: a Logbook that never misses the
    /// cache, or fails to open, starts none).
    private var started = false

    init(limits: QueryWorkLimits) {
        self.limits = limits
        burstSeconds = Double(limits.burst.components.seconds) + Double(limits.burst.components.attoseconds) / 1e18
    }

    /// Starts the threads (under the lock, once).
    private func startThreads() {
        guard !started else { return }
        started = true
        for number in 0..<limits.threads {
            let thread = Thread { [self] in work() }
            thread.name = "logbook-query-\(number)"
            threadsAlive += 1
            thread.start()
        }
    }

    /// Runs `body` on one of the pool's threads for `user` and returns what it returns; refuses
    /// with ``LogbookError/Code/busy`` when the user has as much waiting as allowed or has used
    /// up their budget.
    ///
    /// `continuing` marks a later step of work whose first step was admitted (a fold done a page
    /// at a time): it waits its turn and is charged, but is not refused for the user's budget or
    /// queue, so work once admitted can finish.
    func run<T: Sendable>(user: String, continuing: Bool = false, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let job = Job(user: BytewiseString(user), continuing: continuing)
        // The caller's answer trail goes with the work to the thread that runs it.
        let trail = AnswerTrail.current
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                condition.lock()
                defer { condition.unlock() }
                job.run = {
                    let result = Result { try AnswerTrail.$current.withValue(trail) { try body() } }
                    return { continuation.resume(with: result) }
                }
                job.fail = { continuation.resume(throwing: $0) }
                if job.cancelled { return finish(job, CancellationError()) }
                if stopping { return finish(job, LogbookError.storage("the query threads are stopping: the Logbook is closing")) }
                if let refusal = admit(job) {
                    refusals += 1
                    return finish(job, refusal)
                }
            }
        } onCancel: {
            cancel(job)
        }
    }

    /// How many jobs wait and run now, and how many were refused since the start.
    var counts: (waiting: Int, running: Int, refused: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (users.values.reduce(0) { $0 + $1.waitingCount }, runningJobs, refusals)
    }

    /// Refuses new work, fails what waits, and returns once the running jobs finished and the
    /// threads ended (they read read-model transactions, which must end before the store closes).
    func shutdown() async {
        for job in stop() { job.fail?(LogbookError.storage("the Logbook closed before this query ran")) }
        while !threadsEnded { try? await Task.sleep(for: .milliseconds(1)) }
    }

    /// Marks the pool stopping and takes every waiting job out.
    private func stop() -> [Job] {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        var failed: [Job] = []
        for (user, work) in users {
            failed += work.waiting[work.head...]
            users[user]?.waiting = []
            users[user]?.head = 0
        }
        condition.broadcast()
        return failed
    }

    private var threadsEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return threadsAlive == 0
    }

    // MARK: Under the lock

    /// Queues `job` for its user, or says why not.
    private func admit(_ job: Job) -> LogbookError? {
        let now = ContinuousClock.now
        var work = users[job.user] ?? UserWork(budget: burstSeconds, refilledAt: now)
        refill(&work, now)
        if work.budget <= 0, !job.continuing {
            let seconds = Int(min(86_400, (-work.budget / limits.refillPerSecond).rounded(.up))) + 1
            users[job.user] = work
            return .busy(user: job.user.value, retryAfter: seconds, reason: "the user's uncached queries used up their CPU budget for now")
        }
        guard work.waitingCount < limits.waitingPerUser || job.continuing else {
            users[job.user] = work
            return .busy(user: job.user.value, retryAfter: 1, reason: "the user has \(work.waitingCount) uncached queries waiting, as many as allowed")
        }
        startThreads()
        work.waiting.append(job)
        if work.running < limits.runningPerUser, !work.ready {
            work.ready = true
            readyUsers.append(job.user)
        }
        users[job.user] = work
        condition.signal()
        return nil
    }

    private func refill(_ work: inout UserWork, _ now: ContinuousClock.Instant) {
        let elapsed = now - work.refilledAt
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        work.budget = min(burstSeconds, work.budget + seconds * limits.refillPerSecond)
        work.refilledAt = now
    }

    private func finish(_ job: Job, _ error: any Error) {
        job.fail?(error)
        job.run = nil
        job.fail = nil
    }

    /// Takes a waiting job out of the queue (its caller hears CancellationError); a running or
    /// finished one is left to finish.
    private func cancel(_ job: Job) {
        condition.lock()
        defer { condition.unlock() }
        job.cancelled = true
        guard !job.started, job.run != nil, var work = users[job.user] else { return }
        guard let index = work.waiting[work.head...].firstIndex(where: { $0 === job }) else { return }
        work.waiting.remove(at: index)
        users[job.user] = work
        finish(job, CancellationError())
    }

    /// The next job in turn, marking it running, or nil when stopping with nothing to do.
    private func nextJob() -> Job? {
        while true {
            while readyHead < readyUsers.count {
                let user = readyUsers[readyHead]
                readyHead += 1
                if readyHead > 1_024, readyHead * 2 > readyUsers.count {
                    readyUsers.removeFirst(readyHead)
                    readyHead = 0
                }
                guard var work = users[user] else { continue }
                work.ready = false
                guard work.waitingCount > 0, work.running < limits.runningPerUser else {
                    users[user] = work
                    continue
                }
                let job = work.waiting[work.head]
                work.head += 1
                if work.head > 64, work.head * 2 > work.waiting.count {
                    work.waiting.removeFirst(work.head)
                    work.head = 0
                }
                work.running += 1
                // Still more to start: back in line behind the other users.
                if work.waitingCount > 0, work.running < limits.runningPerUser {
                    work.ready = true
                    readyUsers.append(user)
                }
                users[user] = work
                job.started = true
                runningJobs += 1
                return job
            }
            if stopping { return nil }
            condition.wait()
        }
    }

    /// A job of `user` that ran for `cpuSeconds` finished.
    private func finished(_ user: BytewiseString, cpuSeconds: Double) {
        runningJobs -= 1
        guard var work = users[user] else { return }
        let now = ContinuousClock.now
        refill(&work, now)
        work.running -= 1
        work.budget -= cpuSeconds
        if work.waitingCount > 0, work.running < limits.runningPerUser, !work.ready {
            work.ready = true
            readyUsers.append(user)
            condition.signal()
        }
        // An idle user with a full budget is forgotten (the table grows with active users only).
        if work.running == 0, work.waitingCount == 0, work.budget >= burstSeconds {
            users[user] = nil
        } else {
            users[user] = work
        }
    }

    // MARK: The threads

    private func work() {
        Self.lowerPriority()
        condition.lock()
        while let job = nextJob() {
            let run = job.run
            job.run = nil
            job.fail = nil
            condition.unlock()
            let started = Self.threadCPUSeconds()
            let resume = run?()
            let spent = Self.threadCPUSeconds() - started
            condition.lock()
            finished(job.user, cpuSeconds: spent)
            condition.unlock()
            resume?()
            condition.lock()
        }
        threadsAlive -= 1
        condition.unlock()
    }

    /// CPU time this thread has used, in seconds.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Lowers this thread's scheduling priority (nice 5), so request-serving threads go first
    /// (on Linux a nice value belongs to the thread, and 0 names the calling one).
    private static func lowerPriority() {
        #if canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        #endif
    }
}
