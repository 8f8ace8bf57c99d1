public import EventLog

/// How a stats summary is cut: into the user's weeks (by their week start), calendar months,
/// calendar years, or one bucket for all of it.
public enum SummaryPeriod: String, Sendable, Hashable, Codable, CaseIterable {
    case week, month, year, all
}

/// The stats tab (ConnectStats): a user's counted workouts summed per week, month or year, or over
/// all time, with the bests of each bucket. Every bucket of the range is present, zero when
/// nothing happened in it.
public struct StatsSummary: Sendable, Hashable, Codable {
    public var user: String
    public var period: SummaryPeriod
    /// Only workouts of this type (nil: all types).
    public var type: ActivityType?
    /// The first day of the first bucket and the last day of the last one: the range asked for,
    /// widened to whole buckets (for `all`, the range itself).
    public var from: CivilDate
    public var to: CivilDate
    /// The week start the weeks follow (the user's).
    public var weekStart: WeekStart
    /// Oldest first.
    public var buckets: [SummaryBucket]
    /// Every bucket together: the range's totals and bests.
    public var totals: SummaryBucket
}

/// One bucket of a ``StatsSummary``: the workouts that started (local day, in the start's own
/// offset) from `from` to `to`, inclusive.
public struct SummaryBucket: Sendable, Hashable, Codable {
    public var from: CivilDate
    public var to: CivilDate
    public var workouts: Int = 0
    public var distanceMeters: Int = 0
    public var movingSeconds: Int = 0
    /// Wall-clock time, pauses included: the source's elapsed time, else end minus start, else
    /// the moving time.
    public var elapsedSeconds: Int = 0
    /// The sum of each workout's climb (as its detail reports it: the track's altitudes with a
    /// 3 m hysteresis, rounded per workout); workouts without altitudes add nothing.
    public var elevationGainMeters: Int = 0
    /// The sum of the workouts' active kilocalories, where the source gave them.
    public var activeKcal: Int = 0
    /// Average heart rate weighted by moving time, over the workouts with one (the source's
    /// average, else the mean of the track's rates), to one decimal; nil without any.
    public var avgHeartRate: Double?
    /// The workout with the longest distance (ties: the longer moving time, then the earlier
    /// start, then the workout id's bytes).
    public var longest: SummaryBest?
    /// The run, walk or hike of at least 1 km with the fastest average pace (ties: the longer
    /// distance, then the earlier start, then the id).
    public var fastestPace: SummaryBest?
    /// The ride of at least 1 km with the highest average speed (ties as for pace).
    public var fastestSpeed: SummaryBest?

    /// An empty bucket.
    public init(from: CivilDate, to: CivilDate) {
        self.from = from
        self.to = to
    }
}

/// A workout that holds a best of a bucket.
public struct SummaryBest: Sendable, Hashable, Codable {
    public var workoutId: String
    public var date: CivilDate
    public var activityType: ActivityType
    public var distanceMeters: Int
    public var movingSeconds: Int
    /// Seconds per kilometre (run, walk, hike; nil without distance).
    public var paceSecondsPerKm: Double?
    /// Kilometres per hour (ride; nil without time).
    public var speedKmh: Double?
}

/// The buckets of a summary: pure date arithmetic, the same in every time zone and locale.
public enum SummaryBuckets {
    /// At most this many days from `from` to `to` (100 years of weeks: 5,218 buckets).
    public static let maximumDays = 36_525

