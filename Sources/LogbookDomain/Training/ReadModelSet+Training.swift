package import EventLog

/// The training queries (the Training article), computed from the targets, plan and intensity read models
/// with the user's current heart-rate settings and the caller's today: zones, load and matching
/// are functions of these, never stored, so a settings change re-derives every past week.
extension ReadModelSet {
    /// The user's targets, and the active one as of `today`.
    package mutating func trainingTargets(user: String, today: CivilDate, _ txn: (any TableReader)?) throws -> TrainingTargets {
        _ = try requireProfile(user, txn)
        let targets = try allTargets(user: user, txn)
        return TrainingTargets(user: user, today: today, targets: targets, active: try activeTarget(user: user, targets, today: today, txn))
    }

    /// The plan from `from` to `to` with each planned workout's status as of `today`.
    package mutating func trainingPlan(user: String, from: CivilDate, to: CivilDate, today: CivilDate, _ txn: (any TableReader)?) throws -> TrainingPlan {
        _ = try requireProfile(user, txn)
        let done = try intensity.counted(user: user, from: Self.day(from), to: Self.day(to), txn)
        let (planned, extra) = try matched(user: user, from: from, to: to, today: today, done: done, txn)
        return TrainingPlan(user: user, from: from, to: to, today: today, planned: planned, extra: extra)
    }

    /// The weekly summary of the user's week containing `date`, as of `today`.
    package mutating func trainingWeek(user: String, containing date: CivilDate, today: CivilDate, _ txn: (any TableReader)?) throws -> TrainingWeek {
        let profile = try requireProfile(user, txn)
        let from = StatsReadModel.weekStart(containing: date, weekStart: profile.weekStart)
        let to = from.adding(days: 6)
        let zones = Self.zones(profile)
        // One read of the 28 days ending on the week's last day: the week's own workouts, and the
        // loads its acute and chronic load are summed from, each workout's zones computed once.
        let window = Self.timed(try intensity.counted(user: user, from: Self.day(to, minus: 27), to: Self.day(to), txn), zones: zones)
        let done = window.filter { $0.workout.day >= Self.day(from) }
        let (planned, extra) = try matched(user: user, from: from, to: to, today: today, done: done.map { ($0.id, $0.workout) }, txn)
        var intensity = IntensitySum(zones: zones)
        for workout in done { intensity.add(workout) }
        let load = Self.loadDays(window, zones: zones, from: to, to: to)[0]
        let count = { (status: PlannedStatus) in planned.count { $0.status == status } }
        let completed = count(.completed)
        return TrainingWeek(
            user: user, from: from, to: to, today: today, planned: planned, extra: extra,
            plannedSessions: planned.count,
            plannedDistanceMeters: planned.reduce(0) { $0.saturatingAdd($1.distanceMeters ?? 0) },
            plannedDurationSeconds: planned.reduce(0) { $0.saturatingAdd($1.durationSeconds ?? 0) },
            doneSessions: done.count,
            doneDistanceMeters: done.reduce(0) { $0.saturatingAdd($1.workout.distanceMeters) },
            doneMovingSeconds: done.reduce(0) { $0.saturatingAdd($1.workout.movingSeconds) },
            completed: completed, partial: count(.partial), missed: count(.missed), upcoming: count(.upcoming),
            compliancePercent: WeeklySummary.compliancePercent(completed: completed, plannedSessions: planned.count),
            intensity: intensity.answer, load: load,
            target: try activeTarget(user: user, try allTargets(user: user, txn), today: today, txn))
    }

    /// Daily load with acute, chronic28 and ACWR from `from` to `to` (at most 3 years).
    package mutating func trainingLoad(user: String, from: CivilDate, to: CivilDate, _ txn: (any TableReader)?) throws -> TrainingLoad {
        let profile = try requireProfile(user, txn)
        let zones = Self.zones(profile)
        // The 27 days before `from` feed the first day's chronic load.
        let window = zones == nil ? [] : Self.timed(try intensity.counted(user: user, from: Self.day(from, minus: 27), to: Self.day(to), txn), zones: zones)
        return TrainingLoad(user: user, from: from, to: to, days: Self.loadDays(window, zones: zones, from: from, to: to))
    }

    /// The time in zones of one of the user's workouts, with the current settings.
    package mutating func workoutIntensity(user: String, workoutId: String, _ txn: (any TableReader)?) throws -> TrainingIntensity? {
        let profile = try requireProfile(user, txn)
        guard let workout = try intensity.workout(user: user, workoutId, txn), workout.state == .counted else { return nil }
        let zones = Self.zones(profile)
        var sum = IntensitySum(zones: zones)
        sum.add(Self.timed([(workoutId, workout)], zones: zones)[0])
        return sum.answer
    }

