import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Every rule of the DomainRules article refuses what it must, with a typed error naming it, and
/// writes nothing.
@Suite("Command rules")
struct RulesTests {
    static let now = "2026-11-20T08:00:00+01:00"

    /// Registers u1 (Berlin) and adds two places.
    func setUp(_ logbook: Logbook) async throws {
        try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(Self.now))
        try await logbook.execute(.addPlace(PlaceAdded(placeId: "p1", name: "Café", category: .restaurant, subcategory: "café", latitude: 52.5, longitude: 13.4)), context: when(Self.now))
    }

    /// Expects `command` to break `rule` and leave the log as it was.
    func expectRefused(_ logbook: Logbook, _ command: Command, _ rule: DomainRule, now: String = now) async throws {
        let head = try await logbook.log.headPosition()
        do {
            try await logbook.execute(command, context: when(now))
            Issue.record("\(command) was accepted; expected \(rule.rawValue)")
        } catch let error as LogbookError where error.code == .ruleViolation {
            let (broken, message) = (error.rule, error.message)
            #expect(broken == rule, "\(message)")
            #expect(!message.isEmpty)
        }
        #expect(try await logbook.log.headPosition() == head, "a refused command wrote something")
    }

    @Test("users register once, in a real time zone")
    func registration() async throws {
        try await withLogbook { logbook, _ in
            try await setUp(logbook)
            try await expectRefused(logbook, .registerUser(user: "u1", UserRegistered(displayName: "Again", timeZone: "UTC")), .userAlreadyRegistered)
            try await expectRefused(logbook, .registerUser(user: "u2", UserRegistered(displayName: "B", timeZone: "Mars/Olympus")), .invalidTimeZone)
            try await expectRefused(logbook, .recordSteps(user: "ghost", StepsRecorded(samples: [])), .userNotRegistered)
            try await expectRefused(logbook, .updateProfile(user: "u1", UserProfileUpdated(timeZone: "Not/AZone")), .invalidTimeZone)
        }
    }

    @Test("workout lifecycle: one active workout, no pause unless running, no finish unless running")
    func workoutLifecycle() async throws {
        try await withLogbook { logbook, _ in
            try await setUp(logbook)
            let start = WorkoutStarted(workoutId: "w1", activityType: .run, startedAt: at("2026-11-20T07:00:00+01:00"))
            try await logbook.execute(.startWorkout(user: "u1", start), context: when(Self.now))
            try await expectRefused(logbook, .startWorkout(user: "u1", WorkoutStarted(workoutId: "w2", activityType: .ride, startedAt: at("2026-11-20T07:30:00+01:00"))), .oneActiveWorkout)
            try await expectRefused(logbook, .startWorkout(user: "u1", start), .workoutExists)
            try await expectRefused(logbook, .resumeWorkout(user: "u1", workoutId: "w1", at: nil), .workoutLifecycle)
            try await logbook.execute(.pauseWorkout(user: "u1", workoutId: "w1", at: at("2026-11-20T07:10:00+01:00")), context: when(Self.now))
            try await expectRefused(logbook, .pauseWorkout(user: "u1", workoutId: "w1", at: nil), .workoutLifecycle)
            let finish = WorkoutFinished(workoutId: "w1", endedAt: at("2026-11-20T07:40:00+01:00"), distanceMeters: 5000, movingSeconds: 1500)
            try await expectRefused(logbook, .finishWorkout(user: "u1", finish), .workoutLifecycle)
            try await logbook.execute(.resumeWorkout(user: "u1", workoutId: "w1", at: at("2026-11-20T07:15:00+01:00")), context: when(Self.now))
            var early = finish
            early.endedAt = at("2026-11-20T06:59:00+01:00")
            try await expectRefused(logbook, .finishWorkout(user: "u1", early), .endsAfterStart)
            var negative = finish
            negative.distanceMeters = -1
            try await expectRefused(logbook, .finishWorkout(user: "u1", negative), .nonNegativeQuantity)
            try await logbook.execute(.finishWorkout(user: "u1", finish), context: when(Self.now))
            try await expectRefused(logbook, .discardWorkout(user: "u1", workoutId: "w1"), .workoutLifecycle)
            do {
                try await logbook.execute(.pauseWorkout(user: "u1", workoutId: "nope", at: nil), context: when(Self.now))
                Issue.record("an unknown workout was paused")
            } catch let error as LogbookError where error.code == .notFound {
                let (kind, id) = (error.kind, error.id)
                #expect(kind == "workout" && id == "nope")
            }
            // The next one may start now that w1 is finished.
            try await logbook.execute(.startWorkout(user: "u1", WorkoutStarted(workoutId: "w2", activityType: .ride, startedAt: at("2026-11-20T18:00:00+01:00"))), context: when(Self.now))
        }
    }

    @Test("imports need a source and answer the existing workout when repeated")
    func imports() async throws {
        try await withLogbook { logbook, _ in
            try await setUp(logbook)
            let imported = WorkoutImported(
                workoutId: "g1", activityType: .ride, startedAt: at("2026-11-19T17:00:00+01:00"), endedAt: at("2026-11-19T18:00:00+01:00"),
                distanceMeters: 25_000, movingSeconds: 3500, source: WorkoutSource(kind: .garmin, sourceId: "garmin-77"))
            let first = try await logbook.execute(.importWorkout(user: "u1", imported), context: when(Self.now))
            #expect(!first.alreadyApplied)
            var again = imported
            again.workoutId = "g1-copy"
            let second = try await logbook.execute(.importWorkout(user: "u1", again), context: when(Self.now))
            #expect(second.alreadyApplied)
            #expect(second.workoutId == "g1")
            var manual = imported
            manual.workoutId = "g2"
            manual.source = WorkoutSource(kind: .manual)
            try await expectRefused(logbook, .importWorkout(user: "u1", manual), .importNeedsSource)
            var backwards = imported
            backwards.workoutId = "g3"
            backwards.source = WorkoutSource(kind: .strava, sourceId: "s-1")
            backwards.endedAt = backwards.startedAt
            try await expectRefused(logbook, .importWorkout(user: "u1", backwards), .endsAfterStart)
            #expect(try await logbook.activities(user: "u1").activities.map(\.workoutId) == ["g1"])
        }
    }

    @Test("step samples: counts not negative, ends after starts")
    func steps() async throws {
        try await withLogbook { logbook, _ in
            try await setUp(logbook)
            let start = at("2026-11-20T09:00:00+01:00")
            let end = at("2026-11-20T09:01:00+01:00")
            try await expectRefused(logbook, .recordSteps(user: "u1", StepsRecorded(samples: [StepSample(start: start, end: end, count: -3, source: "phone")])), .nonNegativeQuantity)
            try await expectRefused(logbook, .recordSteps(user: "u1", StepsRecorded(samples: [StepSample(start: end, end: start, count: 3, source: "phone")])), .endsAfterStart)
            try await expectRefused(logbook, .recordSteps(user: "u1", StepsRecorded(samples: [])), .stepSampleInvalid)
        }
    }

    @Test("goals: 1 to 100,000 steps, at most 10 weeks ahead of the user's today")
    func goals() async throws {
        try await withLogbook { logbook, _ in
            try await setUp(logbook)
            try await expectRefused(logbook, .setGoal(user: "u1", GoalSet(date: day("2026-11-21"), steps: 0)), .goalStepsRange)
            try await expectRefused(logbook, .setGoal(user: "u1", GoalSet(date: day("2026-11-21"), steps: 100_001)), .goalStepsRange)
            try await expectRefused(logbook, .setDefaultGoal(user: "u1", GoalDefaultSet(steps: 5000, activeMinutes: 2000)), .goalMinutesRange)
            // Today in Berlin is 20 Nov: 29 Jan is 70 days ahead, 30 Jan 71.
            try await logbook.execute(.setGoal(user: "u1", GoalSet(date: day("2027-01-29"), steps: 12_000)), context: when(Self.now))
            try await expectRefused(logbook, .setGoal(user: "u1", GoalSet(date: day("2027-01-30"), steps: 12_000)), .goalHorizon)
            // At 20:00 UTC on 20 Nov it is already 21 Nov in Kiritimati (+14): the horizon is a day later there.
            try await logbook.execute(.registerUser(user: "k1", UserRegistered(displayName: "Kiri", timeZone: "Pacific/Kiritimati")), context: when(Self.now))
            try await logbook.execute(.setGoal(user: "k1", GoalSet(date: day("2027-01-30"), steps: 9000)), context: when("2026-11-20T20:00:00Z"))
            try await expectRefused(logbook, .setGoal(user: "k1", GoalSet(date: day("2027-01-31"), steps: 9000)), .goalHorizon, now: "2026-11-20T20:00:00Z")
        }
    }

    @Test("places: only catalog places can be swiped, visited or annotated; ids are unique")
    func places() async throws {
        try await withLogbook { logbook, _ in
            try await setUp(logbook)
            try await expectRefused(logbook, .swipePlace(user: "u1", PlaceSwiped(placeId: "nowhere", direction: .right)), .unknownPlace)
            try await expectRefused(logbook, .visitPlace(user: "u1", PlaceVisited(placeId: "nowhere", visitedAt: at(Self.now))), .unknownPlace)
            try await expectRefused(logbook, .editPlaceNotes(user: "u1", PlaceNotesEdited(placeId: "nowhere", notes: "x")), .unknownPlace)
            try await expectRefused(logbook, .addPlace(PlaceAdded(placeId: "p1", name: "Dup", category: .activity, subcategory: "gym", latitude: 0, longitude: 0)), .placeExists)
            try await expectRefused(logbook, .addPlace(PlaceAdded(placeId: "p9", name: "Far", category: .activity, subcategory: "gym", latitude: 91, longitude: 0)), .placeInvalid)
            try await expectRefused(logbook, .addPlace(PlaceAdded(placeId: "p9", name: "Dear", category: .activity, subcategory: "gym", latitude: 0, longitude: 0, priceLevel: 5)), .placeInvalid)
        }
    }

    @Test("a client event id makes a retried command safe")
    func idempotentRetry() async throws {
        try await withLogbook { logbook, _ in
            try await setUp(logbook)
            let id = UUID()
            let command = Command.startWorkout(user: "u1", WorkoutStarted(workoutId: "w9", activityType: .walk, startedAt: at("2026-11-20T07:00:00+01:00")))
            let first = try await logbook.execute(command, context: when(Self.now, id: id))
            let retry = try await logbook.execute(command, context: when(Self.now, id: id))
            #expect(retry.alreadyApplied)
            #expect(retry.firstPosition == first.firstPosition)
        }
    }

    @Test("re-sending 200 commands after 200 more writes to the same streams answers each original and writes nothing")
    func retriesAfterManyWrites() async throws {
        try await withLogbook { logbook, _ in
            try await setUp(logbook)
            func goal(_ index: Int) -> Command {
                .setGoal(user: "u1", GoalSet(date: day("2026-11-20").adding(days: index % 60), steps: 1_000 + index))
            }
            var originals: [(UUID, Command, CommandResult)] = []
            for index in 0..<200 {
                let id = UUID()
                originals.append((id, goal(index), try await logbook.execute(goal(index), context: when(Self.now, id: id))))
            }
            for index in 200..<400 { try await logbook.execute(goal(index), context: when(Self.now)) }
            let head = try await logbook.log.headPosition()
            for (id, command, original) in originals {
                let retry = try await logbook.execute(command, context: when(Self.now, id: id))
                #expect(retry.alreadyApplied)
                #expect(retry.firstPosition == original.firstPosition)
                #expect(retry.streamVersion == original.streamVersion)
            }
            #expect(try await logbook.log.headPosition() == head)
        }
    }

    @Test("an event id used in another stream is refused with a typed error naming where it lives, and writes nothing")
    func idReusedElsewhere() async throws {
        try await withLogbook { logbook, _ in
            try await setUp(logbook)
            try await logbook.execute(.registerUser(user: "u2", UserRegistered(displayName: "Bo", timeZone: "UTC")), context: when(Self.now))
            let id = UUID()
            let original = try await logbook.execute(.setGoal(user: "u1", GoalSet(date: day("2026-11-21"), steps: 5_000)), context: when(Self.now, id: id))
            let head = try await logbook.log.headPosition()
            do {
                try await logbook.execute(.setGoal(user: "u2", GoalSet(date: day("2026-11-21"), steps: 5_000)), context: when(Self.now, id: id))
                Issue.record("an id of u1's stream was accepted for u2's")
            } catch let error as LogbookError {
                #expect(error.logError?.code == .eventIdInUse, "\(error)")
                #expect(error.logError?.position?.rawValue == original.firstPosition)
                #expect(error.description.contains(id.uuidString.lowercased()) || error.description.contains(id.uuidString))
            }
            #expect(try await logbook.log.headPosition() == head)
        }
    }
}
