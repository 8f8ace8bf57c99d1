import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import Testing

/// Each rule of the DomainRules article judged without a disk: the decider over read models folded
/// in memory from a few events (the integration tests in `RulesTests` check the same rules end to
/// end).
@Suite("Command rules, decided in memory")
struct RuleUnitTests {
    static let now = "2026-11-20T08:00:00+01:00"

    /// A history, as the read models see it: events for users, folded in memory.
    struct History {
        private var projections = ReadModelSet.inMemory()
        private var position: UInt64 = 0

        /// u1 registered in Berlin, a catalog with place p1.
        static var standard: History {
            var history = History()
            history.add(.userRegistered(UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), user: "u1")
            history.add(.placeAdded(PlaceAdded(placeId: "p1", name: "Café", category: .restaurant, subcategory: "café", latitude: 52.5, longitude: 13.4)), user: nil)
            return history
        }

        mutating func add(_ event: DomainEvent, user: String?, at time: String = RuleUnitTests.now) {
            position += 1
            let header = EventHeader(eventId: UUID(), type: event.type.rawValue, schemaVersion: event.type.currentSchemaVersion,
                                     subject: user, occurredAt: at(time))
            let envelope = EventEnvelope(position: Position(position), stream: event.stream(user: user ?? ""), streamVersion: 0,
                                         recordedAt: at(time), header: header)
            do {
                try projections.apply(FoldEvent(position: position, envelope: envelope, event: event), nil)
            } catch {
                preconditionFailure("an in-memory fold failed: \(error)")
            }
        }

        /// Decides `command` at `now` against this history.
        func decide(_ command: Command, now: String = RuleUnitTests.now) -> Result<Decision, LogbookError> {
            var decider = Decider(state: ReadModelState(projections: projections, txn: nil), now: at(now))
            return Result { () throws(LogbookError) in try decider.decide(command) }
        }
    }

