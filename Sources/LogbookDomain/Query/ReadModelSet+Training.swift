package import EventLog

/// The training queries (DESIGN §8), computed from the targets, plan and intensity read models
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
        let (planned, extra, _) = try matched(user: user, from: from, to: to, today: today, txn)
        return TrainingPlan(user: user, from: from, to: to, today: today, planned: planned, extra: extra)
    }

    /// The weekly summary of the user's week containing `date`, as of `today`.
    package mutating func trainingWeek(user: String, containing date: CivilDate, today: CivilDate, _ txn: (any TableReader)?) throws -> TrainingWeek {
        let profile = try requireProfile(user, txn)
        let from = StatsReadModel.weekStart(containing: date, weekStart: profile.weekStart)
        let to = from.adding(days: 6)
        let (planned, extra, done) = try matched(user: user, from: from, to: to, today: today, txn)
        let zones = Self.zones(profile)
        var intensity = IntensitySum(zones: zones)
        for (_, workout) in done { intensity.add(workout) }
        let load = try trainingLoad(user: user, profile: profile, from: to, to: to, txn).days[0]
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
        return try trainingLoad(user: user, profile: profile, from: from, to: to, txn)
    }

    /// The time in zones of one of the user's workouts, with the current settings.
    package mutating func workoutIntensity(user: String, workoutId: String, _ txn: (any TableReader)?) throws -> TrainingIntensity? {
        let profile = try requireProfile(user, txn)
        guard let workout = try intensity.workout(user: user, workoutId, txn), workout.state == .counted else { return nil }
        var sum = IntensitySum(zones: Self.zones(profile))
        sum.add(workout)
        return sum.answer
    }

    // MARK: Parts

    private mutating func trainingLoad(user: String, profile: Profile, from: CivilDate, to: CivilDate, _ txn: (any TableReader)?) throws -> TrainingLoad {
        guard let zones = Self.zones(profile) else {
            let days = (from.daysSinceEpoch...max(from.daysSinceEpoch, to.daysSinceEpoch)).map {
                TrainingLoadDay(date: CivilDate(daysSinceEpoch: $0), load: nil, acute: nil, chronic28: nil, acwr: nil)
            }
            return TrainingLoad(user: user, from: from, to: to, days: from <= to ? days : [])
        }
        // The 27 days before `from` feed the first day's chronic load.
        let first = Int32(truncatingIfNeeded: from.daysSinceEpoch - 27)
        let last = Int32(truncatingIfNeeded: to.daysSinceEpoch)
        var loads: [TrainingLoadSeries.DayLoad] = []
        for (_, workout) in try intensity.counted(user: user, from: first, to: last, txn) {
            loads.append(TrainingLoadSeries.DayLoad(day: Int(workout.day), load: ZoneSeconds(histogram: workout.histogram, zones: zones).load))
        }
        let series = TrainingLoadSeries(loads: loads).series(from: from.daysSinceEpoch, through: to.daysSinceEpoch)
        let days = series.map {
            TrainingLoadDay(date: CivilDate(daysSinceEpoch: $0.day), load: $0.load, acute: $0.acute, chronic28: $0.chronic28, acwr: $0.acwr)
        }
        return TrainingLoad(user: user, from: from, to: to, days: days)
    }

    /// The planned workouts of `from`…`to` with their statuses, the counted workouts no plan took,
    /// and every counted workout of the range.
    private mutating func matched(
        user: String, from: CivilDate, to: CivilDate, today: CivilDate, _ txn: (any TableReader)?
    ) throws -> ([PlannedWorkoutStatus], [ExtraWorkout], [(id: String, workout: IntensityWorkout)]) {
        let first = Int32(truncatingIfNeeded: from.daysSinceEpoch)
        let last = Int32(truncatingIfNeeded: to.daysSinceEpoch)
        let done = try intensity.counted(user: user, from: first, to: last, txn)
        let plans = try plan.plannedWorkouts(user: user, from: first, to: last, txn)
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
        return (planned, extra, done)
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

/// Seconds in zones and load of several workouts, each workout's load floored before it is added.
private struct IntensitySum {
    let zones: HeartRateZones?
    var total = ZoneSeconds.zero
    var withoutHeartRate = 0
    var estimated = false

    init(zones: HeartRateZones?) { self.zones = zones }

    mutating func add(_ workout: IntensityWorkout) {
        let histogram = workout.histogram
        withoutHeartRate = withoutHeartRate.saturatingAdd(histogram.withoutHeartRateSeconds)
        estimated = estimated || histogram.estimated
        if let zones { total = total + ZoneSeconds(histogram: histogram, zones: zones) }
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
