import EventLog

/// Training intensity (the Training article): per workout, the time spent at each heart rate (from its
/// track's points, or its average as an estimate), and per user and local day the counted
/// workouts. Zones, load, acute and chronic load are computed from these when asked, with the
/// user's current heart-rate settings, so changing them re-derives every past week with no
/// rebuild.
///
/// A track point's rate holds until the next point that carries a rate, at most 30 s; the last
/// rated point holds nothing (``HeartRateSeconds``: the same rule, point by point, across the
/// track's parts). Milliseconds are summed per bpm here and floored to seconds per bpm when read.
/// Offsets that go backwards add nothing (the rules refuse such tracks; a log written elsewhere
/// cannot make the fold trap or count negative time).
///
/// Only primaries are in the days (training reads only primaries, each with its own data).
struct IntensityReadModel: FoldsWorkoutLife {
    static let kind = ReadModelKind.intensity
    /// 2: only primaries are in the days.
    static let codeVersion = 2

    static let folds = Folds<IntensityReadModel>()
        .workoutLife()
        .on(.workoutTrackRecorded) { try $0.onTrack($1, $2, $3) }

    var workouts: ReadModelTable<WorkoutKey, IntensityWorkout>
    var days: ReadModelTable<UserDayWorkoutKey, Marker>
    var groups: WorkoutGroups

    init(_ tables: ReadModelTables) {
        groups = WorkoutGroups(tables)
        workouts = tables.table("workouts")
        days = tables.table("days")
    }

    mutating func onWorkoutStarted(_ e: WorkoutStarted, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        workouts.set(WorkoutKey(e.workoutId), IntensityWorkout(user: fold.user, startedAt: e.startedAt, activityType: e.activityType))
        try groups.started(e, user: fold.user, position: fold.position, txn)
    }

