import Dispatch
import EventLog
import Foundation
@testable import Logbook
import LogbookTestSupport
import Synchronization
import Testing

/// Uncached query work: threads of its own, each user's share capped, a CPU budget per user,
/// refusals that say when to come back.
@Suite("Query work: no user can take every query thread, or more than their budget")
struct QueryWorkPoolTests {
    /// A gate a job waits at until the test opens it (on the pool's thread, not a task).
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        let entered = Atomic<Int>(0)
        func wait() {
            entered.add(1, ordering: .sequentiallyConsistent)
            semaphore.wait()
        }
        func open(_ count: Int = 1) { for _ in 0..<count { semaphore.signal() } }
    }

    static func limits(threads: Int = 2, waiting: Int = 16, burst: Duration = .seconds(5), refill: Double = 0.5) -> QueryWorkLimits {
        var limits = QueryWorkLimits()
        limits.threads = threads
        limits.waitingPerUser = waiting
        limits.burst = burst
        limits.refillPerSecond = refill
        return limits
    }

    /// Waits (a bounded number of short sleeps) until `condition` holds.
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<3_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }

    @Test("one user's blocked queries hold one thread; another user's query runs meanwhile")
    func anotherUserRunsMeanwhile() async throws {
        let pool = QueryWorkPool(limits: Self.limits())
        let gate = Gate()
        let first = Task { try await pool.run(user: "a") { gate.wait(); return 1 } }
        let second = Task { try await pool.run(user: "a") { gate.wait(); return 2 } }
        try await Self.eventually { gate.entered.load(ordering: .sequentiallyConsistent) == 1 }
        // The second thread is free for b, not taken by a's second query.
        #expect(try await pool.run(user: "b") { 3 } == 3)
        #expect(gate.entered.load(ordering: .sequentiallyConsistent) == 1)
        #expect(pool.counts.waiting == 1 && pool.counts.running == 1)
        gate.open(2)
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
        await pool.shutdown()
    }

    @Test("past its waiting queries a user is refused as busy, saying when to come back; others are not")
    func waitingCap() async throws {
        let pool = QueryWorkPool(limits: Self.limits(waiting: 2))
        let gate = Gate()
        let running = Task { try await pool.run(user: "a") { gate.wait() } }
        try await Self.eventually { gate.entered.load(ordering: .sequentiallyConsistent) == 1 }
        let waiting = [Task { try await pool.run(user: "a") {} }, Task { try await pool.run(user: "a") {} }]
        try await Self.eventually { pool.counts.waiting == 2 }
        do {
            try await pool.run(user: "a") {}
            Issue.record("a third waiting query was taken")
        } catch let error as LogbookError {
            #expect(error.code == .busy && error.retryAfterSeconds == 1 && error.id == "a")
        }
        try await pool.run(user: "b") {}
        gate.open()
        try await running.value
        for task in waiting { try await task.value }
        #expect(pool.counts.refused == 1)
        await pool.shutdown()
    }

    @Test("a user who spent their CPU budget is refused until it comes back; another user is not")
    func budget() async throws {
        // Regained so slowly that a loaded machine's pauses between the two calls cannot matter.
        let pool = QueryWorkPool(limits: Self.limits(burst: .milliseconds(50), refill: 0.001))
        // Spend 300 ms of CPU on the pool's thread (its own CPU clock, whatever else runs).
        try await pool.run(user: "a") {
            func threadSeconds() -> Double {
                var time = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
                return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
            }
            let start = threadSeconds()
            var spin: UInt64 = 0
            while threadSeconds() - start < 0.3 { spin &+= 1 }
            _ = spin
        }
        do {
            try await pool.run(user: "a") {}
            Issue.record("the budget was not held")
        } catch let error as LogbookError {
            // Over 250 ms to regain at 1 ms a second: more than 250 s (100 s allows for a slow machine).
            #expect(error.code == .busy && (error.retryAfterSeconds ?? 0) > 100, "\(error)")
        }
        // A later step of work already admitted (a fold's next page) is charged, never refused halfway.
        try await pool.run(user: "a", continuing: true) {}
        try await pool.run(user: "b") {}
        await pool.shutdown()
    }

    @Test("a waiting query whose task is cancelled leaves the queue at once")
    func cancellation() async throws {
        let pool = QueryWorkPool(limits: Self.limits(threads: 1))
        let gate = Gate()
        let running = Task { try await pool.run(user: "a") { gate.wait() } }
        try await Self.eventually { gate.entered.load(ordering: .sequentiallyConsistent) == 1 }
        let ran = Gate()
        let waiting = Task { try await pool.run(user: "a") { ran.entered.add(1, ordering: .sequentiallyConsistent) } }
        try await Self.eventually { pool.counts.waiting == 1 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(pool.counts.waiting == 0)
        gate.open()
        try await running.value
        #expect(ran.entered.load(ordering: .sequentiallyConsistent) == 0)
        await pool.shutdown()
    }

    @Test("a Logbook refuses a user past their budget as busy, and answers other users")
    func throughLogbook() async throws {
        try await withLogbook({ $0.queryWork = Self.limits(burst: .nanoseconds(1), refill: 1e-6) }) { logbook, _ in
            for user in ["a", "b"] {
                try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "UTC")), context: when("2026-11-20T08:00:00Z"))
            }
            let day = CivilDate(parsing: "2026-11-20")!
            // The first uncached query spends the tiny budget; the next one (another week) is refused.
            _ = try await logbook.weeklyStats(user: "a", containing: day)
            do {
                _ = try await logbook.weeklyStats(user: "a", containing: day.adding(days: 7))
                Issue.record("a query past the budget was answered")
            } catch let error as LogbookError {
                #expect(error.code == .busy, "\(error)")
            }
            // Cached answers cost no work.
            _ = try await logbook.weeklyStats(user: "a", containing: day)
            _ = try await logbook.weeklyStats(user: "b", containing: day)
        }
    }
}