    /// The whole buckets holding `from` … `to`, oldest first (`all`: that range as one bucket).
    public static func buckets(_ period: SummaryPeriod, from: CivilDate, to: CivilDate, weekStart: WeekStart) -> [(from: CivilDate, to: CivilDate)] {
        var result: [(from: CivilDate, to: CivilDate)] = []
        switch period {
        case .all:
            result.append((from, to))
        case .week:
            var start = StatsReadModel.weekStart(containing: from, weekStart: weekStart)
            while start <= to {
                result.append((start, start.adding(days: 6)))
                start = start.adding(days: 7)
            }
        case .month:
            var (year, month) = (from.year, from.month)
            while let start = CivilDate(year: year, month: month, day: 1), start <= to {
                result.append((start, start.adding(days: CivilDate.daysIn(month: month, year: year) - 1)))
                (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
            }
        case .year:
            var year = from.year
            while let start = CivilDate(year: year, month: 1, day: 1), start <= to {
                result.append((start, CivilDate(year: year, month: 12, day: 31)!))
                year += 1
            }
        }
        return result
    }

    /// The default range: the `count` buckets ending with the one holding `today` (`all`: from
    /// `first`, the first day with a counted workout, to today).
    public static func defaultFrom(_ period: SummaryPeriod, today: CivilDate, first: CivilDate?, weekStart: WeekStart, count: Int = 12) -> CivilDate {
        switch period {
        case .all: return min(first ?? today, today)
        case .week:
            let start = StatsReadModel.weekStart(containing: today, weekStart: weekStart).adding(days: -7 * (count - 1))
            // Never before year 1: the first week holding 1 January of year 1 starts the range then.
            return start.year >= 1 ? start : StatsReadModel.weekStart(containing: CivilDate(year: 1, month: 1, day: 7)!, weekStart: weekStart)
        case .month:
            // Never before 1 January of year 1: the buckets then start there.
            let months = max(12, today.year * 12 + (today.month - 1) - (count - 1))
            return CivilDate(year: months / 12, month: months % 12 + 1, day: 1) ?? today
        case .year: return CivilDate(year: max(1, today.year - (count - 1)), month: 1, day: 1) ?? today
        }
    }
}

extension ActivitiesReadModel {
    /// `user`'s counted workouts (of `type`, if given) from `from` to `to` in `period` buckets,
    /// each as its list entry's facts describe it (``SummaryFacts``: the list and the block sums
    /// alone are read).
    /// Year and all-time buckets are summed from the sums of the blocks of days they hold whole
    /// (``BlockSums``, unless `summed` is false: tables an older code version built have none) and
    /// the days at their ends; weeks and months from the workouts themselves.
    mutating func summary(
        user: String, period: SummaryPeriod, from: CivilDate, to: CivilDate, type: ActivityType?, weekStart: WeekStart,
        summed: Bool, _ txn: (any TableReader)?
    ) throws -> StatsSummary {
        let ranges = SummaryBuckets.buckets(period, from: from, to: to, weekStart: weekStart)
        var accumulators = ranges.map { SummaryAccumulator(from: $0.from, to: $0.to) }
        let first = ranges.first?.from ?? from
        let last = ranges.last?.to ?? to
        if summed, period == .year || period == .all {
            try sumByBlocks(user: user, ranges: ranges, type: type, into: &accumulators, txn)
        } else {
            try listedWorkouts(user: user, from: first, to: last, type: type, txn) { date, workout in
                // The bucket holding the date: the last whose first day is on or before it.
                var lower = 0, upper = ranges.count
                while upper - lower > 1 {
                    let middle = (lower + upper) / 2
                    if ranges[middle].from <= date { lower = middle } else { upper = middle }
                }
                try accumulators[lower].add(workout)
            }
        }
        var totals = SummaryAccumulator(from: first, to: last)
        for accumulator in accumulators { try totals.add(accumulator) }
        return StatsSummary(
            user: user, period: period, type: type, from: first, to: last, weekStart: weekStart,
            buckets: accumulators.map(\.result), totals: totals.result)
    }

