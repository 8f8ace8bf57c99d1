public import EventLog

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
        for (key, value) in try steps.records(in: UserDaySourceKey(user, first, "")...UserDaySourceKey(user, last, "\u{10FFFF}"), txn) {
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
                    steps = daySources.first { $0.0 == preferredSource }?.1.steps ?? 0
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