    /// One refusal: a history, a command, and the rule it breaks.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let rule: DomainRule
        let note: String
        let history: @Sendable () -> History
        let command: Command
        var now = RuleUnitTests.now
        var testDescription: String { "\(rule.rawValue): \(note)" }
    }

    static let start = WorkoutStarted(workoutId: "w1", activityType: .run, startedAt: at("2026-11-20T07:00:00+01:00"))
    static let finish = WorkoutFinished(workoutId: "w1", endedAt: at("2026-11-20T07:40:00+01:00"), distanceMeters: 5000, movingSeconds: 1500)
    static let imported = WorkoutImported(
        workoutId: "g1", activityType: .ride, startedAt: at("2026-11-19T09:00:00+01:00"), endedAt: at("2026-11-19T10:00:00+01:00"),
        distanceMeters: 30_000, movingSeconds: 3500, source: WorkoutSource(kind: .garmin, sourceId: "77"))

    /// u1 with w1 running.
    static func running() -> History {
        var history = History.standard
        history.add(.workoutStarted(start), user: "u1")
        return history
    }

    static func sample(_ count: Int, _ start: String = "2026-11-20T07:00:00+01:00", _ end: String = "2026-11-20T07:01:00+01:00") -> StepSample {
        StepSample(start: at(start), end: at(end), count: count, source: "phone")
    }

    static let refusals: [Refusal] = [
        Refusal(rule: .userAlreadyRegistered, note: "twice", history: { .standard },
                command: .registerUser(user: "u1", UserRegistered(displayName: "Again", timeZone: "UTC"))),
        Refusal(rule: .userNotRegistered, note: "steps of a stranger", history: { .standard },
                command: .recordSteps(user: "ghost", StepsRecorded(samples: [sample(10)]))),
        Refusal(rule: .invalidTimeZone, note: "a zone that does not exist", history: { .standard },
                command: .registerUser(user: "u2", UserRegistered(displayName: "B", timeZone: "Mars/Olympus"))),
        Refusal(rule: .workoutLifecycle, note: "resume a running workout", history: { running() },
                command: .resumeWorkout(user: "u1", workoutId: "w1", at: nil)),
        Refusal(rule: .workoutLifecycle, note: "a live workout from garmin", history: { .standard },
                command: .startWorkout(user: "u1", WorkoutStarted(workoutId: "w9", activityType: .run, startedAt: at("2026-11-20T07:00:00+01:00"), source: .init(kind: .garmin)))),
        Refusal(rule: .oneActiveWorkout, note: "a second one while w1 runs", history: { running() },
                command: .startWorkout(user: "u1", WorkoutStarted(workoutId: "w2", activityType: .ride, startedAt: at("2026-11-20T07:30:00+01:00")))),
        Refusal(rule: .workoutExists, note: "an import reusing a workout id", history: { running() },
                command: .importWorkout(user: "u1", WorkoutImported(
                    workoutId: "w1", activityType: .ride, startedAt: at("2026-11-19T09:00:00+01:00"), endedAt: at("2026-11-19T10:00:00+01:00"),
                    distanceMeters: 1, movingSeconds: 1, source: WorkoutSource(kind: .garmin, sourceId: "new")))),
        Refusal(rule: .nonNegativeQuantity, note: "a negative distance", history: { running() },
                command: .finishWorkout(user: "u1", WorkoutFinished(workoutId: "w1", endedAt: at("2026-11-20T07:40:00+01:00"), distanceMeters: -1, movingSeconds: 1500))),
        Refusal(rule: .quantityTooLarge, note: "a distance no sum can hold twice (a trap once, when two landed on one day)", history: { .standard },
                command: .importWorkout(user: "u1", WorkoutImported(
                    workoutId: "g3", activityType: .ride, startedAt: at("2026-11-19T09:00:00+01:00"), endedAt: at("2026-11-19T10:00:00+01:00"),
                    distanceMeters: Int.max / 2 + 1, movingSeconds: 1, source: WorkoutSource(kind: .garmin, sourceId: "g3")))),
        Refusal(rule: .quantityTooLarge, note: "a lap's heart rate over 300", history: { running() },
                command: .finishWorkout(user: "u1", WorkoutFinished(
                    workoutId: "w1", endedAt: at("2026-11-20T07:40:00+01:00"), distanceMeters: 5000, movingSeconds: 1500,
                    laps: [Lap(distanceMeters: 5000, movingSeconds: 1500, avgHeartRate: 301)]))),
        Refusal(rule: .endsAfterStart, note: "finished before it started", history: { running() },
                command: .finishWorkout(user: "u1", WorkoutFinished(workoutId: "w1", endedAt: at("2026-11-20T06:59:00+01:00"), distanceMeters: 1, movingSeconds: 1))),
        Refusal(rule: .importNeedsSource, note: "an import without a source id", history: { .standard },
                command: .importWorkout(user: "u1", WorkoutImported(
                    workoutId: "g2", activityType: .ride, startedAt: at("2026-11-19T09:00:00+01:00"), endedAt: at("2026-11-19T10:00:00+01:00"),
                    distanceMeters: 1, movingSeconds: 1, source: WorkoutSource(kind: .garmin)))),
        Refusal(rule: .stepSampleInvalid, note: "an empty batch", history: { .standard },
                command: .recordSteps(user: "u1", StepsRecorded(samples: []))),
        Refusal(rule: .stepSampleInvalid, note: "an impossible count", history: { .standard },
                command: .recordSteps(user: "u1", StepsRecorded(samples: [sample(100_001)]))),
        Refusal(rule: .goalStepsRange, note: "zero steps", history: { .standard },
                command: .setGoal(user: "u1", GoalSet(date: day("2026-11-25"), steps: 0))),
        Refusal(rule: .goalMinutesRange, note: "more minutes than a day has", history: { .standard },
                command: .setDefaultGoal(user: "u1", GoalDefaultSet(steps: 8000, activeMinutes: 1441))),
        Refusal(rule: .goalHorizon, note: "71 days ahead of the user's today", history: { .standard },
                command: .setGoal(user: "u1", GoalSet(date: day("2027-01-30"), steps: 8000))),
        Refusal(rule: .unknownPlace, note: "a swipe on a place not in the catalog", history: { .standard },
                command: .swipePlace(user: "u1", PlaceSwiped(placeId: "nowhere", direction: .right))),
        Refusal(rule: .placeExists, note: "the same place twice", history: { .standard },
                command: .addPlace(PlaceAdded(placeId: "p1", name: "Again", category: .activity, subcategory: "park", latitude: 1, longitude: 1))),
        Refusal(rule: .placeInvalid, note: "a latitude off the globe", history: { .standard },
                command: .addPlace(PlaceAdded(placeId: "p2", name: "North", category: .activity, subcategory: "park", latitude: 91, longitude: 1))),
        Refusal(rule: .textTooLong, note: "a 201-character title", history: { .standard },
                command: .importWorkout(user: "u1", WorkoutImported(
                    workoutId: "g3", activityType: .ride, startedAt: at("2026-11-19T09:00:00+01:00"), endedAt: at("2026-11-19T10:00:00+01:00"),
                    distanceMeters: 1, movingSeconds: 1, source: WorkoutSource(kind: .garmin, sourceId: "t"), title: String(repeating: "x", count: 201)))),
        Refusal(rule: .trackInvalid, note: "a track whose times go backwards", history: { .standard },
                command: .importWorkout(user: "u1", WorkoutImported(
                    workoutId: "g4", activityType: .run, startedAt: at("2026-11-19T09:00:00+01:00"), endedAt: at("2026-11-19T10:00:00+01:00"),
                    distanceMeters: 1, movingSeconds: 1, source: WorkoutSource(kind: .file, sourceId: "gpx-1")),
                    track: TrackSamples(points: 2, offsetMillis: [1000, 0]))),
        Refusal(rule: .trackInvalid, note: "a heart-rate column shorter than the track", history: { .standard },
                command: .importWorkout(user: "u1", WorkoutImported(
                    workoutId: "g5", activityType: .run, startedAt: at("2026-11-19T09:00:00+01:00"), endedAt: at("2026-11-19T10:00:00+01:00"),
                    distanceMeters: 1, movingSeconds: 1, source: WorkoutSource(kind: .file, sourceId: "gpx-2")),
                    track: TrackSamples(points: 2, offsetMillis: [0, 1000], heartRate: [120]))),
        Refusal(rule: .trackInvalid, note: "a latitude off the globe", history: { .standard },
                command: .importWorkout(user: "u1", WorkoutImported(
                    workoutId: "g6", activityType: .run, startedAt: at("2026-11-19T09:00:00+01:00"), endedAt: at("2026-11-19T10:00:00+01:00"),
                    distanceMeters: 1, movingSeconds: 1, source: WorkoutSource(kind: .file, sourceId: "gpx-3")),
                    track: TrackSamples(points: 1, latitudeE7: [910_000_000], longitudeE7: [0]))),
        // Training (the Training article): u1's today is Fri 20 Nov 2026 in Berlin.
        Refusal(rule: .targetInvalid, note: "a race on the user's today", history: { .standard },
                command: Command(user: "u1", event: .targetSet(TargetSet(
                    targetId: "t", name: "Race", activityType: .run, distanceMeters: 10_000, raceDate: day("2026-11-20"))))),
        Refusal(rule: .targetInvalid, note: "a race more than two years ahead", history: { .standard },
                command: Command(user: "u1", event: .targetSet(TargetSet(
                    targetId: "t", name: "Race", activityType: .run, distanceMeters: 10_000, raceDate: day("2028-11-20"))))),
        Refusal(rule: .planInvalid, note: "a workout planned 183 days ahead", history: { .standard },
                command: Command(user: "u1", event: .planWorkoutPlanned(PlannedWorkout(
                    plannedId: "p", date: day("2027-05-22"), activityType: .run, kind: .easy, distanceMeters: 5_000)))),
        Refusal(rule: .planInvalid, note: "a planned workout with neither distance nor duration", history: { .standard },
                command: Command(user: "u1", event: .planWorkoutPlanned(PlannedWorkout(
                    plannedId: "p", date: day("2026-11-21"), activityType: .run, kind: .easy)))),
        Refusal(rule: .heartRateInvalid, note: "a resting rate not below the maximum", history: { .standard },
                command: .updateProfile(user: "u1", UserProfileUpdated(maxHeartRate: .set(120), restingHeartRate: .set(120)))),
    ]

    @Test("each rule refuses what it must, naming itself", arguments: refusals)
    func refusal(_ case: Refusal) {
        let outcome = `case`.history().decide(`case`.command, now: `case`.now)
        guard case .failure(let error) = outcome else {
            Issue.record("accepted; expected \(`case`.rule.rawValue)")
            return
        }
        #expect(error.code == .ruleViolation, "\(error)")
        #expect(error.rule == `case`.rule, "\(error)")
        #expect(!error.message.isEmpty)
    }

    @Test("every domain rule has a unit test above")
    func everyRuleIsCovered() {
        let covered = Set(Self.refusals.map(\.rule))
        // user_erased is judged by the key store before the decider runs: ErasureTests refuses commands and imports with it.
        let missing = DomainRule.allCases.filter { !covered.contains($0) && $0 != .userErased }
        #expect(missing.isEmpty, "no unit test for \(missing.map(\.rawValue))")
    }

    @Test("the goal horizon is 70 days in the user's own time zone, across the date line")
    func goalHorizonInTheUsersZone() {
        var history = History()
        history.add(.userRegistered(UserRegistered(displayName: "K", timeZone: "Pacific/Kiritimati")), user: "k")
        // 2026-11-20T08:00+01:00 is already 2026-11-20T21:00 in Kiritimati (UTC+14): today is the 20th there.
        #expect((try? history.decide(.setGoal(user: "k", GoalSet(date: day("2027-01-29"), steps: 8000))).get()) != nil)
        // 10:30 UTC is 00:30 on the 21st in Kiritimati: the horizon moves a day.
        #expect((try? history.decide(.setGoal(user: "k", GoalSet(date: day("2027-01-30"), steps: 8000)), now: "2026-11-20T10:30:00Z").get()) != nil)
        #expect((try? history.decide(.setGoal(user: "k", GoalSet(date: day("2027-01-30"), steps: 8000))).get()) == nil)
    }

    @Test("accepted commands decide the events, times and workout they should")
    func acceptedDecisions() throws {
        var history = Self.running()
        let finished = try history.decide(.finishWorkout(user: "u1", Self.finish)).get()
        #expect(finished.events.map { $0.0 } == [.workoutFinished(Self.finish)])
        #expect(finished.events.first?.occurredAt == Self.finish.endedAt)
        #expect(finished.workoutId == "w1")
        let paused = try history.decide(.pauseWorkout(user: "u1", workoutId: "w1", at: nil)).get()
        // Without its own time, a pause happens now, written in the workout's offset.
        #expect(paused.events.first?.occurredAt == at("2026-11-20T08:00:00+01:00"))
        history.add(.workoutImported(Self.imported), user: "u1")
        let again = try history.decide(.importWorkout(user: "u1", WorkoutImported(
            workoutId: "other-id", activityType: .ride, startedAt: Self.imported.startedAt, endedAt: Self.imported.endedAt,
            distanceMeters: 1, movingSeconds: 1, source: Self.imported.source))).get()
        #expect(again.events.isEmpty, "a repeated import writes nothing")
        #expect(again.existingWorkout == "g1")
    }

    @Test("arguments and ownership: malformed ids are invalid, another user's workout does not exist")
    func argumentsAndOwnership() {
        var history = Self.running()
        history.add(.userRegistered(UserRegistered(displayName: "Bo", timeZone: "UTC")), user: "u2")
        guard case .failure(let spaced) = history.decide(.registerUser(user: "u 3", UserRegistered(displayName: "C", timeZone: "UTC"))) else {
            Issue.record("an id with a space was accepted")
            return
        }
        #expect(spaced.code == .invalidArgument && spaced.field == "user")
        guard case .failure(let foreign) = history.decide(.pauseWorkout(user: "u2", workoutId: "w1", at: nil)) else {
            Issue.record("u2 paused u1's workout")
            return
        }
        #expect(foreign == .notFound(kind: "workout", id: "w1"))
    }
}
