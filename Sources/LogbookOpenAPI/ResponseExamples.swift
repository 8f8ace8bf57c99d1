import EventLog
public import Foundation
public import Logbook
import DemoData
import LogbookHTTP

/// Real answers of every JSON query and command route, taken from a Logbook that holds the demo
/// data set, from which the OpenAPI document's response schemas are inferred. Keyed like
/// ``RouteDescriptor``: `"GET users/{user}/stats/weekly"`.
public enum ResponseExamples {
    /// Runs the queries (and a few commands) against `logbook`, which should hold
    /// `DemoDataGenerator(seed: 2026, users: 2)` or similar.
    public static func collect(_ logbook: Logbook) async throws -> [String: [Data]] {
        var examples: [String: [Data]] = [:]
        func add(_ route: String, _ value: some Encodable) throws {
            examples[route, default: []].append(try JSONOutput.encoder.encode(value))
        }
        let weeks = ["2026-10-07", "2026-10-28", "2026-11-11"].compactMap(CivilDate.init(parsing:))
        for user in [DemoDataGenerator.userId(0), DemoDataGenerator.userId(1)] {
            try add("GET users/{user}/profile", try await logbook.profile(user: user))
            for week in weeks {
                try add("GET users/{user}/stats/weekly", try await logbook.weeklyStats(user: user, containing: week))
                try add("GET users/{user}/goals/week", try await logbook.goalWeek(user: user, containing: week))
                try add("GET users/{user}/goals/streaks", try await logbook.streaks(user: user, asOfDay: week))
            }
            try add("GET users/{user}/stats/period", try await logbook.periodStats(user: user, from: weeks[0], to: weeks[2]))
            try add("GET users/{user}/places/deck", try await logbook.placesDeck(user: user, limit: 5))
            for category in PlaceCategory.allCases {
                try add("GET users/{user}/places/saved", try await logbook.savedPlaces(user: user, category: category))
                try add("GET users/{user}/places/visited", try await logbook.visitedPlaces(user: user, category: category))
            }
            for place in try await logbook.visitedPlaces(user: user, category: .restaurant).prefix(3) + (try await logbook.placesDeck(user: user, limit: 3)) {
                try add("GET users/{user}/places/{placeId}", try await logbook.place(user: user, placeId: place.place.placeId))
            }
            let page = try await logbook.activities(user: user, limit: 50)
            try add("GET users/{user}/activities", page)
            for activity in page.activities.prefix(20) {
                try add("GET users/{user}/activities/{workoutId}", try await logbook.activityDetail(user: user, workoutId: activity.workoutId))
            }
            try add("GET users/{user}/calendar", try await logbook.calendar(user: user, year: 2026, month: 10))
            try add("GET users/{user}/insights", try await logbook.insights(user: user, days: 30, today: weeks[2]))
            try add("GET users/{user}/collectibles", try await logbook.collectibles(user: user))
            try add("GET users/{user}/records", try await logbook.personalRecords(user: user))
            try add("GET users/{user}/timeline", try await logbook.timeline(user: user, limit: 200))
        }
        // Command results: a new workout, the same import again (already applied), a goal.
        let user = DemoDataGenerator.userId(0)
        let imported = try EventBody.decode(.workoutImported, Data("""
            {"workoutId":"example-import","activityType":"ride","startedAt":"2026-11-01T09:00:00+01:00","endedAt":"2026-11-01T10:00:00+01:00",
             "distanceMeters":30000,"movingSeconds":3500,"source":{"kind":"garmin","sourceId":"example-77"}}
            """.utf8))
        for _ in 0..<2 { try add("command", try await logbook.execute(Command(user: user, event: imported))) }
        let goal = try EventBody.decode(.goalDefaultSet, Data(#"{"steps":9000}"#.utf8))
        try add("command", try await logbook.execute(Command(user: user, event: goal)))
        try add("GET admin/projections", try await logbook.projectionStatus())
        try add("GET admin/caches", logbook.cacheStatus())
        try add("GET admin/storage", try await logbook.log.storageInfo())
        let jobs = AdminJobs(logbook: logbook)
        let job = jobs.verify()
        guard let finished = await jobs.result(of: job.id), let verified = finished.verification else {
            throw LogbookError.storage("the example verification did not finish")
        }
        try add("POST admin/verify", VerifyReport(allMatch: verified.allSatisfy(\.matches), projections: verified))
        let backups = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-openapi-backup-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: backups) }
        let backup = jobs.backup(to: backups)
        guard let backedUp = await jobs.result(of: backup.id)?.backup else {
            throw LogbookError.storage("the example backup did not finish")
        }
        try add("POST admin/backup", backedUp)
        try add("GET admin/jobs", jobs.all())
        try add("GET admin/jobs/{job}", finished)
        try add("DELETE admin/jobs/{job}", finished)
        return examples
    }
}
