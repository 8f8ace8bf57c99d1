import Foundation
import HTTPTypes
import LogbookTestSupport
import Testing

/// Read-your-writes across servers over HTTP: a write's answer names its log position, and a read
/// given that position (query or header) answers only once its read models hold it.
@Suite("HTTP write positions and minPosition")
struct PositionHeaderTests {
    @Test("a write answers X-Logbook-Position (a keyed retry too); reads take minPosition as query or header; a bad one is 400")
    func positions() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let set = try await server.call(.put, "/users/ana/goals/2026-12-01", as: "ana", body: #"{"steps":12000}"#,
                                            headers: ["Idempotency-Key": "goal-1"])
            #expect(set.status == .created, "\(set.text)")
            let position = try #require(set.headers[HTTPField.Name("X-Logbook-Position")!].flatMap(UInt64.init))
            #expect(position == set.json["lastPosition"] as? UInt64 ?? UInt64(set.json["lastPosition"] as? Int ?? -1))
            let retry = try await server.call(.put, "/users/ana/goals/2026-12-01", as: "ana", body: #"{"steps":12000}"#,
                                              headers: ["Idempotency-Key": "goal-1"])
            #expect(retry.headers[HTTPField.Name("X-Logbook-Position")!] == String(position))
            let byQuery = try await server.call(.get, "/users/ana/goals/week?date=2026-12-01&minPosition=\(position)", as: "ana")
            #expect(byQuery.status == .ok, "\(byQuery.text)")
            let byHeader = try await server.call(.get, "/users/ana/goals/week?date=2026-12-01", as: "ana",
                                                 headers: ["X-Logbook-Min-Position": String(position)])
            #expect(byHeader.status == .ok)
            for bad in ["-1", "abc", "1.5"] {
                let refused = try await server.call(.get, "/users/ana/goals/week?date=2026-12-01&minPosition=\(bad)", as: "ana")
                #expect(refused.status == .badRequest, "\(bad): \(refused.text)")
                #expect(refused.json["field"] as? String == "minPosition")
            }
        }
    }
}
