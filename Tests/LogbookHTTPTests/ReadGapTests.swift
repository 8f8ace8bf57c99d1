import Foundation
import HTTPTypes
import LogbookTestSupport
import Testing

/// What an independent check of the read models could not read back before: one place with the
/// user's notes (swiped left included), and the moving seconds behind a goal week's minutes.
@Suite("HTTP read gaps")
struct ReadGapTests {
    @Test("one place reads back status, visits, last visit and notes, swiped left too; an unknown place is 404")
    func onePlace() async throws {
        try await withServer { server in
            try await register(server, "ana")
            for id in ["p1", "p2"] {
                let added = try await server.call(.post, "/catalog/places", as: "op", admin: true, body: """
                    {"placeId":"\(id)","name":"Place \(id)","category":"restaurant","subcategory":"misc","latitude":52.5,"longitude":13.4}
                    """)
                #expect(added.status == .created, "\(added.text)")
            }
            #expect(try await server.call(.post, "/users/ana/places/p1/swipe", as: "ana", body: #"{"direction":"left"}"#).status == .created)
            #expect(try await server.call(.put, "/users/ana/places/p1/notes", as: "ana", body: #"{"notes":"too loud"}"#).status == .created)
            let left = try await server.call(.get, "/users/ana/places/p1", as: "ana")
            #expect(left.status == .ok, "\(left.text)")
            #expect(left.json["status"] as? String == "notInterested" || left.json["status"] as? String == "not_interested", "\(left.text)")
            #expect(left.json["userNotes"] as? String == "too loud")
            #expect(left.json["visitCount"] as? Int == 0)
            #expect(try await server.call(.post, "/users/ana/places/p2/visit", as: "ana", body: #"{"visitedAt":"2026-11-15T15:00:00+01:00"}"#).status == .created)
            #expect(try await server.call(.post, "/users/ana/places/p2/visit", as: "ana", body: #"{"visitedAt":"2026-11-16T12:00:00+01:00"}"#).status == .created)
            let visited = try await server.call(.get, "/users/ana/places/p2", as: "ana")
            #expect(visited.json["visitCount"] as? Int == 2)
            #expect(visited.json["lastVisitDate"] as? String == "2026-11-16")
            #expect(visited.json["userNotes"] == nil)
            let missing = try await server.call(.get, "/users/ana/places/p9", as: "ana")
            #expect(missing.status == .notFound)
            #expect(try await server.call(.get, "/users/ana/places/p1", as: "bob").status == .forbidden)
        }
    }

    @Test("a goal week gives the moving seconds behind its active minutes, per day and in total")
    func movingSeconds() async throws {
        try await withServer { server in
            try await register(server, "ana")
            #expect(try await server.call(.post, "/users/ana/workouts", as: "ana", body: """
                {"workoutId":"w1","activityType":"run","startedAt":"2026-11-16T07:00:00+01:00","source":{"kind":"manual"}}
                """).status == .created)
            let finish = try await server.call(.post, "/users/ana/workouts/w1/finish", as: "ana", body: """
                {"endedAt":"2026-11-16T07:50:00+01:00","distanceMeters":8000,"movingSeconds":2459}
                """)
            #expect(finish.status == .created, "\(finish.text)")
            let week = try await server.call(.get, "/users/ana/goals/week?date=2026-11-16", as: "ana")
            let days = week.json["days"] as? [[String: Any]] ?? []
            #expect(days.first?["movingSeconds"] as? Int == 2459, "\(week.text)")
            #expect(days.first?["activeMinutes"] as? Int == 40)
            #expect(week.json["movingSeconds"] as? Int == 2459)
        }
    }
}
