import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

@Suite("Places, activities, timeline and collectibles, by hand")
struct PlacesActivitiesTimelineTests {
    static let now = "2026-11-20T08:00:00+01:00"

    func place(_ id: String, _ name: String, _ category: PlaceCategory = .restaurant) -> Command {
        .addPlace(PlaceAdded(placeId: id, name: name, category: category, subcategory: "x", latitude: 52, longitude: 13))
    }

    @Test("places: deck in catalog order, saved by NFC name, visited by last visit, reset keeps notes")
    func places() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(Self.now))
            // "Ä" written decomposed (A + combining diaeresis) sorts as the precomposed Ä, after "Z" in code points.
            for command in [place("p1", "Zur Linde"), place("p2", "A\u{308}pfelhaus"), place("p3", "Bistro"), place("p4", "Climb", .activity), place("p5", "Ñam")] {
                try await logbook.execute(command, context: when(Self.now))
            }
            #expect(try await logbook.placesDeck(user: "u1").map(\.place.placeId) == ["p1", "p2", "p3", "p4", "p5"])
            for (id, direction) in [("p1", SwipeDirection.right), ("p2", .right), ("p3", .left), ("p5", .right), ("p4", .right)] {
                try await logbook.execute(.swipePlace(user: "u1", PlaceSwiped(placeId: id, direction: direction)), context: when(Self.now))
            }
            #expect(try await logbook.placesDeck(user: "u1").isEmpty)
            #expect(try await logbook.savedPlaces(user: "u1", category: .restaurant).map(\.place.placeId) == ["p1", "p2", "p5"])
            // Visits: p5 on the 18th, p1 on the 19th, p5 again but earlier (the 10th) — its last visit stays the 18th.
            for (id, time) in [("p5", "2026-11-18T19:00:00+01:00"), ("p1", "2026-11-19T19:00:00+01:00"), ("p5", "2026-11-10T19:00:00+01:00")] {
                try await logbook.execute(.visitPlace(user: "u1", PlaceVisited(placeId: id, visitedAt: at(time))), context: when(Self.now))
            }
            let visited = try await logbook.visitedPlaces(user: "u1", category: .restaurant)
            #expect(visited.map(\.place.placeId) == ["p1", "p5"])
            #expect(visited.map(\.visitCount) == [1, 2])
            #expect(visited[1].lastVisitDate == day("2026-11-18"))
            #expect(try await logbook.savedPlaces(user: "u1", category: .restaurant).map(\.place.placeId) == ["p2"], "a visited place leaves the saved list")
            try await logbook.execute(.editPlaceNotes(user: "u1", PlaceNotesEdited(placeId: "p3", notes: "too loud")), context: when(Self.now))
            try await logbook.execute(.resetPlaces(user: "u1"), context: when(Self.now))
            try await logbook.execute(place("p6", "Later"), context: when(Self.now))
            let deck = try await logbook.placesDeck(user: "u1", limit: 10)
            #expect(deck.map(\.place.placeId) == ["p1", "p2", "p3", "p4", "p5", "p6"], "places added later join the end of the deck")
            #expect(deck[2].userNotes == "too loud")
            #expect(deck.allSatisfy { $0.visitCount == 0 && $0.lastVisit == nil })
            #expect(try await logbook.placesDeck(user: "u1", limit: 2).count == 2)
        }
    }

    @Test("activities: newest first, filters, cursor paging, calendar and insights")
    func activities() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(Self.now))
            let plan: [(String, ActivityType, String, Int, Int)] = [
                ("a", .run, "2026-11-02T07:00:00+01:00", 5000, 1500), ("b", .ride, "2026-11-05T07:00:00+01:00", 20_000, 2400),
                ("c", .run, "2026-11-10T07:00:00+01:00", 8000, 2400), ("d", .yoga, "2026-11-10T19:00:00+01:00", 0, 1800),
                ("e", .run, "2026-10-30T07:00:00+01:00", 10_000, 3000),
            ]
            for (id, type, start, meters, seconds) in plan {
                let started = at(start)
                try await logbook.execute(.importWorkout(user: "u1", WorkoutImported(
                    workoutId: id, activityType: type, startedAt: started,
                    endedAt: Timestamp(microsecondsSinceEpoch: started.instant + Int64(seconds + 60) * 1_000_000, utcOffsetSeconds: 3600),
                    distanceMeters: meters, movingSeconds: seconds, laps: id == "c" ? [Lap(distanceMeters: 4000, movingSeconds: 1200), Lap(distanceMeters: 4000, movingSeconds: 1200)] : nil,
                    source: WorkoutSource(kind: .garmin, sourceId: "g-\(id)"), title: id == "c" ? "Tempo Tuesday" : nil)), context: when(Self.now))
            }
            try await logbook.execute(.editWorkout(user: "u1", WorkoutEdited(workoutId: "a", notes: "easy TEMPO finish")), context: when(Self.now))
            #expect(try await logbook.activities(user: "u1").activities.map(\.workoutId) == ["d", "c", "b", "a", "e"])
            #expect(try await logbook.activities(user: "u1", filter: ActivityFilter(type: .run)).activities.map(\.workoutId) == ["c", "a", "e"])
            #expect(try await logbook.activities(user: "u1", filter: ActivityFilter(from: day("2026-11-01"), to: day("2026-11-09"))).activities.map(\.workoutId) == ["b", "a"])
            #expect(try await logbook.activities(user: "u1", filter: ActivityFilter(text: "tempo")).activities.map(\.workoutId) == ["c", "a"])
            let first = try await logbook.activities(user: "u1", limit: 2)
            #expect(first.activities.map(\.workoutId) == ["d", "c"])
            let second = try await logbook.activities(user: "u1", limit: 2, cursor: first.nextCursor)
            #expect(second.activities.map(\.workoutId) == ["b", "a"])
            let third = try await logbook.activities(user: "u1", limit: 2, cursor: second.nextCursor)
            #expect(third.activities.map(\.workoutId) == ["e"])
            #expect(third.nextCursor == nil)
            #expect(try await logbook.activity(user: "u1", workoutId: "c").laps?.count == 2)
            let calendar = try await logbook.calendar(user: "u1", year: 2026, month: 11)
            #expect(calendar.activeDays.map(\.date) == [day("2026-11-02"), day("2026-11-05"), day("2026-11-10")])
            #expect(calendar.activeDays[2].types == [.run, .yoga])
            let insights = try await logbook.insights(user: "u1", days: 14, today: day("2026-11-12"))
            #expect(insights.from == day("2026-10-30"))  // 14 days: 30 Oct – 12 Nov
            #expect(insights.workouts == 5)
            #expect(insights.favoriteType == .run)
            #expect(insights.averagePaceSecondsPerKm == 300)  // runs a, c, e: 6900 s over 23 km
            #expect(try await logbook.insights(user: "u1", days: 7, today: day("2026-11-12")).workouts == 2)  // 6–12 Nov: c and d
            try await logbook.execute(.deleteWorkout(user: "u1", workoutId: "c"), context: when(Self.now))
            #expect(try await logbook.activities(user: "u1").activities.map(\.workoutId) == ["d", "b", "a", "e"])
            await #expect(throws: LogbookError.notFound(kind: "workout", id: "c")) { try await logbook.activity(user: "u1", workoutId: "c") }
        }
    }

    @Test("a cursor that names a workout id beginning with a combining mark pages on (the cut is found in the bytes)")
    func cursorBeforeCombiningMark() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when(Self.now))
            for (index, id) in ["x", "\u{301}w"].enumerated() {
                let started = at("2026-11-0\(index + 2)T07:00:00Z")
                try await logbook.execute(.importWorkout(user: "u1", WorkoutImported(
                    workoutId: id, activityType: .run, startedAt: started,
                    endedAt: Timestamp(microsecondsSinceEpoch: started.instant + 1_800_000_000, utcOffsetSeconds: 0),
                    distanceMeters: 5000, movingSeconds: 1700, source: WorkoutSource(kind: .garmin, sourceId: "g-\(index)"))), context: when(Self.now))
            }
            let first = try await logbook.activities(user: "u1", limit: 1)
            #expect(first.activities.map(\.workoutId) == ["\u{301}w"])
            let second = try await logbook.activities(user: "u1", limit: 1, cursor: first.nextCursor)
            #expect(second.activities.map(\.workoutId) == ["x"], "after the cursor naming \\u{301}w")
        }
    }

    @Test("timeline: one line per event, newest first, with what changed and what it was")
    func timeline() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(Self.now))
            try await logbook.execute(.setGoal(user: "u1", GoalSet(date: day("2026-11-24"), steps: 12_000)), context: when(Self.now))
            try await logbook.execute(.setGoal(user: "u1", GoalSet(date: day("2026-11-24"), steps: 14_500)), context: when(Self.now))
            try await logbook.execute(.setDefaultGoal(user: "u1", GoalDefaultSet(steps: 8000)), context: when(Self.now))
            try await logbook.execute(.clearGoal(user: "u1", date: day("2026-11-24")), context: when(Self.now))
            try await logbook.execute(.startWorkout(user: "u1", WorkoutStarted(workoutId: "w1", activityType: .run, startedAt: at("2026-11-20T07:00:00+01:00"))), context: when(Self.now))
            try await logbook.execute(.finishWorkout(user: "u1", WorkoutFinished(workoutId: "w1", endedAt: at("2026-11-20T07:45:10+01:00"), distanceMeters: 8012, movingSeconds: 2710)), context: when(Self.now))
            try await logbook.execute(.addPlace(PlaceAdded(placeId: "p1", name: "Café Luna", category: .restaurant, subcategory: "café", latitude: 52, longitude: 13)), context: when(Self.now))
            try await logbook.execute(.swipePlace(user: "u1", PlaceSwiped(placeId: "p1", direction: .right)), context: when(Self.now))
            let page = try await logbook.timeline(user: "u1", limit: 50)
            #expect(page.entries.map(\.description) == [
                "Saved Café Luna",
                "Finished the run: 8.01 km in 45:10",
                "Started a run (manual)",
                "Step goal for Tue 24 Nov cleared, was 14,500",
                "Default step goal set to 8,000 from Fri 20 Nov, was 10,000",
                "Step goal for Tue 24 Nov set to 14,500, was 12,000",
                "Step goal for Tue 24 Nov set to 12,000, was 10,000",
                "Registered as Ana (Europe/Berlin, weeks start Monday, metric)",
            ])
            let goalsOnly = try await logbook.timeline(user: "u1", filter: TimelineFilter(types: [.goalSet], newestFirst: false), limit: 1)
            #expect(goalsOnly.entries.map(\.description) == ["Step goal for Tue 24 Nov set to 12,000, was 10,000"])
            let next = try await logbook.timeline(user: "u1", filter: TimelineFilter(types: [.goalSet], newestFirst: false), limit: 1, cursor: goalsOnly.nextCursor)
            #expect(next.entries.map(\.description) == ["Step goal for Tue 24 Nov set to 14,500, was 12,000"])
            let pages = try await logbook.timeline(user: "u1", limit: 3)
            let rest = try await logbook.timeline(user: "u1", limit: 10, cursor: pages.nextCursor)
            #expect((pages.entries + rest.entries).map(\.position) == page.entries.map(\.position))
        }
    }

    @Test("collectibles: workout milestones with the position and day that earned them, gone when the workout is deleted")
    func collectibles() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when(Self.now))
            var positions: [String: UInt64] = [:]
            for (index, meters) in [3000, 6000, 45_000, 50_000].enumerated() {
                let id = "w\(index)"
                let started = at("2026-11-1\(index)T07:00:00Z")
                let result = try await logbook.execute(.importWorkout(user: "u1", WorkoutImported(
                    workoutId: id, activityType: .run, startedAt: started, endedAt: at("2026-11-1\(index)T09:00:00Z"),
                    distanceMeters: meters, movingSeconds: 3600, source: WorkoutSource(kind: .strava, sourceId: id))), context: when(Self.now))
                positions[id] = result.firstPosition
            }
            var earned = try await logbook.collectibles(user: "u1")
            #expect(earned.map(\.id) == ["first_workout", "first_5k", "marathon", "total_100km"])
            #expect(earned.first { $0.id == "first_5k" }?.position == positions["w1"])
            #expect(earned.first { $0.id == "total_100km" }?.date == day("2026-11-13"))
            try await logbook.execute(.deleteWorkout(user: "u1", workoutId: "w1"), context: when(Self.now))
            earned = try await logbook.collectibles(user: "u1")
            #expect(earned.first { $0.id == "first_5k" }?.position == positions["w2"])
            #expect(!earned.contains { $0.id == "total_100km" })  // 98 km without w1
        }
    }

    @Test("collectible progress: every milestone in order, earned ones with their day, the others with how far along they are")
    func collectibleProgress() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when(Self.now))
            var none = try await logbook.collectibleProgress(user: "u1")
            #expect(none.map(\.id) == Milestone.all.map(\.id) && none.allSatisfy { !$0.earned && $0.progress == 0 && $0.date == nil })
            for (index, meters) in [3000, 6000, 12_000].enumerated() {
                let id = "w\(index)"
                try await logbook.execute(.importWorkout(user: "u1", WorkoutImported(
                    workoutId: id, activityType: .run, startedAt: at("2026-11-1\(index)T07:00:00Z"), endedAt: at("2026-11-1\(index)T09:00:00Z"),
                    distanceMeters: meters, movingSeconds: 3600, source: WorkoutSource(kind: .strava, sourceId: id))), context: when(Self.now))
            }
            // Steps on three days in a row: the default goal (10,000) met on the last two only.
            for (dayText, count) in [("2026-11-10", 8_000), ("2026-11-11", 10_500), ("2026-11-12", 11_000)] {
                try await logbook.execute(.recordSteps(user: "u1", StepsRecorded(samples: [StepSample(
                    start: at("\(dayText)T10:00:00Z"), end: at("\(dayText)T11:00:00Z"), count: count, source: "phone")])), context: when(Self.now))
            }
            none = try await logbook.collectibleProgress(user: "u1")
            let byId = Dictionary(uniqueKeysWithValues: none.map { ($0.id, $0) })
            #expect(byId["first_workout"]?.earned == true && byId["first_workout"]?.progress == 1 && byId["first_workout"]?.date == day("2026-11-10"))
            #expect(byId["first_5k"]?.earned == true && byId["first_5k"]?.progress == 5_000)
            func shown(_ id: String) -> String {
                byId[id].map { "\($0.earned) \($0.progress)/\($0.target) \($0.unit) \($0.date.map { "\($0)" } ?? "-")" } ?? "missing"
            }
            #expect(shown("marathon") == "false 12000/42195 m -")
            #expect(shown("ten_workouts") == "false 3/10 workouts -")
            #expect(shown("total_100km") == "false 21000/100000 m -")
            #expect(shown("steps_10k_day") == "true 10000/10000 steps 2026-11-11")
            #expect(shown("goal_streak_7") == "false 2/7 days -")
            // The earned ones are exactly what collectibles answers.
            let earned = try await logbook.collectibles(user: "u1")
            #expect(earned.map(\.id).sorted() == none.filter(\.earned).map(\.id).sorted())
            #expect(earned.allSatisfy { collectible in byId[collectible.id]?.position == collectible.position })
        }
    }
}