    mutating func onWorkoutFinished(_ e: WorkoutFinished, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn), workout.state == .open else { return }
        count(&workout, e.workoutId, distance: e.distanceMeters, moving: e.movingSeconds, averageHeartRate: e.avgHeartRate)
        try apply(groups.finished(e, txn), fold, txn)
    }

    mutating func onWorkoutImported(_ e: WorkoutImported, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        var workout = IntensityWorkout(user: fold.user, startedAt: e.startedAt, activityType: e.activityType)
        count(&workout, e.workoutId, distance: e.distanceMeters, moving: e.movingSeconds, averageHeartRate: e.avgHeartRate)
        try apply(groups.imported(e, user: fold.user, position: fold.position, txn), fold, txn)
    }

    /// Puts a counted workout in its day (it is a primary) or takes it out.
    mutating func setCounts(_ workoutId: String, _ counts: Bool, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard let workout = try workouts.get(WorkoutKey(workoutId), txn), workout.state == .counted else { return }
        days.set(UserDayWorkoutKey(workout.user, workout.day, workoutId), counts ? Marker() : nil)
    }

    private mutating func count(_ workout: inout IntensityWorkout, _ id: String, distance: Int, moving: Int, averageHeartRate: Int?) {
        workout.state = .counted
        workout.distanceMeters = distance
        workout.movingSeconds = moving
        workout.averageHeartRate = averageHeartRate
        workouts.set(WorkoutKey(id), workout)
    }

    mutating func onWorkoutDiscarded(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn), workout.state == .open else { return }
        workout.state = .closed
        workouts.set(WorkoutKey(e.workoutId), workout)
        try apply(groups.deleted(e.workoutId, txn), fold, txn)
    }

    mutating func onWorkoutDeleted(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try apply(groups.deleted(e.workoutId, txn), fold, txn)
        guard let workout = try workouts.get(WorkoutKey(e.workoutId), txn) else { return }
        days.set(UserDayWorkoutKey(workout.user, workout.day, e.workoutId), nil)
        // A deleted workout leaves nothing behind, as if it had never been recorded.
        workouts.set(WorkoutKey(e.workoutId), nil)
    }

    mutating func onWorkoutEdited(_ e: WorkoutEdited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard let type = e.activityType, var workout = try workouts.get(WorkoutKey(e.workoutId), txn), workout.activityType != type else { return }
        workout.activityType = type
        workouts.set(WorkoutKey(e.workoutId), workout)
        try apply(groups.retyped(e.workoutId, to: type, txn), fold, txn)
    }

    mutating func onTrack(_ e: WorkoutTrackRecorded, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try apply(groups.tracked(e, txn), fold, txn)
        guard let rates = e.samples.heartRate, let offsets = e.samples.offsetMillis else { return }
        try workouts.modifyIfPresent(WorkoutKey(e.workoutId), txn) { workout in
            // Milliseconds this part adds, indexed by bpm (a plausible rate is at most 300): one
            // array, no hashing per point.
            var added: [Int64]?
            for (index, rate) in rates.enumerated() {
                guard let rate, HeartRateSeconds.plausibleHeartRates.contains(rate), index < offsets.count, let offset = offsets[index] else { continue }
                let at = Int64(offset)
                if workout.trackHasRates {
                    let held = HeartRateSeconds.heldMillis(from: workout.pendingOffsetMillis, to: at)
                    if held > 0 {
                        if added == nil { added = [Int64](repeating: 0, count: HeartRateSeconds.plausibleHeartRates.upperBound + 1) }
                        added![workout.pendingBeatsPerMinute] = added![workout.pendingBeatsPerMinute].saturatingAdd(held)
                    }
                }
                workout.trackHasRates = true
                workout.pendingOffsetMillis = at
                workout.pendingBeatsPerMinute = rate
            }
            if let added { workout.millisByBeatsPerMinute = Self.merged(workout.millisByBeatsPerMinute, added) }
        }
    }

    /// `entries` (by ascending bpm) with `added` (milliseconds indexed by bpm) added, still by
    /// ascending bpm: one pass over both, so no dictionary order reaches the table. Sums saturate,
    /// so a damaged stored record cannot make the fold trap.
    static func merged(_ entries: [BeatsPerMinuteMillis], _ added: [Int64]) -> [BeatsPerMinuteMillis] {
        var result: [BeatsPerMinuteMillis] = []
        result.reserveCapacity(entries.count + 8)
        var next = 0
        for rate in added.indices where added[rate] > 0 {
            while next < entries.count, entries[next].beatsPerMinute < rate {
                result.append(entries[next])
                next += 1
            }
            if next < entries.count, entries[next].beatsPerMinute == rate {
                result.append(BeatsPerMinuteMillis(beatsPerMinute: rate, millis: entries[next].millis.saturatingAdd(added[rate])))
                next += 1
            } else {
                result.append(BeatsPerMinuteMillis(beatsPerMinute: rate, millis: added[rate]))
            }
        }
        result.append(contentsOf: entries[next...])
        return result
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&workouts)
        try visitor.visit(&days)
        try groups.visitTables(&visitor)
    }

    /// The counted workouts of `user` started on local days `from` through `to`, by day then
    /// workout id (bytes).
    mutating func counted(user: String, from: Int32, to: Int32, _ txn: (any TableReader)?) throws -> [(id: String, workout: IntensityWorkout)] {
        var result: [(id: String, workout: IntensityWorkout)] = []
        // Up to the first key of the day after: an id may sort after any text a bound could name.
        let upper = to < .max ? UserDayWorkoutKey(user, to + 1, "") : UserDayWorkoutKey(user, to, "\u{10FFFF}")
        for (key, _) in try days.records(in: UserDayWorkoutKey(user, from, "")...upper, txn) where key.day <= to {
            if let workout = try workouts.get(WorkoutKey(key.workoutId), txn), workout.state == .counted { result.append((key.workoutId, workout)) }
        }
        return result
    }

    /// One workout's record, if it is the user's.
    mutating func workout(user: String, _ id: String, _ txn: (any TableReader)?) throws -> IntensityWorkout? {
        guard let workout = try workouts.get(WorkoutKey(id), txn), workout.user == user else { return nil }
        return workout
    }
}

extension ReadModelKind {
    /// The intensity read model: time at each heart rate per workout, counted workouts per day.
    public static let intensity = ReadModelKind(declared: "intensity")
}

extension ReadModelSet {
    /// The intensity read model, changed in place.
    var intensity: IntensityReadModel {
        get { self[IntensityReadModel.self] }
        _modify { yield &self[IntensityReadModel.self] }
    }
}
