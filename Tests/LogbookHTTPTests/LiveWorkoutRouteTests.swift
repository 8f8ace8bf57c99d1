import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// A workout recorded live over HTTP: track pieces while it runs, the current workout, its route.
@Suite("HTTP live workouts")
struct LiveWorkoutRouteTests {
    @Test("track pieces while running make a route; the current workout answers its times and pauses; bad pieces are 400/422 and write nothing")
    func liveWorkout() async throws {
        try await withServer { server in
            try await register(server, "ana")
            // Nothing runs yet.
            #expect(try await server.call(.get, "/users/ana/workouts/current", as: "ana").status == .notFound)
            // The test server's clock starts at 2026-11-18T11:06:40Z: the run started five minutes before.
            let started = try await server.call(.post, "/users/ana/workouts", as: "ana", body: """
                {"workoutId":"w-live","activityType":"run","startedAt":"2026-11-18T12:01:40+01:00","source":{"kind":"manual"}}
                """)
            #expect(started.status == .created, "\(started.text)")
            let piece = try await server.call(.post, "/users/ana/workouts/w-live/track", as: "ana", body: """
                {"samples":{"points":3,"offsetMillis":[0,10000,20000],"latitudeE7":[525000000,525000900,525001800],
                 "longitudeE7":[134000000,134000000,134000000],"distanceCentimeters":[0,1000,2000]}}
                """)
            #expect(piece.status == .created, "\(piece.text)")
            let paused = try await server.call(.post, "/users/ana/workouts/w-live/pause", as: "ana", body: "{}")
            #expect(paused.status == .created, "\(paused.text)")
            let more = try await server.call(.post, "/users/ana/workouts/w-live/track", as: "ana", body: """
                {"samples":{"points":2,"offsetMillis":[30000,40000],"latitudeE7":[525002700,525003600],"longitudeE7":[134000000,134000000],
                 "distanceCentimeters":[3000,4000]}}
                """)
            #expect(more.status == .created, "\(more.text)")

            let current = try await server.call(.get, "/users/ana/workouts/current", as: "ana")
            #expect(current.status == .ok, "\(current.text)")
            #expect(current.json["workoutId"] as? String == "w-live" && current.json["status"] as? String == "paused")
            #expect(current.json["trackPoints"] as? Int == 5 && current.json["distanceMeters"] as? Int == 40)
            let elapsed = try #require(current.json["elapsedSeconds"] as? Int)
            let moving = try #require(current.json["movingSeconds"] as? Int)
            #expect(elapsed >= 300 && moving <= elapsed)
            let pauses = try #require(current.json["pauses"] as? [[String: Any]])
            #expect(pauses.count == 1 && pauses[0]["pausedAt"] is String && pauses[0]["resumedAt"] == nil)

            let route = try await server.call(.get, "/users/ana/activities/w-live/route.geojson", as: "ana")
            #expect(route.status == .ok && route.headers[.contentType] == "application/geo+json")
            #expect(((route.json["geometry"] as? [String: Any])?["coordinates"] as? [Any])?.count == 5)

            // Refused, naming what was wrong, writing nothing: a piece going back in time, a part number
            // the route keeps for itself, no samples, and another user's workout.
            let back = try await server.call(.post, "/users/ana/workouts/w-live/track", as: "ana", body: #"{"samples":{"points":1,"offsetMillis":[5000]}}"#)
            #expect(back.status == .unprocessableContent && back.text.contains("track_invalid"), "\(back.text)")
            let numbered = try await server.call(.post, "/users/ana/workouts/w-live/track", as: "ana", body: #"{"part":7,"samples":{"points":1,"offsetMillis":[50000]}}"#)
            #expect(numbered.status == .badRequest && numbered.text.contains("part"), "\(numbered.text)")
            let empty = try await server.call(.post, "/users/ana/workouts/w-live/track", as: "ana", body: "{}")
            #expect(empty.status == .badRequest && empty.text.contains("samples"), "\(empty.text)")
            try await register(server, "bo")
            let stranger = try await server.call(.post, "/users/bo/workouts/w-live/track", as: "bo", body: #"{"samples":{"points":1,"offsetMillis":[60000]}}"#)
            #expect(stranger.status == .notFound || stranger.status == .forbidden, "\(stranger.text)")
            let after = try await server.call(.get, "/users/ana/workouts/current", as: "ana")
            #expect(after.json["trackPoints"] as? Int == 5)

            let finished = try await server.call(.post, "/users/ana/workouts/w-live/resume", as: "ana", body: "{}")
            #expect(finished.status == .created, "\(finished.text)")
            let done = try await server.call(.post, "/users/ana/workouts/w-live/finish", as: "ana", body: #"{"endedAt":"2026-11-18T12:30:00+01:00","distanceMeters":40,"movingSeconds":40}"#)
            #expect(done.status == .created, "\(done.text)")
            #expect(try await server.call(.get, "/users/ana/workouts/current", as: "ana").status == .notFound)
        }
    }
}
