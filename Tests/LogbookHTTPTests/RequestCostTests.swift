import EventLog
import Foundation
import HTTPTypes
@testable import Logbook
@testable import LogbookHTTP
import LogbookTestSupport
import Testing

/// What one caller may cost: a user past their query budget is refused with 429 and told when to
/// come back, while other users are answered; a caller holds a bounded number of event streams.
@Suite("Request cost: 429 past a user's share, never a wait for everyone")
struct RequestCostTests {
    @Test("a user past their CPU budget for uncached queries gets 429 with Retry-After; cached reads and other users are answered")
    func budget() async throws {
        try await withServer(logbook: {
            $0.queryWork.burst = .nanoseconds(1)
            // Regained so slowly (a nanosecond a second) that no pause between the calls refills it.
            $0.queryWork.refillPerSecond = 1e-9
        }) { server in
            // Registered straight through the library: the first uncached query is the one under test.
            for user in ["ana", "ben"] {
                try await server.logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "UTC")))
            }
            #expect(try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-18", as: "ana").status == .ok)
            let refused = try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-25", as: "ana")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.contentType] == "application/problem+json")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 1)
            #expect(String(buffer: refused.body).contains("/problems/too-much-uncached-work"))
            // The answer already computed is cached, and costs nothing.
            #expect(try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-18", as: "ana").status == .ok)
            #expect(try await server.call(.get, "/users/ben/stats/weekly?date=2026-11-25", as: "ben").status == .ok)
        }
    }

    @Test("a caller holds at most the configured event streams; a slot comes back when its stream's body goes")
    func subscriptionSlots() {
        let live = LiveSubscriptions(maxPerCaller: 2)
        var held = [live.reserve(for: "ana"), live.reserve(for: "ana")]
        #expect(held.allSatisfy { $0 != nil })
        #expect(live.reserve(for: "ana") == nil)
        // Another caller has slots of its own; so has another spelling of a name (ids are compared as bytes).
        #expect(live.reserve(for: "ben") != nil)
        let composed = [live.reserve(for: "\u{E1}"), live.reserve(for: "\u{E1}")]
        #expect(composed.allSatisfy { $0 != nil } && live.reserve(for: "\u{E1}") == nil)
        #expect(live.reserve(for: "a\u{301}") != nil)
        withExtendedLifetime(composed) {}
        held.removeLast()
        #expect(live.reserve(for: "ana") != nil)
        withExtendedLifetime(held) {}
    }
}
