import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import Testing

/// Training as the Training article states it, through the real Logbook on LMDB: the rules of targets, plans
/// and heart-rate settings, and one hand-computed week (zones at max 190 / rest 50: bounds 120,
/// 134, 148, 162, 176 bpm) checked value for value.
@Suite("Training, as its article states it")
struct TrainingTests {
    static let user = "runner"
    static let now = "2026-11-20T12:00:00+01:00"
    static let today = day("2026-11-19")

    static func register(_ logbook: Logbook) async throws {
        try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: "R", timeZone: "Europe/Berlin")), context: when("2026-10-01T08:00:00+02:00"))
    }

    static func record(_ logbook: Logbook, _ event: DomainEvent, at time: String = now) async throws {
        try await logbook.execute(Command(user: user, event: event), context: when(time))
    }

    static func imported(_ id: String, _ type: ActivityType, start: String, distance: Int, moving: Int, average: Int? = nil) -> WorkoutImported {
        let started = at(start)
        let ended = Timestamp(microsecondsSinceEpoch: started.microsecondsSinceEpoch + Int64(moving + 60) * 1_000_000, utcOffsetSeconds: started.utcOffsetSeconds)
        return WorkoutImported(
            workoutId: id, activityType: type, startedAt: started, endedAt: ended, distanceMeters: distance,
            movingSeconds: moving, avgHeartRate: average, source: WorkoutSource(kind: .garmin, sourceId: id))
    }

    static func planned(_ id: String, _ date: String, _ type: ActivityType, _ kind: PlannedKind, distance: Int? = nil, duration: Int? = nil) -> DomainEvent {
        .planWorkoutPlanned(PlannedWorkout(plannedId: id, date: day(date), activityType: type, kind: kind, distanceMeters: distance, durationSeconds: duration))
    }

    /// The week of Mon 16 – Sun 22 Nov 2026 and an older run, as the suite's numbers assume.
    static func week(_ logbook: Logbook) async throws {
        try await register(logbook)
        try await logbook.execute(.updateProfile(user: user, UserProfileUpdated(maxHeartRate: .set(190), restingHeartRate: .set(50))), context: when(now))
        try await logbook.execute(.importWorkout(user: user, imported("w-old", .run, start: "2026-11-04T07:00:00+01:00", distance: 8_000, moving: 3_000, average: 140)), context: when(now))
        // 130 for 10 s (zone 1), 150 for 10 s (zone 3), 170 for 60 s capped at 30 (zone 4), 140 for 10 s (zone 2), the last point 0.
        try await logbook.execute(.importWorkout(
            user: user, imported("w-mon", .run, start: "2026-11-16T07:00:00+01:00", distance: 7_500, moving: 2_700),
            track: TrackSamples(points: 5, offsetMillis: [0, 10_000, 20_000, 80_000, 90_000], heartRate: [130, 150, 170, 140, 140])), context: when(now))
        try await logbook.execute(.importWorkout(user: user, imported("w-tue", .run, start: "2026-11-17T18:00:00+01:00", distance: 5_000, moving: 2_000, average: 155)), context: when(now))
        try await logbook.execute(.importWorkout(user: user, imported("w-thu", .walk, start: "2026-11-19T12:00:00+01:00", distance: 3_000, moving: 1_800)), context: when(now))
        try await record(logbook, planned("p-mon", "2026-11-16", .run, .easy, distance: 8_000))
        try await record(logbook, planned("p-tue", "2026-11-17", .run, .tempo, duration: 2_700))
        try await record(logbook, planned("p-wed", "2026-11-18", .ride, .easy, distance: 20_000))
        try await record(logbook, planned("p-sat", "2026-11-21", .run, .long, distance: 16_000))
        try await record(logbook, .targetSet(TargetSet(targetId: "t-berlin", name: "Berlin Marathon", activityType: .run, distanceMeters: 42_195,
                                                      raceDate: day("2027-09-26"), goalSeconds: 13_500)))
        try await record(logbook, .targetSet(TargetSet(targetId: "t-10k", name: "City 10K", activityType: .run, distanceMeters: 10_000, raceDate: day("2026-12-13"))))
    }

    @Test("a hand-computed week: statuses, zones, load, acute, chronic28, ACWR, compliance and the Riegel prediction")
    func handComputedWeek() async throws {
        try await withLogbook { logbook, _ in
            try await Self.week(logbook)
            let week = try await logbook.trainingWeek(user: Self.user, containing: day("2026-11-18"), today: Self.today)
            #expect(week.from == day("2026-11-16") && week.to == day("2026-11-22"))
            #expect(week.planned.map(\.plannedId) == ["p-mon", "p-tue", "p-wed", "p-sat"])
            #expect(week.planned.map(\.status) == [.completed, .partial, .missed, .upcoming])
            #expect(week.planned.map(\.workoutId) == ["w-mon", "w-tue", nil, nil])
            #expect(week.extra.map(\.workoutId) == ["w-thu"])
            #expect([week.plannedSessions, week.plannedDistanceMeters, week.plannedDurationSeconds] as [Int] == [4, 44_000, 2_700])
            #expect([week.doneSessions, week.doneDistanceMeters, week.doneMovingSeconds] as [Int] == [3, 15_500, 6_500])
            #expect([week.completed, week.partial, week.missed, week.upcoming] as [Int] == [1, 1, 1, 1])
            #expect(week.compliancePercent == 25)
            #expect(week.intensity.zones?.map(\.seconds) == [0, 10, 10, 2_010, 30, 0])
            #expect(week.intensity.zones?.map(\.fromBeatsPerMinute) == [0, 120, 134, 148, 162, 176])
            #expect(week.intensity.zones?.map(\.toBeatsPerMinute) == [119, 133, 147, 161, 175, nil])
            #expect(week.intensity.easySeconds == 20 && week.intensity.moderateSeconds == 2_010 && week.intensity.hardSeconds == 30)
            #expect(week.intensity.withoutHeartRateSeconds == 1_800 && week.intensity.estimated)
            // w-mon floor(180 / 60) = 3; w-tue floor(2000 × 3 / 60) = 100; w-old floor(3000 × 2 / 60) = 100.
            #expect(week.intensity.load == 103)
            #expect(week.load.date == day("2026-11-22") && week.load.acute == 103 && week.load.chronic28 == 203)
            #expect(week.load.acwr == 2.03)
            let target = try #require(week.target)
            #expect(target.target.targetId == "t-10k" && target.daysToRace == 24)
            // min over w-mon, w-tue, w-old of moving × (10000 / distance)^1.06: w-mon's 3663.
            #expect(target.predictedSeconds == 3_663 && target.predictedFrom == "w-mon")

            let targets = try await logbook.trainingTargets(user: Self.user, today: Self.today)
            #expect(targets.targets.map(\.targetId) == ["t-10k", "t-berlin"])
            #expect(targets.active?.target.targetId == "t-10k")
            let load = try await logbook.trainingLoad(user: Self.user, from: day("2026-11-16"), to: day("2026-11-22"))
            #expect(load.days.map { $0.load } == [3, 100, 0, 0, 0, 0, 0])
            #expect(load.days.last == week.load)
            let detail = try await logbook.activityDetail(user: Self.user, workoutId: "w-mon")
            #expect(detail.intensity?.zones?.map(\.seconds) == [0, 10, 10, 10, 30, 0] && detail.intensity?.load == 3)
        }
    }

    @Test("heart-rate settings changed later re-derive past weeks with no rebuild; without a maximum, zones and load are null")
    func settingsApplyToThePast() async throws {
        try await withLogbook { logbook, _ in
            try await Self.week(logbook)
            try await logbook.execute(.updateProfile(user: Self.user, UserProfileUpdated(restingHeartRate: .clear)), context: when(Self.now))
            // Max 190 alone: bounds 95, 114, 133, 152, 171. w-mon: 130 → 2, 150 → 3, 170 → 4, 140 → 3; w-tue 155 → 4.
            var week = try await logbook.trainingWeek(user: Self.user, containing: day("2026-11-18"), today: Self.today)
            #expect(week.intensity.zones?.map(\.seconds) == [0, 0, 10, 20, 2_030, 0])
            #expect(week.intensity.load == 3 + 133)
            try await logbook.execute(.updateProfile(user: Self.user, UserProfileUpdated(maxHeartRate: .clear)), context: when(Self.now))
            week = try await logbook.trainingWeek(user: Self.user, containing: day("2026-11-18"), today: Self.today)
            #expect(week.intensity.zones == nil && week.intensity.load == nil)
            #expect(week.load.load == nil && week.load.acute == nil && week.load.chronic28 == nil && week.load.acwr == nil)
            let json = String(decoding: try JSONEncoder().encode(week.load), as: UTF8.self)
            #expect(json.contains("\"acwr\":null") && json.contains("\"load\":null"), "null, not left out: \(json)")
        }
    }

    @Test("deleting or retyping a matched workout re-matches the plan")
    func rematching() async throws {
        try await withLogbook { logbook, _ in
            try await Self.week(logbook)
            try await logbook.execute(.deleteWorkout(user: Self.user, workoutId: "w-mon"), context: when(Self.now))
            var week = try await logbook.trainingWeek(user: Self.user, containing: day("2026-11-18"), today: Self.today)
            #expect(week.planned.map(\.status) == [.missed, .partial, .missed, .upcoming])
            try await logbook.execute(.editWorkout(user: Self.user, WorkoutEdited(workoutId: "w-tue", activityType: .ride)), context: when(Self.now))
            week = try await logbook.trainingWeek(user: Self.user, containing: day("2026-11-18"), today: Self.today)
            #expect(week.planned.map(\.status) == [.missed, .missed, .missed, .upcoming])
            #expect(week.extra.map(\.workoutId) == ["w-tue", "w-thu"])
            // Moving the ride's plan to its day makes the ride match it.
            try await logbook.execute(.changePlannedWorkout(user: Self.user, plannedId: "p-wed", PlannedWorkoutChanges(date: day("2026-11-17"), distanceMeters: .set(5_000))), context: when(Self.now))
            week = try await logbook.trainingWeek(user: Self.user, containing: day("2026-11-18"), today: Self.today)
            #expect(week.planned.map(\.plannedId) == ["p-tue", "p-wed", "p-sat"] || week.planned.map(\.plannedId) == ["p-mon", "p-tue", "p-wed", "p-sat"])
            #expect(week.planned.first { $0.plannedId == "p-wed" }?.status == .completed)
            #expect(try await logbook.verify().allSatisfy(\.matches))
        }
    }

    @Test("the same plans and workouts, arriving in any interleaving (plans in their own order), give the same weeks", arguments: [UInt64(1), 2, 3])
    func arrivalOrder(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        let types: [ActivityType] = [.run, .ride, .walk]
        var plans: [DomainEvent] = []
        var workouts: [Command] = []
        for index in 0..<12 {
            let date = day("2026-11-16").adding(days: number(0...6))
            let type = types[number(0...2)]
            plans.append(.planWorkoutPlanned(PlannedWorkout(
                plannedId: "p\(index)", date: date, activityType: type, kind: .easy,
                distanceMeters: number(0...1) == 0 ? 1_000 * number(3...10) : nil, durationSeconds: 60 * number(20...60))))
        }
        for index in 0..<10 {
            let start = "2026-11-\(16 + number(0...6))T\(10 + number(0...9)):\(10 + number(0...49)):00+01:00"
            workouts.append(.importWorkout(user: Self.user, Self.imported(
                "w\(index)", types[number(0...2)], start: start, distance: 1_000 * number(2...12), moving: 60 * number(15...70), average: number(120...170))))
        }
        var answers: [TrainingWeek] = []
        for _ in 0..<2 {
            // A random interleaving: workouts in any order, plans in theirs.
            var pending = workouts.shuffled(using: &random).map { Either.workout($0) }
            for plan in plans { pending.insert(.plan(plan), at: number(0...pending.count)) }
            var planIndex = 0
            pending = pending.map { item in
                guard case .plan = item else { return item }
                defer { planIndex += 1 }
                return .plan(plans[planIndex])
            }
            let week = try await withLogbook { logbook, _ in
                try await Self.register(logbook)
                try await logbook.execute(.updateProfile(user: Self.user, UserProfileUpdated(maxHeartRate: .set(190))), context: when(Self.now))
                for item in pending {
                    switch item {
                    case .workout(let command): try await logbook.execute(command, context: when(Self.now))
                    case .plan(let event): try await Self.record(logbook, event)
                    }
                }
                #expect(try await logbook.verify().allSatisfy(\.matches))
                return try await logbook.trainingWeek(user: Self.user, containing: day("2026-11-18"), today: Self.today)
            }
            answers.append(week)
        }
        #expect(answers[0] == answers[1])
        #expect(answers[0].planned.count == 12 && answers[0].doneSessions == 10)
    }

    enum Either { case workout(Command), plan(DomainEvent) }

    @Test("a generated plan is appended whole, ends with the race, replaces the earlier plan's future workouts, and a retry answers the whole append")
    func generatedPlan() async throws {
        try await withLogbook { logbook, _ in
            try await Self.week(logbook)
            let eventId = UUID()
            let request = TrainingPlanRequest(targetId: "t-10k", startDate: day("2026-11-23"), daysPerWeek: 4)
            let first = try await logbook.execute(.generatePlan(user: Self.user, request), context: when(Self.now, id: eventId))
            var plan = try await logbook.trainingPlan(user: Self.user, from: day("2026-11-23"), to: day("2026-12-13"), today: Self.today)
            let generated = plan.planned.filter { $0.plannedId.hasPrefix("gen-") }
            #expect(Int(first.lastPosition - first.firstPosition) + 1 == generated.count)
            #expect(generated.last?.kind == .race && generated.last?.date == day("2026-12-13") && generated.last?.distanceMeters == 10_000)
            #expect(Set(generated.map(\.date)).count == generated.count, "one session a day")
            #expect(generated.allSatisfy { $0.date >= day("2026-11-23") && $0.activityType == .run })
            // A retry with the same event id writes nothing and answers the whole original append.
            let retry = try await logbook.execute(.generatePlan(user: Self.user, request), context: when(Self.now, id: eventId))
            #expect(retry.alreadyApplied && retry.firstPosition == first.firstPosition && retry.lastPosition == first.lastPosition)
            // Generating again (three days a week) removes the first plan's future workouts in the same append.
            let again = try await logbook.execute(
                .generatePlan(user: Self.user, TrainingPlanRequest(targetId: "t-10k", startDate: day("2026-11-23"), daysPerWeek: 3)), context: when(Self.now))
            plan = try await logbook.trainingPlan(user: Self.user, from: day("2026-11-20"), to: day("2026-12-13"), today: Self.today)
            let replaced = plan.planned.filter { $0.plannedId.hasPrefix("gen-") }
            #expect(Int(again.lastPosition - again.firstPosition) + 1 == generated.count + replaced.count)
            #expect(replaced.count < generated.count && replaced.last?.kind == .race)
            #expect(plan.planned.contains { $0.plannedId == "p-sat" }, "planned workouts not generated stay")
            await #expect { try await logbook.execute(.generatePlan(user: Self.user, TrainingPlanRequest(targetId: "nope", daysPerWeek: 4)), context: when(Self.now)) }
                throws: { ($0 as? LogbookError)?.code == .notFound }
            await #expect { try await logbook.execute(Command(user: Self.user, event: Self.planned("gen-x", "2026-11-30", .run, .easy, distance: 5_000)), context: when(Self.now)) }
                throws: { ($0 as? LogbookError)?.rule == .planInvalid }
            #expect(try await logbook.verify().allSatisfy(\.matches))
        }
    }

    @Test("the rules: race dates, plan horizon, a distance or a duration, unknown ids, heart-rate ranges; nothing is written")
    func rules() async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            func refused(_ rule: DomainRule, _ command: Command) async throws {
                let head = try await logbook.log.headPosition()
                await #expect(throws: LogbookError.self) { try await logbook.execute(command, context: when(Self.now)) }
                do { try await logbook.execute(command, context: when(Self.now)) } catch let error as LogbookError {
                    #expect(error.rule == rule, "\(error)")
                }
                #expect(try await logbook.log.headPosition() == head)
            }
            func target(_ date: String) -> Command {
                Command(user: Self.user, event: .targetSet(TargetSet(targetId: "t", name: "Race", activityType: .run, distanceMeters: 10_000, raceDate: day(date))))
            }
            try await refused(.targetInvalid, target("2026-11-20"))
            try await refused(.targetInvalid, target("2028-11-21"))
            try await logbook.execute(target("2028-11-19"), context: when(Self.now))
            try await refused(.planInvalid, Command(user: Self.user, event: Self.planned("p", "2027-05-22", .run, .easy, distance: 5_000)))
            try await refused(.planInvalid, Command(user: Self.user, event: Self.planned("p", "2026-11-21", .run, .easy)))
            try await logbook.execute(Command(user: Self.user, event: Self.planned("p", "2027-05-21", .run, .easy, distance: 5_000)), context: when(Self.now))
            try await logbook.execute(Command(user: Self.user, event: Self.planned("past", "2026-01-05", .run, .easy, duration: 1_800)), context: when(Self.now))
            try await refused(.planInvalid, Command(user: Self.user, event: Self.planned("p", "2026-11-21", .run, .easy, distance: 5_000)))
            try await refused(.heartRateInvalid, .updateProfile(user: Self.user, UserProfileUpdated(maxHeartRate: .set(99))))
            try await refused(.heartRateInvalid, .updateProfile(user: Self.user, UserProfileUpdated(maxHeartRate: .set(150), restingHeartRate: .set(150))))
            try await refused(.heartRateInvalid, .updateProfile(user: Self.user, UserProfileUpdated(restingHeartRate: .set(121))))
            for command in [
                Command(user: Self.user, event: .targetCleared(TargetCleared(targetId: "nope"))),
                Command(user: Self.user, event: .planWorkoutRemoved(PlannedWorkoutReference(plannedId: "nope"))),
                Command.changePlannedWorkout(user: Self.user, plannedId: "nope", PlannedWorkoutChanges(kind: .long)),
            ] {
                await #expect { try await logbook.execute(command, context: when(Self.now)) } throws: { ($0 as? LogbookError)?.code == .notFound }
            }
        }
    }

    @Test("timeline lines for targets, plans and heart-rate settings")
    func timelineLines() async throws {
        try await withLogbook { logbook, _ in
            try await Self.week(logbook)
            try await logbook.execute(.updateProfile(user: Self.user, UserProfileUpdated(maxHeartRate: .set(188))), context: when(Self.now))
            try await logbook.execute(.changePlannedWorkout(user: Self.user, plannedId: "p-sat", PlannedWorkoutChanges(distanceMeters: .set(18_000))), context: when(Self.now))
            try await Self.record(logbook, .planWorkoutRemoved(PlannedWorkoutReference(plannedId: "p-wed")))
            try await Self.record(logbook, .targetCleared(TargetCleared(targetId: "t-10k")))
            let lines = try await logbook.timeline(user: Self.user, limit: 500).entries.map(\.description)
            for line in [
                "Max heart rate set to 190; resting heart rate set to 50",
                "Target set: Berlin Marathon, 42.2 km on Sun 26 Sep 2027, goal 3:45:00",
                "Planned Mon 16 Nov: easy run 8 km",
                "Planned Tue 17 Nov: tempo run 45:00",
                "Max heart rate set to 188, was 190",
                "Plan changed: Sat 21 Nov: long run 18 km, was Sat 21 Nov: long run 16 km",
                "Removed from the plan: Wed 18 Nov: easy ride 20 km",
                "Target cleared: City 10K",
            ] {
                #expect(lines.contains(line), "missing \"\(line)\" in \(lines)")
            }
        }
    }
}
