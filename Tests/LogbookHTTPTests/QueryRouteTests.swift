import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Every query route over HTTP: answers computed by hand from a small history, `asOf`, the
/// chart, the log reads and the operator's routes.
@Suite("HTTP queries")
struct QueryRouteTests {
    /// Ana: a run on Mon 16 Nov (8 km, 40 min) and a walk on Wed 18 Nov (3 km, 30 min), steps on Monday.
    static func history(_ server: TestServer) async throws {
        try await register(server, "ana")
        for (id, type, start, end, meters, seconds) in [
            ("r1", "run", "2026-11-16T07:00:00+01:00", "2026-11-16T07:45:00+01:00", 8000, 2400),
            ("k1", "walk", "2026-11-18T12:00:00+01:00", "2026-11-18T12:35:00+01:00", 3000, 1800),
        ] {
            let imported = try await server.call(.post, "/users/ana/imports", as: "ana", body: """
                {"workoutId":"\(id)","activityType":"\(type)","startedAt":"\(start)","endedAt":"\(end)","distanceMeters":\(meters),
                 "movingSeconds":\(seconds),"source":{"kind":"healthkit","sourceId":"\(id)"}}
                """)
            precondition(imported.status == .created, imported.text)
        }
        let steps = try await server.call(.post, "/users/ana/steps", as: "ana", body: """
            {"samples":[{"start":"2026-11-16T09:00:00+01:00","end":"2026-11-16T10:00:00+01:00","count":4321,"source":"phone"}]}
            """)
        precondition(steps.status == .created, steps.text)
    }

    @Test("stats: weekly, period and the SVG chart")
    func stats() async throws {
        try await withServer { server in
            try await Self.history(server)
            let week = try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-19", as: "ana")
            #expect(week.status == .ok)
            #expect(week.headers[.contentType] == "application/json")
            #expect(week.json["from"] as? String == "2026-11-16")
            #expect(week.json["steps"] as? Int == 4321)
            let totals = week.json["totals"] as? [String: Any]
            #expect(totals?["distanceMeters"] as? Int == 11_000)
            #expect(totals?["movingSeconds"] as? Int == 4200)
            #expect(totals?["workouts"] as? Int == 2)
            let period = try await server.call(.get, "/users/ana/stats/period?from=2026-11-18&to=2026-11-18", as: "ana")
            #expect((period.json["totals"] as? [String: Any])?["distanceMeters"] as? Int == 3000)
            let chart = try await server.call(.get, "/users/ana/stats/weekly.svg?date=2026-11-19", as: "ana")
            #expect(chart.status == .ok)
            #expect(chart.headers[.contentType] == "image/svg+xml")
            #expect(chart.text.hasPrefix("<svg"))
            #expect(chart.text.contains("2026-11-16: 8 km"))
            #expect(chart.text.contains("2026-11-18: 3 km"))
            #expect(chart.text.components(separatedBy: "<rect x=").count - 1 == 7)
            let minutes = try await server.call(.get, "/users/ana/stats/weekly.svg?date=2026-11-19&metric=time", as: "ana")
            #expect(minutes.text.contains("2026-11-16: 40 min"))
        }
    }

