public import EventLog

/// Weekly and period statistics: per user and local day, the counted workouts by activity type
/// and the steps of each source; weeks, months and years are summed from days when asked, so
/// changing the week start needs no rebuild.
///
/// Steps: a sample counts on the local day of its start; the same sample (source, start
/// instant, end instant) counts once, the first time. Which source's total is the day's steps is
/// a view choice made when queried (preferred source, else the largest single source).
///
/// Only primaries count: the embedded ``WorkoutGroups`` says which workouts do.
///
/// Each block of 32 days (``DayBlock``) with day or step records has a stamp: the last position
/// that changed them, so what queries work out from a block can be kept until it changes.
struct StatsReadModel: FoldsWorkoutLife {
    static let kind = ReadModelKind.stats
    /// 2: only the primaries of groups of the same activity count. 3: block stamps. 4: step sources
    /// compared as bytes (a decomposed twin of a source is another source).
    static let codeVersion = 4
    /// Every step sample lands here: over a long history, half of a replay's folding.
    static let foldsApart = true

    static let folds = Folds<StatsReadModel>()
        .workoutLife()
        .on(.stepsRecorded) { try $0.onStepsRecorded($1, $2, $3) }
        .on(.workoutTrackRecorded) { try $0.groupTrack($1, $2, $3) }

    var workouts: ReadModelTable<WorkoutKey, StatsWorkout>
    var days: ReadModelTable<UserDayKey, DayActivity>
    var steps: ReadModelTable<UserDaySourceKey, SourceSteps>
    var samples: ReadModelTable<SampleDayKey, CountedSamples>
    /// Per user and block (keyed by its first day): the last position that changed its days or steps.
    var blocks: ReadModelTable<UserDayKey, BlockStamp>
    var groups: WorkoutGroups

    init(_ tables: ReadModelTables) {
        groups = WorkoutGroups(tables)
        workouts = tables.table("workouts")
        days = tables.table("days")
        steps = tables.table("steps")
        samples = tables.table("samples")
        blocks = tables.table("blocks")
    }

    mutating func onWorkoutStarted(_ e: WorkoutStarted, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        workouts.set(WorkoutKey(e.workoutId), StatsWorkout(user: fold.user, day: e.startedAt.localDay, type: e.activityType))
        try groups.started(e, user: fold.user, position: fold.position, txn)
    }

    mutating func onWorkoutFinished(_ e: WorkoutFinished, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard let workout = try workouts.get(WorkoutKey(e.workoutId), txn), !workout.closed else { return }
        close(e.workoutId, workout, distance: e.distanceMeters, moving: e.movingSeconds)
        try apply(groups.finished(e, txn), fold, txn)
    }

    mutating func onWorkoutImported(_ e: WorkoutImported, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        let workout = StatsWorkout(user: fold.user, day: e.startedAt.localDay, type: e.activityType)
        close(e.workoutId, workout, distance: e.distanceMeters, moving: e.movingSeconds)
        try apply(groups.imported(e, user: fold.user, position: fold.position, txn), fold, txn)
    }

