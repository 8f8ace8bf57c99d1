import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import Testing

/// `GET /users/{user}/records`: the personal records read model over HTTP.
@Suite("HTTP personal records")
struct RecordsRouteTests {
    @Test("records per activity type, as of a position, and only for their owner")
    func records() async throws {
        try await withServer { server in
            try await QueryRouteTests.history(server)
            let head = try await server.head()
            let faster = try await server.call(.post, "/users/ana/imports", as: "ana", body: """
                {"workoutId":"r2","activityType":"run","startedAt":"2026-11-17T07:00:00+01:00","endedAt":"2026-11-17T07:50:00+01:00",
                 "distanceMeters":10000,"movingSeconds":2700,"source":{"kind":"healthkit","sourceId":"r2"}}
                """)
            #expect(faster.status == .created)
            let response = try await server.call(.get, "/users/ana/records", as: "ana")
            #expect(response.status == .ok)
            let types = try #require(response.json["activityTypes"] as? [[String: Any]])
            #expect(types.compactMap { $0["activityType"] as? String } == ["run", "walk"])
            let run = try #require(types.first?["records"] as? [[String: Any]])
            #expect(run.map { "\($0["kind"] ?? "") \($0["workoutId"] ?? "")" }
                == ["fastest_1k r2", "fastest_5k r2", "fastest_10k r2", "longest_distance r2", "longest_time r2"])
            #expect(run.first?["paceSecondsPerKm"] as? Double == 270)
            #expect(run.first?["date"] as? String == "2026-11-17")
            let before = try await server.call(.get, "/users/ana/records?asOf=\(head)", as: "ana")
            let pastRun = (before.json["activityTypes"] as? [[String: Any]])?.first?["records"] as? [[String: Any]]
            #expect(pastRun?.map { $0["workoutId"] as? String } == ["r1", "r1", "r1", "r1"])
            #expect(try await server.call(.get, "/users/ana/records", as: "bob").status == .forbidden)
            let timeline = try await server.call(.get, "/users/ana/timeline?types=workout.imported&order=oldest", as: "ana")
            let lines = (timeline.json["entries"] as? [[String: Any]])?.compactMap { $0["description"] as? String } ?? []
            #expect(lines.last?.hasSuffix("Personal records: fastest 1 km, fastest 5 km, longest distance, longest time") == true, "\(lines)")
        }
    }
}
