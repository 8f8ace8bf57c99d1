import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Read models on small histories whose numbers are worked out by hand.
@Suite("Stats and goals, by hand")
struct StatsAndGoalsTests {
    static let now = "2026-11-20T08:00:00+01:00"

    func minute(_ start: String, _ count: Int, _ source: String) -> StepSample {
        let begin = at(start)
        return StepSample(start: begin, end: Timestamp(microsecondsSinceEpoch: begin.instant + 60_000_000, utcOffsetSeconds: begin.utcOffsetSeconds), count: count, source: source)
    }

    func steps(_ logbook: Logbook, _ user: String, _ samples: [StepSample]) async throws {
        try await logbook.execute(.recordSteps(user: user, StepsRecorded(samples: samples)), context: when(Self.now))
    }

    @Test("steps: duplicates count once, the largest source wins, a preferred source rules every day")
    func stepSources() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(Self.now))
            // Thursday 19 Nov: phone 100 + 200 = 300; watch 250.
            try await steps(logbook, "u1", [minute("2026-11-19T09:00:00+01:00", 100, "phone"), minute("2026-11-19T09:01:00+01:00", 200, "phone")])
            try await steps(logbook, "u1", [minute("2026-11-19T09:00:00+01:00", 250, "watch")])
            // The phone re-sends its first sample, once in another offset naming the same instant: counted once.
            try await steps(logbook, "u1", [minute("2026-11-19T09:00:00+01:00", 100, "phone"), minute("2026-11-19T08:00:00Z", 100, "phone")])
            // Friday 20 Nov: watch only, 400.
            try await steps(logbook, "u1", [minute("2026-11-20T10:00:00+01:00", 400, "watch")])
            var week = try await logbook.weeklyStats(user: "u1", containing: day("2026-11-19"))
            #expect(week.days.map(\.steps) == [0, 0, 0, 300, 400, 0, 0])
            #expect(week.steps == 700)
            try await logbook.execute(.updateProfile(user: "u1", UserProfileUpdated(preferredStepSource: .set("phone"))), context: when(Self.now))
            week = try await logbook.weeklyStats(user: "u1", containing: day("2026-11-19"))
            #expect(week.days.map(\.steps) == [0, 0, 0, 300, 0, 0, 0], "a day without the preferred source has 0 steps")
            try await logbook.execute(.updateProfile(user: "u1", UserProfileUpdated(preferredStepSource: .set("watch"))), context: when(Self.now))
            week = try await logbook.weeklyStats(user: "u1", containing: day("2026-11-19"))
            #expect(week.days.map(\.steps) == [0, 0, 0, 250, 400, 0, 0])
        }
    }

    @Test("local days: a sample counts on its start's day in its own offset, across midnight, DST and the date line")
    func localDays() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "k", UserRegistered(displayName: "Kiri", timeZone: "Pacific/Kiritimati")), context: when(Self.now))
            // 23:59:30 on 19 Nov in Kiritimati (+14) is 09:59:30 UTC on 19 Nov; the sample runs past midnight.
            let late = at("2026-11-19T23:59:30+14:00")
            try await steps(logbook, "k", [StepSample(start: late, end: at("2026-11-20T00:00:30+14:00"), count: 50, source: "phone")])
            // 00:30 on 20 Nov in Kiritimati is still 19 Nov in UTC: it counts on the 20th there.
            try await steps(logbook, "k", [minute("2026-11-20T00:30:00+14:00", 70, "phone")])
            let week = try await logbook.periodStats(user: "k", from: day("2026-11-19"), to: day("2026-11-20"))
            #expect(week.days.map(\.steps) == [50, 70])
            // Berlin left summer time on 25 Oct 2026: 01:30 +02:00 and 01:30 +01:00 both belong to that day.
            try await logbook.execute(.registerUser(user: "b", UserRegistered(displayName: "Ber", timeZone: "Europe/Berlin")), context: when(Self.now))
            try await steps(logbook, "b", [minute("2026-10-25T02:30:00+02:00", 10, "phone"), minute("2026-10-25T02:30:00+01:00", 20, "phone"),
                                          minute("2026-10-24T23:59:00+02:00", 5, "phone")])
            let dst = try await logbook.periodStats(user: "b", from: day("2026-10-24"), to: day("2026-10-25"))
            #expect(dst.days.map(\.steps) == [5, 30])
        }
    }

    @Test("workouts count on their start day, by type; edits reclassify; deletes leave no trace")
    func workoutStats() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin", weekStart: .sunday)), context: when(Self.now))
            func run(_ id: String, _ start: String, _ end: String, _ meters: Int, _ seconds: Int, _ type: ActivityType = .run) async throws {
                try await logbook.execute(.startWorkout(user: "u1", WorkoutStarted(workoutId: id, activityType: type, startedAt: at(start))), context: when(Self.now))
                try await logbook.execute(.finishWorkout(user: "u1", WorkoutFinished(workoutId: id, endedAt: at(end), distanceMeters: meters, movingSeconds: seconds)), context: when(Self.now))
            }
            // Saturday 21 Nov, 23:30 to 00:20: counts on Saturday.
            try await run("w1", "2026-11-21T23:30:00+01:00", "2026-11-22T00:20:00+01:00", 10_000, 3000)
            try await run("w2", "2026-11-17T18:00:00+01:00", "2026-11-17T19:00:00+01:00", 30_000, 3600, .ride)
            try await run("w3", "2026-11-18T18:00:00+01:00", "2026-11-18T18:30:00+01:00", 5_000, 1500)
            // Weeks start on Sunday: 15–21 Nov.
            var week = try await logbook.weeklyStats(user: "u1", containing: day("2026-11-20"))
            #expect(week.from == day("2026-11-15"))
            #expect(week.days.map(\.distanceMeters) == [0, 0, 30_000, 5_000, 0, 0, 10_000])
            #expect(week.totals == ActivityTotals(workouts: 3, distanceMeters: 45_000, movingSeconds: 8100))
            let runs = try #require(week.byType.first { $0.type == .run })
            #expect(runs.totals.distanceMeters == 15_000)
            #expect(runs.paceSecondsPerKm == 300)  // 4500 s over 15 km
            #expect(week.byType.first { $0.type == .ride }?.speedKmh == 30)
            try await logbook.execute(.editWorkout(user: "u1", WorkoutEdited(workoutId: "w3", activityType: .walk)), context: when(Self.now))
            try await logbook.execute(.deleteWorkout(user: "u1", workoutId: "w2"), context: when(Self.now))
            week = try await logbook.weeklyStats(user: "u1", containing: day("2026-11-20"))
            #expect(week.days.map(\.distanceMeters) == [0, 0, 0, 5_000, 0, 0, 10_000])
            #expect(week.byType.map(\.type) == [.run, .walk])
            let month = try await logbook.monthStats(user: "u1", year: 2026, month: 11)
            #expect(month.days.count == 30)
            #expect(month.totals.workouts == 2)
        }
    }

    @Test("goals: explicit beats default beats 10,000; defaults apply from their day; met needs minutes too; streaks")
    func goalProgress() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when("2026-11-01T08:00:00+01:00"))
            // A week with no goal events shows seven goals of 10,000.
            var week = try await logbook.goalWeek(user: "u1", containing: day("2026-11-04"))
            #expect(week.days.map(\.goal.steps) == Array(repeating: 10_000, count: 7))
            #expect(week.days.map(\.origin) == Array(repeating: "standard", count: 7))
            // Default 8,000 from Wednesday 11 Nov; explicit 12,000 with 30 minutes on Friday 13 Nov.
            try await logbook.execute(.setDefaultGoal(user: "u1", GoalDefaultSet(steps: 8000)), context: when("2026-11-11T07:00:00+01:00"))
            try await logbook.execute(.setGoal(user: "u1", GoalSet(date: day("2026-11-13"), steps: 12_000, activeMinutes: 30)), context: when("2026-11-11T07:01:00+01:00"))
            try await logbook.execute(.setGoal(user: "u1", GoalSet(date: day("2026-11-14"), steps: 3_000)), context: when("2026-11-11T07:02:00+01:00"))
            try await logbook.execute(.clearGoal(user: "u1", date: day("2026-11-14")), context: when("2026-11-11T07:03:00+01:00"))
            week = try await logbook.goalWeek(user: "u1", containing: day("2026-11-12"))
            #expect(week.weekStart == day("2026-11-09"))
            #expect(week.days.map(\.goal.steps) == [10_000, 10_000, 8000, 8000, 12_000, 8000, 8000])
            #expect(week.days[4].goal.activeMinutes == 30)
            #expect(week.days[4].origin == "explicit")
            // Steps: Wed 9,000 (met), Thu 8,000 (met), Fri 13,000 but only 20 active minutes (not met).
            for (date, count) in [("2026-11-11", 9000), ("2026-11-12", 8000), ("2026-11-13", 13_000)] {
                try await steps(logbook, "u1", [minute("\(date)T12:00:00+01:00", count, "phone")])
            }
            try await logbook.execute(.startWorkout(user: "u1", WorkoutStarted(workoutId: "w1", activityType: .walk, startedAt: at("2026-11-13T18:00:00+01:00"))), context: when(Self.now))
            try await logbook.execute(.finishWorkout(user: "u1", WorkoutFinished(workoutId: "w1", endedAt: at("2026-11-13T18:30:00+01:00"), distanceMeters: 2000, movingSeconds: 1259)), context: when(Self.now))
            week = try await logbook.goalWeek(user: "u1", containing: day("2026-11-12"))
            #expect(week.days.map(\.met) == [false, false, true, true, false, false, false])
            #expect(week.days[4].activeMinutes == 20)  // floor(1259 / 60)
            #expect(week.daysMet == 2)
            #expect(week.streaks == Streaks(asOf: day("2026-11-13"), current: 0, longest: 2))
            // 11 more minutes on Friday: met; the streak is three long.
            try await logbook.execute(.importWorkout(user: "u1", WorkoutImported(
                workoutId: "g1", activityType: .yoga, startedAt: at("2026-11-13T20:00:00+01:00"), endedAt: at("2026-11-13T20:20:00+01:00"),
                distanceMeters: 0, movingSeconds: 660, source: WorkoutSource(kind: .healthkit, sourceId: "hk-1"))), context: when(Self.now))
            let streaks = try await logbook.streaks(user: "u1")
            #expect(streaks == Streaks(asOf: day("2026-11-13"), current: 3, longest: 3))
            // Changing the default later does not rewrite these days.
            try await logbook.execute(.setDefaultGoal(user: "u1", GoalDefaultSet(steps: 20_000)), context: when("2026-11-20T07:00:00+01:00"))
            let again = try await logbook.goalWeek(user: "u1", containing: day("2026-11-12"))
            #expect(again.days.map(\.goal.steps) == week.days.map(\.goal.steps))
        }
    }
}