    mutating func onWorkoutDiscarded(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn), !workout.closed else { return }
        workout.closed = true
        workouts.set(WorkoutKey(e.workoutId), workout)
        try apply(groups.deleted(e.workoutId, txn), fold, txn)
    }

    mutating func onWorkoutDeleted(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try apply(groups.deleted(e.workoutId, txn), fold, txn)
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn) else { return }
        workout.closed = true
        workouts.set(WorkoutKey(e.workoutId), workout)
    }

    mutating func onWorkoutEdited(_ e: WorkoutEdited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let position = fold.position
        guard let type = e.activityType, var workout = try workouts.get(WorkoutKey(e.workoutId), txn), workout.type != type else { return }
        if workout.counted { try addToDay(workout, sign: -1, position: position, txn) }
        workout.type = type
        if workout.counted { try addToDay(workout, sign: 1, position: position, txn) }
        workouts.set(WorkoutKey(e.workoutId), workout)
        try apply(groups.retyped(e.workoutId, to: type, txn), fold, txn)
    }

    mutating func onStepsRecorded(_ e: StepsRecorded, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let position = fold.position
        try count(e.samples, user: fold.user, position: position, txn)
    }

    /// Closes a finished (or imported) workout with its totals; it is added to its day when
    /// grouping says it counts.
    private mutating func close(_ workoutId: String, _ workout: StatsWorkout, distance: Int, moving: Int) {
        var workout = workout
        workout.distanceMeters = distance
        workout.movingSeconds = moving
        workout.closed = true
        workouts.set(WorkoutKey(workoutId), workout)
    }

    /// Adds a workout to its day, or takes it back (`counted` is whether it is in the day's sums).
    mutating func setCounts(_ workoutId: String, _ counts: Bool, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(workoutId), txn), workout.counted != counts else { return }
        try addToDay(workout, sign: counts ? 1 : -1, position: fold.position, txn)
        workout.counted = counts
        workouts.set(WorkoutKey(workoutId), workout)
    }

    private mutating func addToDay(_ workout: StatsWorkout, sign: Int, position: UInt64, _ txn: (any TableReader)?) throws {
        let key = UserDayKey(workout.user, workout.day)
        var day = try days.get(key, txn) ?? DayActivity()
        day.byType[ActivityType.allCases.firstIndex(of: workout.type)!].add(workout.totals, sign: sign)
        day.lastPosition = position
        days.set(key, day.isEmpty ? nil : day)
        blocks.set(UserDayKey(workout.user, DayBlock.first(of: workout.day)), BlockStamp(position))
    }

    /// Counts the samples not counted before. Consecutive samples usually share source, UTC day
    /// and local day, so each run of them touches its two records once.
    private mutating func count(_ batch: [StepSample], user: String, position: UInt64, _ txn: (any TableReader)?) throws {
        let dayLength: Int64 = 86_400_000_000
        func utcDay(_ instant: Int64) -> Int64 { instant >= 0 ? instant / dayLength : (instant - dayLength + 1) / dayLength }
        var start = 0
        while start < batch.count {
            let source = batch[start].source
            let day = utcDay(batch[start].start.instant)
            var end = start + 1
            while end < batch.count, batch[end].source.hasSameBytes(as: source), utcDay(batch[end].start.instant) == day { end += 1 }
            // Steps of the run's new samples, by local day (one day unless the run spans local midnight).
            let firstDay = batch[start].start.localDay
            var firstDaySteps = 0
            var firstDayCounted = false
            var otherDays: [(day: Int32, steps: Int)] = []
            try samples.modify(SampleDayKey(user, source, Int32(truncatingIfNeeded: day)), txn, initial: { CountedSamples() }) { counted in
                for sample in batch[start..<end]
                where counted.insert(start: sample.start.instant, end: sample.end.instant, dayStart: day * dayLength) {
                    let localDay = sample.start.localDay
                    if localDay == firstDay {
                        firstDaySteps += sample.count
                        firstDayCounted = true
                    } else if let index = otherDays.firstIndex(where: { $0.day == localDay }) {
                        otherDays[index].steps += sample.count
                    } else {
                        otherDays.append((localDay, sample.count))
                    }
                }
            }
            // Nothing to add when every sample of the run was counted before (a re-sent batch).
            if firstDayCounted { try addSteps(user, firstDay, source, firstDaySteps, position, txn) }
            for other in otherDays { try addSteps(user, other.day, source, other.steps, position, txn) }
            start = end
        }
    }

    private mutating func addSteps(_ user: String, _ day: Int32, _ source: String, _ count: Int, _ position: UInt64, _ txn: (any TableReader)?) throws {
        try steps.modify(UserDaySourceKey(user, day, source), txn, initial: { SourceSteps() }) {
            $0.steps += count
            $0.lastPosition = position
        }
        blocks.set(UserDayKey(user, DayBlock.first(of: day)), BlockStamp(position))
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&workouts)
        try visitor.visit(&days)
        try visitor.visit(&steps)
        try visitor.visit(&samples)
        try visitor.visit(&blocks)
        try groups.visitTables(&visitor)
    }
}

extension ReadModelKind {
    /// The stats read model.
    public static let stats = ReadModelKind(declared: "stats")
}

extension ReadModelSet {
    /// The stats read model, changed in place.
    var stats: StatsReadModel {
        get { self[StatsReadModel.self] }
        _modify { yield &self[StatsReadModel.self] }
    }
}

extension Timestamp {
    /// The local day (days since 1970) in the timestamp's own offset, as the read models key days.
    @inline(__always)
    var localDay: Int32 { Int32(truncatingIfNeeded: localDayNumber) }
}

/// One local day of a user's statistics.
public struct DayStats: Sendable, Hashable, Codable {
    public var date: CivilDate
    public var steps: Int
    public var workouts: Int
    public var distanceMeters: Int
    public var movingSeconds: Int
    /// Per activity type, in the order of ``ActivityType/allCases``; types without workouts are left out.
    public var byType: [TypeTotals]
    /// The last log position that changed this day (workouts or steps).
    public var lastPosition: UInt64
}

