import Logbook
import EventLog
import Foundation

/// One generated user: their settings, and the commands of each of their days.
struct DemoUser {
    /// A command at a moment, from a user.
    struct Planned {
        var at: Timestamp
        var user: Int
        var sequence: Int
        var command: Command
        var eventId: UUID
    }

    let index: Int
    let id: String
    let zone: TimeZone
    var random: SplitMix64
    let samplesPerCommand: Int
    let hasWatch: Bool
    private var sequence = 0
    private var workouts = 0
    private var finished: [String] = []
    private var deckIndex = 0
    private var saved: [String] = []
    private var preferredSource = false
    private var day = CivilDate(daysSinceEpoch: 0)
    private var planned: [Planned] = []
    /// Every third user trains for a race (the Training article): heart-rate settings, a target, a weekly
    /// plan and heart-rate tracks. Their training draws from a generator of its own, so the rest of
    /// every user's history is what it was before training existed.
    let trains: Bool
    private var training: SplitMix64
    private var plannedIds: [String] = []
    /// The planned runs not yet due: their ids, days and distances.
    private var upcomingRuns: [(id: String, date: CivilDate, distance: Int)] = []
    /// The trainee's target and race day, and whether they follow a generated plan now.
    private var target = ""
    private var raceDate = CivilDate(daysSinceEpoch: 0)
    private var generated = false

    init(index: Int, zone: TimeZone, seed: UInt64, generator: DemoDataGenerator) {
        self.index = index
        self.id = DemoDataGenerator.userId(index)
        self.zone = zone
        self.random = SplitMix64(seed: seed)
        self.samplesPerCommand = generator.samplesPerStepsCommand
        self.hasWatch = index % 5 < 2
        self.trains = index % 3 == 1
        self.training = SplitMix64(seed: seed ^ 0x7EA1_2026)
    }