    @Test("training: the load chart draws the load answer, the same bytes each time; without a maximum heart rate it says so")
    func trainingLoadChart() async throws {
        try await withServer { server in
            try await Self.history(server)
            let none = try await server.call(.get, "/users/ana/training/load.svg?from=2026-11-16&to=2026-11-22", as: "ana")
            #expect(none.status == .ok && none.text.contains("No maximum heart rate"))
            let profile = try await server.call(.patch, "/users/ana/profile", as: "ana", body: #"{"maxHeartRate":190,"restingHeartRate":50}"#)
            #expect(profile.status == .created, "\(profile.text)")
            let load = try await server.call(.get, "/users/ana/training/load?from=2026-11-16&to=2026-11-22", as: "ana")
            let days = try #require(load.json["days"] as? [[String: Any]])
            let chart = try await server.call(.get, "/users/ana/training/load.svg?from=2026-11-16&to=2026-11-22", as: "ana")
            #expect(chart.status == .ok && chart.headers[.contentType] == "image/svg+xml" && chart.text.hasPrefix("<svg"))
            #expect(chart.text.components(separatedBy: "<rect x=").count - 1 == days.count)
            for day in days {
                #expect(chart.text.contains("\(day["date"] as? String ?? "?"): load \(day["load"] as? Int ?? -1),"))
            }
            #expect(try await server.call(.get, "/users/ana/training/load.svg?from=2026-11-16&to=2026-11-22", as: "ana").text == chart.text)
        }
    }

    @Test("training: a PATCH of a planned workout replaces what it names, null clears distance, duration or notes, and a change that leaves neither is refused")
    func plannedWorkoutPatch() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let planned = try await server.call(.post, "/users/ana/training/planned-workouts", as: "ana", body: """
                {"plannedId":"p-1","date":"2026-11-20","activityType":"run","kind":"tempo","distanceMeters":8000,"durationSeconds":2700,"notes":"hills"}
                """)
            #expect(planned.status == .created, "\(planned.text)")
            func plannedOne() async throws -> [String: Any]? {
                let plan = try await server.call(.get, "/users/ana/training/plan?from=2026-11-16&to=2026-11-22", as: "ana")
                return (plan.json["planned"] as? [[String: Any]])?.first
            }
            let cleared = try await server.call(.patch, "/users/ana/training/planned-workouts/p-1", as: "ana", body: #"{"distanceMeters":null,"notes":null,"kind":"easy"}"#)
            #expect(cleared.status == .created, "\(cleared.text)")
            let after = try #require(try await plannedOne())
            #expect(after["distanceMeters"] is NSNull && after["notes"] is NSNull || after["distanceMeters"] == nil && after["notes"] == nil)
            #expect(after["durationSeconds"] as? Int == 2700 && after["kind"] as? String == "easy" && after["date"] as? String == "2026-11-20")
            // Clearing the duration too would leave a planned workout with neither: refused, nothing written.
            let neither = try await server.call(.patch, "/users/ana/training/planned-workouts/p-1", as: "ana", body: #"{"durationSeconds":null}"#)
            #expect(neither.status == .unprocessableContent && neither.text.contains("plan_invalid"), "\(neither.text)")
            // A date, a type or a kind cannot be cleared: the field is named.
            let noDate = try await server.call(.patch, "/users/ana/training/planned-workouts/p-1", as: "ana", body: #"{"date":null}"#)
            #expect(noDate.status == .badRequest || noDate.status == .unprocessableContent)
            #expect(noDate.text.contains("date"), "\(noDate.text)")
            #expect(try await plannedOne()?["durationSeconds"] as? Int == 2700)
        }
    }

    @Test("activities: list, filter, detail, calendar, insights; collectibles")
    func activities() async throws {
        try await withServer { server in
            try await Self.history(server)
            let list = try await server.call(.get, "/users/ana/activities", as: "ana")
            let ids = (list.json["activities"] as? [[String: Any]])?.compactMap { $0["workoutId"] as? String }
            #expect(ids == ["k1", "r1"])
            let runs = try await server.call(.get, "/users/ana/activities?type=run&limit=5", as: "ana")
            #expect((runs.json["activities"] as? [[String: Any]])?.count == 1)
            let calendar = try await server.call(.get, "/users/ana/calendar?month=2026-11", as: "ana")
            #expect((calendar.json["activeDays"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == ["2026-11-16", "2026-11-18"])
            let insights = try await server.call(.get, "/users/ana/insights?days=7&today=2026-11-18", as: "ana")
            #expect(insights.json["workouts"] as? Int == 2)
            #expect(insights.json["distanceMeters"] as? Int == 11_000)
            let collectibles = try await server.call(.get, "/users/ana/collectibles", as: "ana")
            #expect(collectibles.status == .ok)
            #expect(collectibles.array.contains { ($0["id"] as? String)?.isEmpty == false })
        }
    }

    @Test("the timeline pages by cursor and filters by type")
    func timeline() async throws {
        try await withServer { server in
            try await Self.history(server)
            let first = try await server.call(.get, "/users/ana/timeline?limit=2", as: "ana")
            let entries = first.json["entries"] as? [[String: Any]] ?? []
            #expect(entries.compactMap { $0["type"] as? String } == ["steps.recorded", "workout.imported"])
            let cursor = try #require(first.json["nextCursor"] as? String)
            let second = try await server.call(.get, "/users/ana/timeline?limit=2&cursor=\(cursor)", as: "ana")
            #expect((second.json["entries"] as? [[String: Any]])?.compactMap { $0["type"] as? String } == ["workout.imported", "user.registered"])
            let imports = try await server.call(.get, "/users/ana/timeline?types=workout.imported&order=oldest", as: "ana")
            #expect((imports.json["entries"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("asOf answers as the read models stood at a past position, and the live answer is untouched")
    func asOf() async throws {
        try await withServer { server in
            try await Self.history(server)
            // Positions: 1 registered, 2 the run, 3 the walk, 4 the steps.
            let then = try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-19&asOf=2", as: "ana")
            #expect((then.json["totals"] as? [String: Any])?["distanceMeters"] as? Int == 8000)
            #expect(then.json["steps"] as? Int == 0)
            let named = try await server.call(.get, "/users/ana/activities?asOf=position:2", as: "ana")
            #expect((named.json["activities"] as? [[String: Any]])?.count == 1)
            let now = try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-19", as: "ana")
            #expect((now.json["totals"] as? [String: Any])?["distanceMeters"] as? Int == 11_000)
            #expect(try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-19&asOf=yesterday", as: "ana").status == .badRequest)
        }
    }

    @Test("the log: a stream, the user's events, and the whole log for administrators")
    func logReads() async throws {
        try await withServer { server in
            try await Self.history(server)
            let stream = try await server.call(.get, "/streams/workout-r1", as: "ana")
            #expect(stream.status == .ok)
            let events = stream.json["events"] as? [[String: Any]] ?? []
            #expect(events.count == 1)
            #expect(events.first?["type"] as? String == "workout.imported")
            #expect(events.first?["position"] as? Int == 2)
            // Another user's stream is answered as a missing one: the answer does not tell that it exists.
            #expect(try await server.call(.get, "/streams/workout-r1", as: "bob").status == .notFound)
            #expect(try await server.call(.get, "/streams/no-such-stream", as: "ana").status == .notFound)
            let mine = try await server.call(.get, "/users/ana/events?direction=backward&limit=2", as: "ana")
            #expect((mine.json["events"] as? [[String: Any]])?.compactMap { $0["position"] as? Int } == [4, 3])
            #expect(mine.json["nextPosition"] as? Int == 2)
            let log = try await server.call(.get, "/log?types=workout.imported", as: "op", admin: true)
            #expect((log.json["events"] as? [[String: Any]])?.count == 2)
            #expect(log.json["reachedEnd"] as? Bool == true)
            #expect(try await server.call(.get, "/log", as: "ana").status == .forbidden)
        }
    }

    @Test("operators: projections and lag, caches, storage, rebuild with progress, verify; health, ready, metrics")
    func operators() async throws {
        try await withServer { server in
            try await Self.history(server)
            _ = try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-19", as: "ana")
            let projections = try await server.call(.get, "/admin/projections", as: "op", admin: true).array
            #expect(projections.count == ReadModelKind.allCases.count)
            #expect(projections.allSatisfy { $0["lag"] as? Int == 0 && $0["position"] as? Int == 4 })
            let caches = try await server.call(.get, "/admin/caches", as: "op", admin: true).array
            #expect(caches.contains { $0["name"] as? String == "stats" && ($0["misses"] as? Int ?? 0) >= 1 })
            let storage = try await server.call(.get, "/admin/storage", as: "op", admin: true)
            #expect(storage.json["headPosition"] as? Int == 4)
            let rebuild = try await server.call(.post, "/admin/rebuild?projections=stats,goals", as: "op", admin: true)
            #expect(rebuild.headers[.contentType] == "application/x-ndjson")
            let lines = rebuild.text.split(separator: "\n")
            #expect(lines.contains { $0.contains("\"finished\":true") })
            #expect(lines.last?.contains("\"digests\"") == true)
            #expect(try await server.call(.post, "/admin/rebuild?projections=nope", as: "op", admin: true).status == .badRequest)
            let verify = try await server.call(.post, "/admin/verify", as: "op", admin: true)
            #expect(verify.json["allMatch"] as? Bool == true)
            #expect(try await server.call(.get, "/health").status == .ok)
            let ready = try await server.call(.get, "/ready")
            #expect(ready.status == .ok)
            #expect(ready.json["head"] as? Int == 4)
            let metrics = try await server.call(.get, "/metrics")
            #expect(metrics.status == .ok)
            for name in ["logbook_http_request_duration_seconds_bucket", "logbook_log_events_appended_total 4", "logbook_log_commits_total",
                         "logbook_log_commit_events_bucket", "logbook_cache_hits_total", "logbook_projection_lag_events{projection=\"stats\"} 0"] {
                #expect(metrics.text.contains(name), "\(name) missing from /metrics")
            }
        }
    }
}
