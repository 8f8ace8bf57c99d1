import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// One activity from several sources over HTTP: the list's `alsoRecordedBy`, a
/// duplicate's `primaryWorkoutId`, `preferredWorkoutSources` in the profile, and
/// `POST …/workouts/{workoutId}/keep-separate` with its refusals.
@Suite("One activity, many sources over HTTP")
struct WorkoutGroupingRouteTests {
    static func run(_ id: String, _ kind: String, start: String, heartRate: Bool = false) -> String {
        let rate = heartRate ? #","avgHeartRate":150"# : ""
        return #"{"workoutId":"\#(id)","activityType":"run","startedAt":"\#(start)","endedAt":"2026-11-20T08:00:00+01:00","#
            + #""distanceMeters":10000,"movingSeconds":3300\#(rate),"source":{"kind":"\#(kind)","sourceId":"\#(id)"}}"#
    }

    @Test("the list shows the primary with the others under it; a preference and keeping apart move what counts")
    func groupsOverHTTP() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await register(server, "bob")
            for (id, kind, start, rate) in [("w-watch", "garmin", "2026-11-20T07:00:00+01:00", false),
                                            ("w-health", "healthkit", "2026-11-20T07:01:00+01:00", true)] {
                let made = try await server.call(.post, "/users/ana/imports", as: "ana", body: Self.run(id, kind, start: start, heartRate: rate))
                #expect(made.status == .created, "\(made.text)")
            }
            #expect(try await server.call(.post, "/users/bob/imports", as: "bob",
                                          body: Self.run("w-bob", "strava", start: "2026-11-20T07:00:00+01:00")).status == .created)
            var list = try await server.call(.get, "/users/ana/activities", as: "ana").json["activities"] as? [[String: Any]] ?? []
            #expect(list.map { $0["workoutId"] as? String } == ["w-health"])
            let others = list.first?["alsoRecordedBy"] as? [[String: Any]] ?? []
            #expect(others.map { $0["workoutId"] as? String } == ["w-watch"])
            #expect((others.first?["source"] as? [String: Any])?["kind"] as? String == "garmin")
            let duplicate = try await server.call(.get, "/users/ana/activities/w-watch", as: "ana")
            #expect(duplicate.status == .ok, "\(duplicate.text)")
            #expect(duplicate.json["primaryWorkoutId"] as? String == "w-health", "\(duplicate.text)")

            let preferred = try await server.call(.patch, "/users/ana/profile", as: "ana", body: #"{"preferredWorkoutSources":["garmin"]}"#)
            #expect(preferred.status == .created, "\(preferred.text)")
            #expect(try await server.call(.get, "/users/ana/profile", as: "ana").json["preferredWorkoutSources"] as? [String] == ["garmin"])
            list = try await server.call(.get, "/users/ana/activities", as: "ana").json["activities"] as? [[String: Any]] ?? []
            #expect(list.map { $0["workoutId"] as? String } == ["w-watch"])

            let apart = try await server.call(.post, "/users/ana/workouts/w-watch/keep-separate", as: "ana", body: #"{"otherWorkoutId":"w-health"}"#)
            #expect(apart.status == .created, "\(apart.text)")
            list = try await server.call(.get, "/users/ana/activities", as: "ana").json["activities"] as? [[String: Any]] ?? []
            #expect(Set(list.compactMap { $0["workoutId"] as? String }) == ["w-watch", "w-health"])
            #expect(list.allSatisfy { $0["alsoRecordedBy"] == nil })
            // Bob's list never saw Ana's workouts, and his one run counts.
            let bobs = try await server.call(.get, "/users/bob/activities", as: "bob").json["activities"] as? [[String: Any]] ?? []
            #expect(bobs.map { $0["workoutId"] as? String } == ["w-bob"])
        }
    }

    @Test("itself, another user's workout, an unknown one, a duplicate preference and another user's path are refused, writing nothing")
    func refusals() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await register(server, "bob")
            #expect(try await server.call(.post, "/users/ana/imports", as: "ana",
                                          body: Self.run("w-a", "garmin", start: "2026-11-20T07:00:00+01:00")).status == .created)
            #expect(try await server.call(.post, "/users/bob/imports", as: "bob",
                                          body: Self.run("w-b", "strava", start: "2026-11-20T07:00:00+01:00")).status == .created)
            let head = try await server.head()
            let itself = try await server.call(.post, "/users/ana/workouts/w-a/keep-separate", as: "ana", body: #"{"otherWorkoutId":"w-a"}"#)
            #expect(itself.status == .badRequest, "\(itself.text)")
            #expect(itself.text.contains("otherWorkoutId"), "\(itself.text)")
            let stranger = try await server.call(.post, "/users/ana/workouts/w-a/keep-separate", as: "ana", body: #"{"otherWorkoutId":"w-b"}"#)
            #expect(stranger.status == .notFound, "\(stranger.text)")
            let unknown = try await server.call(.post, "/users/ana/workouts/w-x/keep-separate", as: "ana", body: #"{"otherWorkoutId":"w-a"}"#)
            #expect(unknown.status == .notFound, "\(unknown.text)")
            let missing = try await server.call(.post, "/users/ana/workouts/w-a/keep-separate", as: "ana", body: "{}")
            #expect(missing.status == .badRequest, "\(missing.text)")
            let twice = try await server.call(.patch, "/users/ana/profile", as: "ana", body: #"{"preferredWorkoutSources":["garmin","garmin"]}"#)
            #expect(twice.status == .badRequest, "\(twice.text)")
            let unknownKind = try await server.call(.patch, "/users/ana/profile", as: "ana", body: #"{"preferredWorkoutSources":["polar"]}"#)
            #expect(unknownKind.status == .badRequest, "\(unknownKind.text)")
            let foreign = try await server.call(.post, "/users/ana/workouts/w-a/keep-separate", as: "bob", body: #"{"otherWorkoutId":"w-b"}"#)
            #expect(foreign.status == .forbidden, "\(foreign.text)")
            #expect(try await server.head() == head)
        }
    }
}