    // MARK: Parts

    /// Counted workouts with their seconds per bpm and, with zones, their seconds in each zone and load.
    private static func timed(_ workouts: [(id: String, workout: IntensityWorkout)], zones: HeartRateZones?) -> [TimedWorkout] {
        workouts.map { id, workout in
            let histogram = workout.histogram
            return TimedWorkout(id: id, workout: workout, histogram: histogram, zones: zones.map { ZoneSeconds(histogram: histogram, zones: $0) })
        }
    }

    /// Load, acute, chronic28 and ACWR of each day `from`…`to` from `window`'s workouts (which
    /// must reach 27 days before `from`); every value nil without zones.
    private static func loadDays(_ window: [TimedWorkout], zones: HeartRateZones?, from: CivilDate, to: CivilDate) -> [TrainingLoadDay] {
        guard zones != nil else {
            return stride(from: from.daysSinceEpoch, through: to.daysSinceEpoch, by: 1).map {
                TrainingLoadDay(date: CivilDate(daysSinceEpoch: $0), load: nil, acute: nil, chronic28: nil, acwr: nil)
            }
        }
        let loads = window.map { TrainingLoadSeries.DayLoad(day: Int($0.workout.day), load: $0.zones?.load ?? 0) }
        return TrainingLoadSeries(loads: loads).series(from: from.daysSinceEpoch, through: to.daysSinceEpoch).map {
            TrainingLoadDay(date: CivilDate(daysSinceEpoch: $0.day), load: $0.load, acute: $0.acute, chronic28: $0.chronic28, acwr: $0.acwr)
        }
    }

    /// `date` less `days`, as the read models' day numbers.
    private static func day(_ date: CivilDate, minus days: Int = 0) -> Int32 { Int32(truncatingIfNeeded: date.daysSinceEpoch - days) }

    /// The planned workouts of `from`…`to` with their statuses, and the workouts of `done` (the
    /// counted workouts of those days) no plan took.
    private mutating func matched(
        user: String, from: CivilDate, to: CivilDate, today: CivilDate, done: [(id: String, workout: IntensityWorkout)], _ txn: (any TableReader)?
    ) throws -> ([PlannedWorkoutStatus], [ExtraWorkout]) {
        let plans = try plan.plannedWorkouts(user: user, from: Self.day(from), to: Self.day(to), txn)
        let records = Dictionary(plans.map { ($0.id, $0.record) }) { first, _ in first }
        let result = PlanMatching.match(
            planned: plans.map {
                PlanMatching.Planned(
                    id: $0.id, ordinal: Int(clamping: $0.record.ordinal), date: Int($0.record.date), activity: $0.record.activityType,
                    distanceMeters: $0.record.distanceMeters, durationSeconds: $0.record.durationSeconds)
            },
            workouts: done.map { $0.workout.counted(id: $0.id) }, today: today.daysSinceEpoch)
        let planned = result.outcomes.map { outcome in
            let record = records[outcome.planned.id]!
            return PlannedWorkoutStatus(
                plannedId: outcome.planned.id, date: CivilDate(daysSinceEpoch: Int(record.date)), activityType: record.activityType,
                kind: record.kind, distanceMeters: record.distanceMeters, durationSeconds: record.durationSeconds, notes: record.notes,
                status: PlannedStatus(outcome.status), workoutId: outcome.workoutId)
        }
        let extra = result.extras.map {
            ExtraWorkout(workoutId: $0.id, date: CivilDate(daysSinceEpoch: $0.localDate), activityType: $0.activity,
                         distanceMeters: $0.distanceMeters, movingSeconds: $0.movingSeconds)
        }
        return (planned, extra)
    }

    private func allTargets(user: String, _ txn: (any TableReader)?) throws -> [TrainingTarget] {
        try targets.all(user: user, txn).map { TrainingTarget($0.id, $0.target) }
            .sorted { $0.raceDate != $1.raceDate ? $0.raceDate < $1.raceDate : $0.targetId.utf8.lexicographicallyPrecedes($1.targetId.utf8) }
    }

