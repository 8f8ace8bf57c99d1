import Foundation
@testable import LogbookHTTP
import Synchronization
import Testing

/// A caller's reads in progress are bounded: the next ones wait in arrival order, past the line
/// they get 429, and another caller is never held up by them.
@Suite("Reads in progress per caller")
struct CallerReadGateTests {
    /// A read that runs until `release` is called.
    final class HeldRead: Sendable {
        private let released = AsyncStream<Void>.makeStream()
        private let started = AsyncStream<Void>.makeStream()

        func run() async {
            started.continuation.yield()
            for await _ in released.stream { return }
        }

        func waitUntilStarted() async {
            for await _ in started.stream { return }
        }

        func release() { released.continuation.yield() }
    }

    /// The order reads ran in.
    final class Order: Sendable {
        private let names = Mutex<[String]>([])
        func append(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    @Test("past the slots, reads wait in arrival order; past the line, 429 with Retry-After; other callers pass")
    func slotsAndLine() async throws {
        let gate = CallerReadGate(maxInFlight: 1, maxWaiting: 2)
        let first = HeldRead()
        let order = Order()
        let running = Task { try await gate.serve("ana") { await first.run(); order.append("first") } }
        await first.waitUntilStarted()
        // Two more of ana's wait; they must run in the order they came.
        let second = Task { try await gate.serve("ana") { order.append("second") } }
        while gate.counts.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        let third = Task { try await gate.serve("ana") { order.append("third") } }
        while gate.counts.waiting < 2 { try await Task.sleep(for: .milliseconds(1)) }
        // The line is full: refused at once, and the problem says so.
        do {
            _ = try await gate.serve("ana") { Issue.record("a read past the line ran") }
            Issue.record("a read past the line was not refused")
        } catch let problem as Problem {
            #expect(problem.status == .tooManyRequests)
            #expect(problem.type == "/problems/too-many-requests")
            #expect(problem.retryAfterSeconds == 1)
        }
        // Another caller, and another spelling of a name (ids are compared as bytes), pass at once.
        #expect(try await gate.serve("ben") { "ben" } == "ben")
        let (composed, decomposed) = ("\u{E1}", "a\u{301}")
        let held = HeldRead()
        let holding = Task { try await gate.serve(composed) { await held.run() } }
        await held.waitUntilStarted()
        #expect(try await gate.serve(decomposed) { 1 } == 1)
        held.release()
        try await holding.value

        first.release()
        try await running.value
        try await second.value
        try await third.value
        #expect(order.all == ["first", "second", "third"])
        #expect(gate.counts.inFlight == 0 && gate.counts.waiting == 0)
    }

    @Test("a waiting read whose request goes away leaves the line; a failing read gives its slot back")
    func cancellationAndFailure() async throws {
        let gate = CallerReadGate(maxInFlight: 1, maxWaiting: 1)
        let first = HeldRead()
        let running = Task { try await gate.serve("ana") { await first.run() } }
        await first.waitUntilStarted()
        let waiting = Task { try await gate.serve("ana") { Issue.record("a cancelled read ran") } }
        while gate.counts.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(gate.counts.waiting == 0)
        first.release()
        try await running.value

        struct Failed: Error {}
        await #expect(throws: Failed.self) { try await gate.serve("ana") { throw Failed() } }
        #expect(gate.counts.inFlight == 0 && gate.counts.waiting == 0)
        #expect(try await gate.serve("ana") { 2 } == 2)
    }
}