    /// Hands `body` each of `user`'s counted workouts (of `type`, if given) started (local day)
    /// from `from` to `to`, with its date.
    mutating func listedWorkouts(
        user: String, from: CivilDate, to: CivilDate, type: ActivityType?, _ txn: (any TableReader)?,
        _ body: (CivilDate, SummaryWorkout) throws -> Void
    ) throws {
        // A start's local day is within a day of its UTC day (offsets are under 24 hours), so the
        // list's instants two days either side hold every workout of the range.
        let day: Int64 = 86_400_000_000
        let low = (Int64(from.daysSinceEpoch) - 2) * day
        let high = (Int64(to.daysSinceEpoch) + 3) * day
        for (key, listed) in try list.records(in: ActivityListKey(user, high, "")...ActivityListKey(user, low, "\u{10FFFF}"), txn) {
            guard let facts = try facts(of: key, listed, txn) else { continue }
            if let type, facts.type != type { continue }
            let date = facts.date
            guard date >= from, date <= to else { continue }
            try body(date, try SummaryWorkout(id: key.workoutId, startInstant: key.startInstant, facts))
        }
    }

    /// Sums each of `ranges` (in order, none overlapping) from the sums of the blocks it holds
    /// whole and the workouts of the days it holds of the others.
    private mutating func sumByBlocks(
        user: String, ranges: [(from: CivilDate, to: CivilDate)], type: ActivityType?, into accumulators: inout [SummaryAccumulator],
        _ txn: (any TableReader)?
    ) throws {
        guard let first = ranges.first?.from, let last = ranges.last?.to else { return }
        let lower = UserDayKey(user, DayBlock.first(of: Int32(first.daysSinceEpoch)))
        var index = 0
        for (key, sums) in try blockSums.records(in: lower...UserDayKey(user, Int32(last.daysSinceEpoch)), txn) {
            let blockFrom = CivilDate(daysSinceEpoch: Int(key.day))
            let blockTo = blockFrom.adding(days: Int(DayBlock.length) - 1)
            while index < ranges.count, ranges[index].to < blockFrom { index += 1 }
            var overlapping = index
            while overlapping < ranges.count, ranges[overlapping].from <= blockTo {
                let range = ranges[overlapping]
                if range.from <= blockFrom, blockTo <= range.to {
                    try sums.add(type, into: &accumulators[overlapping])
                } else {
                    try listedWorkouts(user: user, from: max(range.from, blockFrom), to: min(range.to, blockTo), type: type, txn) { _, workout in
                        try accumulators[overlapping].add(workout)
                    }
                }
                overlapping += 1
            }
        }
    }

    /// The local date of `user`'s first counted workout (nil without any): from the user's first
    /// block sums (unless `summed` is false), else from the list.
    mutating func firstWorkoutDate(user: String, summed: Bool, _ txn: (any TableReader)?) throws -> CivilDate? {
        guard summed else { return try firstListedWorkoutDate(user: user, txn) }
        // A block has sums only while it lists a workout.
        let first = try blockSums.first(in: UserDayKey(user, Int32.min)...UserDayKey(user, Int32.max), txn)
        return first?.1.firstDay(of: nil).map { CivilDate(daysSinceEpoch: Int($0)) }
    }

    /// The local date of `user`'s first counted workout, from the whole list.
    private mutating func firstListedWorkoutDate(user: String, _ txn: (any TableReader)?) throws -> CivilDate? {
        let listed = try list.records(in: ActivityListKey(user, .max, "")...ActivityListKey(user, .min, "\u{10FFFF}"), txn)
        // The list runs newest first; the oldest start is last. Local dates follow instants within
        // a day's offset, so the first date is among the starts up to two days after the oldest.
        guard let oldest = listed.last?.0.startInstant else { return nil }
        var first: CivilDate?
        for (key, entry) in listed.reversed() {
            let (after, overflow) = key.startInstant.subtractingReportingOverflow(oldest)
            guard !overflow, after <= 2 * 86_400_000_000 else { break }
            if let date = try facts(of: key, entry, txn)?.date, first.map({ date < $0 }) ?? true { first = date }
        }
        return first
    }
}
