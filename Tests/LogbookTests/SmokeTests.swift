import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

@Suite("Logbook end to end")
struct SmokeTests {
    @Test("commands flow into every read model")
    func endToEnd() async throws {
        try await withLogbook { logbook, _ in
            let now = "2026-11-20T08:00:00+01:00"
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(now))
            try await logbook.execute(.startWorkout(user: "u1", WorkoutStarted(workoutId: "w1", activityType: .run, startedAt: at("2026-11-20T07:00:00+01:00"))), context: when(now))
            try await logbook.execute(.finishWorkout(user: "u1", WorkoutFinished(workoutId: "w1", endedAt: at("2026-11-20T07:45:00+01:00"), distanceMeters: 8012, movingSeconds: 2710)), context: when(now))
            try await logbook.execute(.recordSteps(user: "u1", StepsRecorded(samples: [
                StepSample(start: at("2026-11-20T09:00:00+01:00"), end: at("2026-11-20T09:01:00+01:00"), count: 120, source: "phone"),
            ])), context: when(now))
            try await logbook.execute(.setGoal(user: "u1", GoalSet(date: day("2026-11-21"), steps: 12_000)), context: when(now))
            let week = try await logbook.weeklyStats(user: "u1", containing: day("2026-11-20"))
            #expect(week.from == day("2026-11-16"))
            #expect(week.totals.distanceMeters == 8012)
            #expect(week.steps == 120)
            let goals = try await logbook.goalWeek(user: "u1", containing: day("2026-11-20"))
            #expect(goals.days.map(\.goal.steps) == [10_000, 10_000, 10_000, 10_000, 10_000, 12_000, 10_000])
            let timeline = try await logbook.timeline(user: "u1")
            #expect(timeline.entries.count == 5)
            #expect(timeline.entries.first?.description == "Step goal for Sat 21 Nov set to 12,000, was 10,000")
            let activities = try await logbook.activities(user: "u1")
            #expect(activities.activities.map(\.workoutId) == ["w1"])
            let digests = try logbook.digests()
            let verify = try await logbook.verify()
            #expect(verify.allSatisfy { $0.matches }, "\(verify)")
            #expect(digests.count == ReadModelKind.allCases.count, "a digest for every read model the registry holds")
        }
    }
}