    /// The nearest race on or after `today` (ties: the lowest id, bytes), its distance in days and
    /// the Riegel prediction over the 42 days before today.
    private mutating func activeTarget(user: String, _ all: [TrainingTarget], today: CivilDate, _ txn: (any TableReader)?) throws -> ActiveTarget? {
        guard let target = all.first(where: { $0.raceDate >= today }) else { return nil }
        let window = try intensity.counted(
            user: user, from: Int32(truncatingIfNeeded: today.daysSinceEpoch - RiegelPrediction.windowDays),
            to: Int32(truncatingIfNeeded: today.daysSinceEpoch - 1), txn)
        let prediction = RiegelPrediction.predict(
            activity: target.activityType, targetDistanceMeters: target.distanceMeters,
            workouts: window.map { $0.workout.counted(id: $0.id) }, today: today.daysSinceEpoch)
        return ActiveTarget(
            target: target, daysToRace: target.raceDate.daysSinceEpoch - today.daysSinceEpoch,
            predictedSeconds: prediction?.seconds, predictedFrom: prediction?.workoutId)
    }

    /// The zones of the user's current settings; nil without a maximum heart rate.
    static func zones(_ profile: Profile) -> HeartRateZones? {
        profile.maxHeartRate.flatMap { HeartRateZones(maxHeartRate: $0, restingHeartRate: profile.restingHeartRate) }
    }
}

/// A counted workout with its seconds per bpm and, with zones, its seconds in each zone and load.
private struct TimedWorkout {
    let id: String
    let workout: IntensityWorkout
    let histogram: HeartRateSeconds
    let zones: ZoneSeconds?
}

/// Seconds in zones and load of several workouts, each workout's load floored before it is added.
private struct IntensitySum {
    let zones: HeartRateZones?
    var total = ZoneSeconds.zero
    var withoutHeartRate = 0
    var estimated = false

    init(zones: HeartRateZones?) { self.zones = zones }

    mutating func add(_ workout: TimedWorkout) {
        withoutHeartRate = withoutHeartRate.saturatingAdd(workout.histogram.withoutHeartRateSeconds)
        estimated = estimated || workout.histogram.estimated
        if let seconds = workout.zones { total = total + seconds }
    }

    var answer: TrainingIntensity {
        guard let zones else {
            return TrainingIntensity(
                zones: nil, withoutHeartRateSeconds: withoutHeartRate, easySeconds: nil, moderateSeconds: nil, hardSeconds: nil, load: nil,
                estimated: estimated)
        }
        let lowest = [0] + zones.lowestBeatsPerMinute
        let zoneTimes = (0...5).map { zone in
            ZoneTime(zone: zone, fromBeatsPerMinute: lowest[zone], toBeatsPerMinute: zone < 5 ? lowest[zone + 1] - 1 : nil,
                     seconds: total.secondsInZone[zone])
        }
        return TrainingIntensity(
            zones: zoneTimes, withoutHeartRateSeconds: withoutHeartRate, easySeconds: total.easySeconds,
            moderateSeconds: total.moderateSeconds, hardSeconds: total.hardSeconds, load: total.load, estimated: estimated)
    }
}

extension IntensityWorkout {
    /// Seconds per bpm: from the track's rates (milliseconds floored to seconds per bpm), else the
    /// whole moving time at the average rate (estimated), else moving time without heart rate.
    var histogram: HeartRateSeconds {
        if trackHasRates {
            return HeartRateSeconds(
                entries: millisByBeatsPerMinute.map { HeartRateSeconds.Entry(beatsPerMinute: $0.beatsPerMinute, seconds: Int($0.millis / 1000)) },
                estimated: false, withoutHeartRateSeconds: 0)
        }
        return HeartRateSeconds(track: [], movingSeconds: movingSeconds, averageHeartRate: averageHeartRate)
    }

    /// The workout as plan matching and prediction see it.
    func counted(id: String) -> CountedWorkout<ActivityType> {
        CountedWorkout(
            id: id, activity: activityType, localDate: Int(day), startInstant: startedAt.instant, distanceMeters: distanceMeters,
            movingSeconds: movingSeconds)
    }
}

extension TrainingTarget {
    init(_ id: String, _ record: TargetRecord) {
        self.init(
            targetId: id, name: record.name, activityType: record.activityType, distanceMeters: record.distanceMeters,
            raceDate: CivilDate(daysSinceEpoch: Int(record.raceDate)), goalSeconds: record.goalSeconds)
    }
}

extension PlannedStatus {
    init(_ status: PlanMatching.Status) {
        switch status {
        case .completed: self = .completed
        case .partial: self = .partial
        case .missed: self = .missed
        case .upcoming: self = .upcoming
        }
    }
}
