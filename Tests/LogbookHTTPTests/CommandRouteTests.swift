import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Every command route, driven over HTTP against a real store, and its effect on the read side.
@Suite("HTTP commands")
struct CommandRouteTests {
    @Test("registration, profile update and profile read")
    func profile() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let updated = try await server.call(.patch, "/users/ana/profile", as: "ana", body: #"{"displayName":"Ana B","units":"imperial"}"#)
            #expect(updated.status == .created)
            #expect(updated.headers[.eTag] == "\"1\"")
            let profile = try await server.call(.get, "/users/ana/profile", as: "ana")
            #expect(profile.status == .ok)
            #expect(profile.json["displayName"] as? String == "Ana B")
            #expect(profile.json["units"] as? String == "imperial")
            #expect(profile.json["timeZone"] as? String == "Europe/Berlin")
        }
    }

    @Test("a workout's whole life: start, pause, resume, finish, edit, then delete")
    func workoutLifecycle() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let start = try await server.call(.post, "/users/ana/workouts", as: "ana", body: """
                {"workoutId":"w1","activityType":"run","startedAt":"2026-11-16T07:00:00+01:00","source":{"kind":"manual"}}
                """)
            #expect(start.status == .created, "\(start.text)")
            #expect(start.json["workoutId"] as? String == "w1")
            #expect(try await server.call(.post, "/users/ana/workouts/w1/pause", as: "ana", body: #"{"at":"2026-11-16T07:10:00+01:00"}"#).status == .created)
            #expect(try await server.call(.post, "/users/ana/workouts/w1/resume", as: "ana").status == .created)
            let finish = try await server.call(.post, "/users/ana/workouts/w1/finish", as: "ana", body: """
                {"endedAt":"2026-11-16T07:50:00+01:00","distanceMeters":8000,"movingSeconds":2400,"steps":7000}
                """)
            #expect(finish.status == .created, "\(finish.text)")
            #expect(finish.headers[.eTag] == "\"3\"")
            let edit = try await server.call(.patch, "/users/ana/workouts/w1", as: "ana", body: #"{"title":"Morning run"}"#)
            #expect(edit.status == .created, "\(edit.text)")
            let detail = try await server.call(.get, "/users/ana/activities/w1", as: "ana")
            #expect(detail.status == .ok)
            #expect(detail.json["title"] as? String == "Morning run")
            let week = try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-16", as: "ana")
            #expect(week.json["totals"].flatMap { ($0 as? [String: Any])?["distanceMeters"] as? Int } == 8000)
            #expect(try await server.call(.delete, "/users/ana/workouts/w1", as: "ana").status == .created)
            let after = try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-16", as: "ana")
            #expect(after.json["totals"].flatMap { ($0 as? [String: Any])?["distanceMeters"] as? Int } == 0)
            #expect(try await server.call(.get, "/users/ana/activities/w1", as: "ana").status == .notFound)
        }
    }

    @Test("a started workout can be discarded; the workout id defaults to one the Idempotency-Key derives")
    func discardAndGeneratedId() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let key = "6f1c2a7e-0d5b-4f7e-9a51-3c2b1d0e9f87"
            let start = try await server.call(.post, "/users/ana/workouts", as: "ana", body: """
                {"activityType":"walk","startedAt":"2026-11-17T12:00:00+01:00","source":{"kind":"manual"}}
                """, headers: ["Idempotency-Key": key])
            #expect(start.status == .created)
            let workoutId = try #require(start.json["workoutId"] as? String)
            #expect(UUID(uuidString: workoutId) != nil)
            #expect(try await server.logbook.log.location(ofEvent: UUID(uuidString: workoutId)!) != nil)
            #expect(try await server.call(.post, "/users/ana/workouts/\(workoutId)/discard", as: "ana").status == .created)
            let again = try await server.call(.post, "/users/ana/workouts/\(workoutId)/finish", as: "ana", body: """
                {"endedAt":"2026-11-17T12:30:00+01:00","distanceMeters":1,"movingSeconds":1}
                """)
            #expect(again.status == .unprocessableContent)
        }
    }

    @Test("importing the same source workout twice answers the existing workout and writes nothing")
    func importTwice() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let body = """
                {"workoutId":"g-1","activityType":"ride","startedAt":"2026-11-15T09:00:00+01:00","endedAt":"2026-11-15T10:00:00+01:00",
                 "distanceMeters":30000,"movingSeconds":3500,"source":{"kind":"garmin","sourceId":"act-77"}}
                """
            let first = try await server.call(.post, "/users/ana/imports", as: "ana", body: body)
            #expect(first.status == .created, "\(first.text)")
            let head = try await server.head()
            let second = try await server.call(.post, "/users/ana/imports", as: "ana", body: body.replacingOccurrences(of: "g-1", with: "g-2"))
            #expect(second.status == .ok)
            #expect(second.json["alreadyApplied"] as? Bool == true)
            #expect(second.json["workoutId"] as? String == "g-1")
            #expect(try await server.head() == head)
        }
    }

    @Test("steps, goals and the default goal show in the goal week")
    func stepsAndGoals() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let steps = try await server.call(.post, "/users/ana/steps", as: "ana", body: """
                {"samples":[{"start":"2026-11-16T08:00:00+01:00","end":"2026-11-16T08:30:00+01:00","count":6000,"source":"phone"},
                            {"start":"2026-11-16T18:00:00+01:00","end":"2026-11-16T18:30:00+01:00","count":5000,"source":"phone"}]}
                """)
            #expect(steps.status == .created, "\(steps.text)")
            #expect(try await server.call(.put, "/users/ana/default-goal", as: "ana", body: #"{"steps":8000}"#).status == .created)
            #expect(try await server.call(.put, "/users/ana/goals/2026-11-20", as: "ana", body: #"{"steps":12000}"#).status == .created)
            var week = try await server.call(.get, "/users/ana/goals/week?date=2026-11-18", as: "ana")
            var days = week.json["days"] as? [[String: Any]] ?? []
            #expect(days.count == 7)
            #expect(days.first?["steps"] as? Int == 11_000)
            #expect(days.first?["met"] as? Bool == true)  // 11,000 ≥ 10,000 (the default of 8,000 applies from 2026-11-18 on)
            #expect((days[4]["goal"] as? [String: Any])?["steps"] as? Int == 12_000)
            #expect(try await server.call(.delete, "/users/ana/goals/2026-11-20", as: "ana").status == .created)
            week = try await server.call(.get, "/users/ana/goals/week?date=2026-11-18", as: "ana")
            days = week.json["days"] as? [[String: Any]] ?? []
            #expect((days[4]["goal"] as? [String: Any])?["steps"] as? Int == 8000)
            let streaks = try await server.call(.get, "/users/ana/goals/streaks?day=2026-11-16", as: "ana")
            #expect(streaks.json["current"] as? Int == 1)
        }
    }

    @Test("the catalog, swipes, visits, notes and reset")
    func places() async throws {
        try await withServer { server in
            try await register(server, "ana")
            for (id, name, category) in [("p1", "Zeit", "restaurant"), ("p2", "Arche", "restaurant"), ("p3", "Climbing hall", "activity")] {
                let added = try await server.call(.post, "/catalog/places", as: "op", admin: true, body: """
                    {"placeId":"\(id)","name":"\(name)","category":"\(category)","subcategory":"misc","latitude":52.5,"longitude":13.4}
                    """)
                #expect(added.status == .created, "\(added.text)")
            }
            #expect(try await server.call(.post, "/catalog/places", as: "ana", body: "{}").status == .forbidden)
            #expect(try await server.call(.get, "/users/ana/places/deck", as: "ana").array.count == 3)
            #expect(try await server.call(.post, "/users/ana/places/p1/swipe", as: "ana", body: #"{"direction":"right"}"#).status == .created)
            #expect(try await server.call(.post, "/users/ana/places/p2/swipe", as: "ana", body: #"{"direction":"right"}"#).status == .created)
            let saved = try await server.call(.get, "/users/ana/places/saved?category=restaurant", as: "ana").array
            #expect(saved.compactMap { ($0["place"] as? [String: Any])?["name"] as? String } == ["Arche", "Zeit"])
            #expect(try await server.call(.post, "/users/ana/places/p3/visit", as: "ana", body: #"{"visitedAt":"2026-11-15T15:00:00+01:00"}"#).status == .created)
            #expect(try await server.call(.put, "/users/ana/places/p3/notes", as: "ana", body: #"{"notes":"bring chalk"}"#).status == .created)
            let visited = try await server.call(.get, "/users/ana/places/visited?category=activity", as: "ana").array
            #expect(visited.first?["visitCount"] as? Int == 1)
            #expect(visited.first?["userNotes"] as? String == "bring chalk")
            #expect(try await server.call(.post, "/users/ana/places/p9/swipe", as: "ana", body: #"{"direction":"left"}"#).status == .unprocessableContent)
            #expect(try await server.call(.post, "/users/ana/places/reset", as: "ana").status == .created)
            #expect(try await server.call(.get, "/users/ana/places/deck", as: "ana").array.count == 3)
            // Search: folded text, a point with a radius (distances in the answer), and refusals naming the parameter.
            let found = try await server.call(.get, "/users/ana/places/deck?q=CLIMB%CC%81ING", as: "ana").array
            #expect(found.compactMap { ($0["place"] as? [String: Any])?["placeId"] as? String } == ["p3"])
            let near = try await server.call(.get, "/users/ana/places/deck?near=52.5,13.4&radius=10", as: "ana").array
            #expect(near.count == 3 && near.allSatisfy { $0["distanceMeters"] as? Int == 0 })
            #expect(try await server.call(.get, "/users/ana/places/deck?near=52.6,13.4&radius=10000", as: "ana").array.isEmpty)
            for (query, parameter) in [("near=91,0", "near"), ("near=52.5", "near"), ("near=1.,2", "near"), ("radius=10", "radius"),
                                       ("near=52.5,13.4&radius=0", "radius"), ("q=", "q")] {
                let refused = try await server.call(.get, "/users/ana/places/deck?\(query)", as: "ana")
                #expect(refused.status == .badRequest && refused.text.contains(parameter), "\(query): \(refused.text)")
            }
        }
    }

    @Test("an Idempotency-Key makes a retry answer the original result and write nothing")
    func idempotentRetry() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let key = ["Idempotency-Key": "0b9d1f0e-1f43-4d1c-8b5e-6a3c2d9e7f10"]
            let body = #"{"samples":[{"start":"2026-11-17T08:00:00Z","end":"2026-11-17T08:01:00Z","count":90,"source":"phone"}]}"#
            let first = try await server.call(.post, "/users/ana/steps", as: "ana", body: body, headers: key)
            #expect(first.status == .created)
            let head = try await server.head()
            let retry = try await server.call(.post, "/users/ana/steps", as: "ana", body: body, headers: key)
            #expect(retry.status == first.status)
            #expect(retry.text == first.text)
            #expect(try await server.head() == head)
        }
    }

    @Test("If-Match pins the stream version: a stale one is a 409 with the current version")
    func optimisticConcurrency() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let fresh = try await server.call(.put, "/users/ana/goals/2026-11-25", as: "ana", body: #"{"steps":9000}"#)
            #expect(fresh.status == .created, "\(fresh.text)")
            #expect(fresh.headers[.eTag] == "\"0\"")
            let head = try await server.head()
            let stale = try await server.call(.put, "/users/ana/goals/2026-11-26", as: "ana", body: #"{"steps":9000}"#, headers: ["If-Match": "\"5\""])
            #expect(stale.status == .conflict)
            #expect(stale.headers[.contentType] == "application/problem+json")
            #expect(stale.json["currentVersion"] as? Int == 0)
            #expect(try await server.head() == head)
            let current = try await server.call(.put, "/users/ana/goals/2026-11-26", as: "ana", body: #"{"steps":9000}"#, headers: ["If-Match": fresh.headers[.eTag] ?? ""])
            #expect(current.status == .created)
        }
    }
}
