import EventLog
import EventLogPostgres
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// PostgreSQL restarted under a running store: writes fail fast with a typed error while it is
/// down, nothing acknowledged is lost, and the store and its subscriptions resume without a gap.
@Suite("PostgreSQL log: a database restart", .serialized, .timeLimit(.minutes(10)))
struct PostgresRestartTests {
    @Test("writes fail fast as unavailable while PostgreSQL is down; afterwards appends and a resubscribing reader go on with no gap")
    func restart() async throws {
        let cluster = try await TestPostgres.Cluster.start()
        defer { cluster.remove() }
        var configuration = PostgresLogConfiguration()
        configuration.operationTimeout = .seconds(5)
        configuration.pollInterval = .milliseconds(100)
        let store = try await PostgresEventStore.connect(try PostgresURL(cluster.url), configuration: configuration)
        var acknowledged: [Position] = []
        // Outside the deliberate outage a loaded machine may still miss the 5-second deadline
        // now and then: such an operation is tried again. An append is retried with the same
        // event (the same id), so a timed-out append that did commit is not written twice.
        for index in 0..<20 {
            let event = testEvent("before-\(index)")
            acknowledged.append(try await Self.retrying(for: .seconds(120)) {
                try await store.append([event], to: "s-\(index % 3)").firstPosition
            })
        }

        // A reader that subscribes again from the last position it saw whenever its read fails.
        let reader = Task { () -> [UInt64] in
            var seen: [UInt64] = []
            while seen.count < 40 {
                do {
                    for try await element in store.subscribe(after: Position(seen.last ?? 0)) {
                        if let event = element.event { seen.append(event.position.rawValue) }
                        if seen.count == 40 { break }
                    }
                } catch {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            return seen
        }

        try await cluster.stop()
        let started = ContinuousClock.now
        do {
            _ = try await store.append([testEvent("while down")], to: "s-0")
            Issue.record("an append succeeded with PostgreSQL stopped")
        } catch let error as EventStoreError {
            #expect(error.code == .unavailable, "\(error)")
        }
        #expect(ContinuousClock.now - started < .seconds(20), "the failure was not fast")
        try await cluster.restart()

        // The pool reconnects by itself; the first appends may still fail while it does. The
        // deadline is generous: under the full suite a loaded machine took over 30 s for 20 appends.
        var index = 0
        let deadline = ContinuousClock.now + .seconds(180)
        let after = (0..<20).map { testEvent("after-\($0)") }
        while index < 20, ContinuousClock.now < deadline {
            do {
                acknowledged.append(try await store.append([after[index]], to: "s-\(index % 3)").firstPosition)
                index += 1
            } catch let error as EventStoreError where error.code == .unavailable {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        guard index == 20 else {
            // The reader waits for 40 events: it would wait for ever.
            reader.cancel()
            await store.close()
            Issue.record("appends did not resume after the restart: \(index) of 20 within 180 s")
            return
        }
        let seen = try await reader.value
        #expect(seen == Array(1...40), "the reader saw \(seen)")
        for position in acknowledged {
            let event = try await Self.retrying(for: .seconds(120)) { try await store.event(at: position) }
            #expect(event != nil, "acknowledged position \(position) is missing")
        }
        #expect(try await Self.retrying(for: .seconds(120)) { try await store.headPosition() } == 40)
        await store.close()
    }

    /// `body`'s answer, tried again while it fails as unavailable, until `limit` has passed.
    static func retrying<T: Sendable>(for limit: Duration, _ body: () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + limit
        while true {
            do {
                return try await body()
            } catch let error as EventStoreError where error.code == .unavailable && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}