/// The totals of one activity type.
public struct TypeTotals: Sendable, Hashable, Codable {
    public var type: ActivityType
    public var totals: ActivityTotals
    /// Seconds per kilometre, for run, walk and hike (nil without distance).
    public var paceSecondsPerKm: Double?
    /// Kilometres per hour, for rides (nil without time).
    public var speedKmh: Double?

    init(type: ActivityType, totals: ActivityTotals) {
        self.type = type
        self.totals = totals
        if type.usesPace, totals.distanceMeters > 0 {
            paceSecondsPerKm = Double(totals.movingSeconds) / (Double(totals.distanceMeters) / 1000)
        }
        if type == .ride, totals.movingSeconds > 0 {
            speedKmh = (Double(totals.distanceMeters) / 1000) / (Double(totals.movingSeconds) / 3600)
        }
    }
}

/// Statistics over a range of days, with per-day rows (or per-month rows for a year).
public struct PeriodStats: Sendable, Hashable, Codable {
    public var user: String
    public var from: CivilDate
    public var to: CivilDate
    public var days: [DayStats]
    public var steps: Int
    public var totals: ActivityTotals
    public var byType: [TypeTotals]
    /// Average steps per day over the whole range.
    public var averageStepsPerDay: Double
}

extension StatsReadModel {
    /// The statistics of every day from `from` to `to` (inclusive) for `user`, with the day's steps
    /// chosen by `preferredSource` (nil: the largest single source that day).
    mutating func period(user: String, from: CivilDate, to: CivilDate, preferredSource: String?, _ txn: (any TableReader)?) throws -> PeriodStats {
        let first = Int32(from.daysSinceEpoch)
        let last = Int32(to.daysSinceEpoch)
        var activity: [Int32: DayActivity] = [:]
        for (key, value) in try days.records(in: UserDayKey(user, first)...UserDayKey(user, last), txn) { activity[key.day] = value }
        var sources: [Int32: [(String, SourceSteps)]] = [:]
        // Up to the first key of the day after: a source may sort after any text a bound could name.
        let upper = last < .max ? UserDaySourceKey(user, last + 1, "") : UserDaySourceKey(user, last, "\u{10FFFF}")
        for (key, value) in try steps.records(in: UserDaySourceKey(user, first, "")...upper, txn) where key.day <= last {
            sources[key.day, default: []].append((key.source, value))
        }
        var rows: [DayStats] = []
        var totalsByType = Array(repeating: ActivityTotals(), count: ActivityType.allCases.count)
        var totalSteps = 0
        if first <= last {
            for day in first...last {
                let dayActivity = activity[day] ?? DayActivity()
                let daySources = sources[day] ?? []
                let steps: Int
                if let preferredSource {
                    steps = daySources.first { $0.0.hasSameBytes(as: preferredSource) }?.1.steps ?? 0
                } else {
                    steps = daySources.map(\.1.steps).max() ?? 0
                }
                var dayTotals = ActivityTotals()
                var byType: [TypeTotals] = []
                for (index, type) in ActivityType.allCases.enumerated() where !dayActivity.byType[index].isEmpty {
                    dayTotals.add(dayActivity.byType[index])
                    totalsByType[index].add(dayActivity.byType[index])
                    byType.append(TypeTotals(type: type, totals: dayActivity.byType[index]))
                }
                let lastPosition = max(dayActivity.lastPosition, daySources.map(\.1.lastPosition).max() ?? 0)
                rows.append(DayStats(
                    date: CivilDate(daysSinceEpoch: Int(day)), steps: steps, workouts: dayTotals.workouts,
                    distanceMeters: dayTotals.distanceMeters, movingSeconds: dayTotals.movingSeconds, byType: byType,
                    lastPosition: lastPosition))
                totalSteps += steps
            }
        }
        var totals = ActivityTotals()
        for value in totalsByType { totals.add(value) }
        let typeRows = ActivityType.allCases.enumerated().compactMap { index, type in
            totalsByType[index].isEmpty ? nil : TypeTotals(type: type, totals: totalsByType[index])
        }
        return PeriodStats(
            user: user, from: from, to: to, days: rows, steps: totalSteps, totals: totals, byType: typeRows,
            averageStepsPerDay: rows.isEmpty ? 0 : Double(totalSteps) / Double(rows.count))
    }

    /// The first day of the week containing `date`, for weeks starting on `weekStart`.
    static func weekStart(containing date: CivilDate, weekStart: WeekStart) -> CivilDate {
        let weekday = date.isoWeekday  // 1 = Monday … 7 = Sunday
        let offset = weekStart == .monday ? weekday - 1 : weekday % 7
        return date.adding(days: -offset)
    }
}