    /// The local wall time `minute` (of the day) of `day` in `zone`, with the offset in force then.
    static func instant(of day: CivilDate, minute: Int, second: Int = 0, in zone: TimeZone) throws -> Timestamp {
        let local = Int64(day.daysSinceEpoch) * 86_400 + Int64(minute * 60 + second)
        var offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local))))
        offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local - offset))))
        return Timestamp(microsecondsSinceEpoch: (local - offset) * 1_000_000, utcOffsetSeconds: Int32(offset))
    }

    private mutating func chance(_ probability: Double) -> Bool { Double(random.next() % 1_000_000) < probability * 1_000_000 }
    private mutating func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }

    private mutating func add(_ minute: Int, second: Int = 0, _ command: Command) throws {
        sequence += 1
        let at = try Self.instant(of: day, minute: minute, second: second, in: zone)
        planned.append(Planned(at: at, user: index, sequence: sequence, command: command, eventId: random.timeOrderedUUID(at: at.instant)))
    }

    /// A training command: its event id from the training generator.
    private mutating func addTraining(_ minute: Int, second: Int = 0, _ command: Command) throws {
        sequence += 1
        let at = try Self.instant(of: day, minute: minute, second: second, in: zone)
        planned.append(Planned(at: at, user: index, sequence: sequence, command: command, eventId: training.timeOrderedUUID(at: at.instant)))
    }

    private mutating func trainingNumber(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(training.next() % UInt64(range.count)) }

    /// The user's commands on `day`.
    mutating func plan(day: CivilDate, dayIndex: Int) throws -> [Planned] {
        self.day = day
        planned = []
        if dayIndex == 0 {
            try add(6 * 60 + 30, .registerUser(user: id, UserRegistered(
                displayName: "Demo user \(index + 1)", timeZone: zone.identifier, weekStart: index % 3 == 0 ? .sunday : .monday,
                units: index % 4 == 0 ? .imperial : .metric)))
            try add(6 * 60 + 31, .setDefaultGoal(user: id, GoalDefaultSet(steps: 500 * number(12...24))))
        }
        if dayIndex == 21, chance(0.3) {
            preferredSource = true
            try add(12 * 60, .updateProfile(user: id, UserProfileUpdated(preferredStepSource: .set(hasWatch ? "watch" : "phone"))))
        }
        if dayIndex == 56, preferredSource, chance(0.5) {
            try add(12 * 60, .updateProfile(user: id, UserProfileUpdated(preferredStepSource: .clear)))
        }
        if dayIndex == 35, chance(0.25) {
            try add(6 * 60 + 40, .setDefaultGoal(user: id, GoalDefaultSet(steps: 500 * number(14...26), activeMinutes: chance(0.5) ? 30 : nil)))
        }
        if day.isoWeekday == 1 { try planGoals(weekIndex: dayIndex / 7) }
        if trains { try planTraining(dayIndex: dayIndex) }
        try planSteps()
        if chance(0.55) { try planWorkout() }
        if !finished.isEmpty, chance(0.03) {
            let workout = finished.remove(at: number(0...(finished.count - 1)))
            try add(21 * 60, .deleteWorkout(user: id, workoutId: workout))
        }
        if !finished.isEmpty, chance(0.05) {
            let workout = finished[number(0...(finished.count - 1))]
            try add(21 * 60 + 30, .editWorkout(user: id, WorkoutEdited(
                workoutId: workout, title: "Session \(number(1...99))", notes: chance(0.5) ? "felt strong" : nil,
                activityType: chance(0.3) ? .walk : nil)))
        }
        try planPlaces(dayIndex: dayIndex)
        return planned
    }

    private mutating func planGoals(weekIndex: Int) throws {
        for _ in 0..<2 {
            try add(7 * 60 + 10, .setGoal(user: id, GoalSet(
                date: day.adding(days: number(0...69)), steps: 500 * number(10...30), activeMinutes: chance(0.2) ? 30 : nil)))
        }
        // One at exactly the 10-week horizon (accepted) and, every fourth week, one beyond it (rejected).
        try add(7 * 60 + 11, .setGoal(user: id, GoalSet(date: day.adding(days: 70), steps: 500 * number(16...24))))
        if weekIndex % 4 == 1 {
            try add(7 * 60 + 12, .setGoal(user: id, GoalSet(date: day.adding(days: number(71...80)), steps: 12_000)))
        }
        if chance(0.3) { try add(7 * 60 + 13, .setGoal(user: id, GoalSet(date: day.adding(days: 1), steps: 500 * number(8...20)))) }
        if chance(0.1) { try add(7 * 60 + 14, .clearGoal(user: id, date: day.adding(days: 1))) }
    }

    private mutating func planSteps() throws {
        let wearsWatch = hasWatch && chance(0.7)
        var walking = 0
        for window in stride(from: 7 * 60, to: 22 * 60, by: samplesPerCommand) {
            var phone: [StepSample] = []
            var watch: [StepSample] = []
            for minute in window..<(window + samplesPerCommand) {
                if walking == 0, chance(0.005) { walking = number(5...30) }
                let count = walking > 0 ? number(70...125) : number(0...8)
                if walking > 0 { walking -= 1 }
                let start = try Self.instant(of: day, minute: minute, in: zone)
                let end = Timestamp(microsecondsSinceEpoch: start.instant + 60_000_000, utcOffsetSeconds: start.utcOffsetSeconds)
                phone.append(StepSample(start: start, end: end, count: count, source: "phone"))
                if wearsWatch { watch.append(StepSample(start: start, end: end, count: count * number(90...112) / 100, source: "watch")) }
            }
            let sentAt = window + samplesPerCommand
            try add(sentAt, .recordSteps(user: id, StepsRecorded(samples: phone)))
            if wearsWatch { try add(sentAt, second: 30, .recordSteps(user: id, StepsRecorded(samples: watch))) }
            // A phone that lost its acknowledgement sends the same samples again.
            if chance(0.015) { try add(sentAt + 7, .recordSteps(user: id, StepsRecorded(samples: phone))) }
        }
    }

    private mutating func planWorkout() throws {
        let roll = number(0...99)
        let type: ActivityType = switch roll {
        case 0..<30: .run
        case 30..<50: .walk
        case 50..<70: .ride
        case 70..<78: .swim
        case 78..<85: .hike
        case 85..<93: .strength
        case 93..<98: .yoga
        default: .other
        }
        let speed: Double = switch type {
        case .run: 2.8
        case .walk: 1.4
        case .ride: 6.5
        case .swim: 0.6
        case .hike: 1.2
        default: 0
        }
        workouts += 1
        let workoutId = "w-\(index)-\(workouts)"
        let startMinute = number((17 * 60)...(19 * 60))
        let minutes = number(20...90)
        let paused = chance(0.3)
        let moving = minutes * 60 - (paused ? 300 : 0)
        let distance = Int(speed * Double(moving))
        let startedAt = try Self.instant(of: day, minute: startMinute, in: zone)
        let endedAt = try Self.instant(of: day, minute: startMinute + minutes, in: zone)
        let laps: [Lap]? = type == .run && distance >= 1000
            ? (0..<(distance / 1000)).map { _ in Lap(distanceMeters: 1000, movingSeconds: moving * 1000 / max(distance, 1)) } : nil
        if chance(0.5) {
            try add(startMinute, .startWorkout(user: id, WorkoutStarted(workoutId: workoutId, activityType: type, startedAt: startedAt)))
            if paused {
                try add(startMinute + 10, .pauseWorkout(user: id, workoutId: workoutId, at: nil))
                try add(startMinute + 15, .resumeWorkout(user: id, workoutId: workoutId, at: nil))
            }
            if chance(0.05) {
                try add(startMinute + minutes, .discardWorkout(user: id, workoutId: workoutId))
            } else {
                try add(startMinute + minutes, .finishWorkout(user: id, WorkoutFinished(
                    workoutId: workoutId, endedAt: endedAt, distanceMeters: distance, movingSeconds: moving,
                    steps: type == .run || type == .walk ? moving * 2 : nil, activeKcal: moving / 8,
                    avgHeartRate: number(110...160), laps: laps)))
                finished.append(workoutId)
                if trains, type == .run || type == .ride, moving >= 600 {
                    try addTraining(startMinute + minutes + 2, .recordTrack(user: id, workoutId: workoutId, heartRateTrack(moving: moving)))
                }
            }
        } else {
            let kinds: [SourceKind] = [.garmin, .strava, .healthkit, .wahoo]
            let kind = kinds[number(0...3)]
            let imported = WorkoutImported(
                workoutId: workoutId, activityType: type, startedAt: startedAt, endedAt: endedAt, distanceMeters: distance,
                movingSeconds: moving, steps: type == .run ? moving * 3 : nil, activeKcal: moving / 9, avgHeartRate: nil,
                laps: laps, source: WorkoutSource(kind: kind, sourceId: "\(kind.rawValue)-\(index)-\(workouts)"),
                title: chance(0.3) ? "Group \(type.rawValue) with friends" : nil)
            try add(startMinute + minutes + 10, .importWorkout(user: id, imported))
            finished.append(workoutId)
            if workouts % 8 == 3 {
                // Every eighth or so, the same source workout arrives again (a second sync): a no-op
                // answering the first id.
                var again = imported
                again.workoutId = workoutId + "-again"
                try add(startMinute + minutes + 60, .importWorkout(user: id, again))
            }
        }
    }

    /// A trainee's day: heart-rate settings and a target on the first day, next week's plan on
    /// Sundays (three runs: easy, a quality session, a long run), now and then a change or a removal.
    private mutating func planTraining(dayIndex: Int) throws {
        if dayIndex == 0 {
            try addTraining(6 * 60 + 35, .updateProfile(user: id, UserProfileUpdated(
                maxHeartRate: .set(trainingNumber(178...198)), restingHeartRate: .set(trainingNumber(46...62)))))
            let half = trainingNumber(0...1) == 0
            target = half ? "half" : "10k"
            raceDate = day.adding(days: 7 * trainingNumber(10...16) + 6)
            try addTraining(6 * 60 + 36, Command(user: id, event: .targetSet(TargetSet(
                targetId: target, name: half ? "Spring Half Marathon" : "City 10K", activityType: .run,
                distanceMeters: half ? 21_097 : 10_000, raceDate: raceDate, goalSeconds: half ? 6_300 + 60 * trainingNumber(0...30) : nil))))
        }
        // After four weeks of history, the trainee asks for a generated plan (four days a week, the
        // long run on Sundays) and follows it from then on instead of planning by hand.
        if dayIndex == 28 {
            try addTraining(20 * 60 + 30, .generatePlan(user: id, TrainingPlanRequest(
                targetId: target, startDate: day.adding(days: 1), daysPerWeek: 4, longRunDay: 7)))
            generated = true
        }
        if generated {
            // The generated week: easy Tuesday and Friday, quality Wednesday, long Sunday (the race day aside).
            let runs: [Int: Int] = [2: 6_000, 3: 7_000, 5: 6_000, 7: 12_000]
            if let distance = runs[day.isoWeekday], day < raceDate, trainingNumber(0...9) < 8 {
                try run("gen-\(day)", distance: distance * trainingNumber(85...115) / 100)
            }
            return
        }
        if day.isoWeekday == 7 {
            let week = dayIndex / 7 + 1
            let sessions: [(Int, PlannedKind, Int)] = [
                (2, .easy, 5_000 + 500 * trainingNumber(0...6)), (4, trainingNumber(0...1) == 0 ? .tempo : .intervals, 6_000 + 500 * trainingNumber(0...4)),
                (6, .long, 10_000 + 1_000 * trainingNumber(0...8)),
            ]
            for (offset, kind, distance) in sessions {
                let plannedId = "wk\(week)-\(kind.rawValue)"
                try addTraining(20 * 60 + offset, Command(user: id, event: .planWorkoutPlanned(PlannedWorkout(
                    plannedId: plannedId, date: day.adding(days: offset), activityType: .run, kind: kind, distanceMeters: distance))))
                plannedIds.append(plannedId)
                upcomingRuns.append((plannedId, day.adding(days: offset), distance))
            }
        }
        if day.isoWeekday == 3, !plannedIds.isEmpty, trainingNumber(0...9) < 2 {
            let plannedId = plannedIds[trainingNumber(0...(plannedIds.count - 1))]
            try addTraining(6 * 60 + 50, .changePlannedWorkout(user: id, plannedId: plannedId, PlannedWorkoutChanges(durationSeconds: .set(60 * trainingNumber(30...60)))))
        }
        if day.isoWeekday == 5, !plannedIds.isEmpty, trainingNumber(0...9) == 0 {
            let plannedId = plannedIds.remove(at: trainingNumber(0...(plannedIds.count - 1)))
            try addTraining(6 * 60 + 55, Command(user: id, event: .planWorkoutRemoved(PlannedWorkoutReference(plannedId: plannedId))))
            upcomingRuns.removeAll { $0.id == plannedId }
        }
        // Most planned runs are run, from the watch, near the planned distance (some fall short).
        for planned in upcomingRuns where planned.date == day {
            guard trainingNumber(0...9) < 8 else { continue }
            try run(planned.id, distance: planned.distance * trainingNumber(80...110) / 100)
        }
        upcomingRuns.removeAll { $0.date <= day }
    }

    /// A morning run from the watch, imported with its heart-rate track.
    private mutating func run(_ name: String, distance: Int) throws {
        let moving = distance * trainingNumber(300...390) / 1000
        let startedAt = try Self.instant(of: day, minute: 6 * 60 + 30, in: zone)
        let endedAt = try Self.instant(of: day, minute: 6 * 60 + 30 + moving / 60 + 2, in: zone)
        let workoutId = "run-\(index)-\(name)"
        try addTraining(6 * 60 + 35 + moving / 60, .importWorkout(user: id, WorkoutImported(
            workoutId: workoutId, activityType: .run, startedAt: startedAt, endedAt: endedAt, distanceMeters: distance,
            movingSeconds: moving, source: WorkoutSource(kind: .garmin, sourceId: workoutId)), track: heartRateTrack(moving: moving)))
    }

    /// A heart-rate track of a workout of `moving` seconds: a point every 10 s, warming up, steady
    /// with surges, now and then a point without a rate.
    private mutating func heartRateTrack(moving: Int) -> TrackSamples {
        let points = min(moving / 10, TrackSamples.maxPointsPerEvent)
        var offsets: [Int?] = []
        var rates: [Int?] = []
        var rate = trainingNumber(95...110)
        let steady = trainingNumber(135...165)
        for point in 0..<points {
            offsets.append(point * 10_000)
            rate += rate < steady ? trainingNumber(0...4) : rate > steady + 6 ? -trainingNumber(1...4) : trainingNumber(-2...2)
            let surge = trainingNumber(0...29) == 0 ? 14 : 0
            rates.append(trainingNumber(0...39) == 0 ? nil : min(max(rate + surge, 60), 205))
        }
        return TrackSamples(points: points, offsetMillis: offsets, heartRate: rates)
    }

    private mutating func planPlaces(dayIndex: Int) throws {
        let catalog = 50
        if chance(0.3) {
            for offset in 0..<number(1...3) where deckIndex < catalog {
                let placeId = Self.placeId(deckIndex)
                deckIndex += 1
                let right = chance(0.4)
                if right { saved.append(placeId) }
                try add(20 * 60 + offset, .swipePlace(user: id, PlaceSwiped(placeId: placeId, direction: right ? .right : .left)))
            }
        }
        if !saved.isEmpty, chance(0.1) {
            let placeId = saved[number(0...(saved.count - 1))]
            try add(20 * 60 + 30, .visitPlace(user: id, PlaceVisited(placeId: placeId, visitedAt: try Self.instant(of: day, minute: 20 * 60 + 29, in: zone))))
        }
        if !saved.isEmpty, chance(0.05) {
            try add(20 * 60 + 35, .editPlaceNotes(user: id, PlaceNotesEdited(placeId: saved[0], notes: "Try the specials (\(number(1...9)))")))
        }
        if dayIndex == 42, chance(0.2) {
            try add(20 * 60 + 45, .resetPlaces(user: id))
            deckIndex = 0
            saved = []
        }
    }

    /// The id of the catalog's place in deck position `index`.
    static func placeId(_ index: Int) -> String { index % 2 == 0 ? "p-r\(index / 2 + 1)" : "p-a\(index / 2 + 1)" }
}
