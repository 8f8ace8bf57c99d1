public import EventLog

/// What to list of a user's activities.
public struct ActivityFilter: Sendable, Hashable, Codable {
    public var type: ActivityType?
    /// First and last local date (inclusive) of the workouts' start.
    public var from: CivilDate?
    public var to: CivilDate?
    /// Case-insensitive text that must appear in the title or notes.
    public var text: String?

    public init(type: ActivityType? = nil, from: CivilDate? = nil, to: CivilDate? = nil, text: String? = nil) {
        self.type = type
        self.from = from
        self.to = to
        self.text = text
    }
}

/// A page of activities, newest first, with the cursor for the next page. Each item carries its
/// local start date (`date`, yyyy-mm-dd in the start's own offset) beside the record's fields.
public struct ActivityPage: Sendable, Hashable, Encodable {
    public var activities: [ActivityRecord]
    /// Pass back to get the next page; nil at the end.
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey { case activities, nextCursor }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(activities.map(DatedActivity.init), forKey: .activities)
        try c.encodeIfPresent(nextCursor, forKey: .nextCursor)
    }
}

/// A record encoded with its local start date beside its own fields.
struct DatedActivity: Encodable {
    let record: ActivityRecord

    enum CodingKeys: String, CodingKey { case date }

    func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(record.date, forKey: .date)
    }
}

/// The active days of one month.
public struct MonthCalendar: Sendable, Hashable, Codable {
    public struct Day: Sendable, Hashable, Codable {
        public var date: CivilDate
        public var workouts: Int
        public var movingSeconds: Int
        public var types: [ActivityType]
    }
    public var year: Int
    public var month: Int
    public var activeDays: [Day]
}

/// A summary of the last N days of activities.
public struct ActivityInsights: Sendable, Hashable, Codable {
    public var from: CivilDate
    public var to: CivilDate
    public var workouts: Int
    public var distanceMeters: Int
    public var movingSeconds: Int
    /// Seconds per kilometre over the period's runs, walks and hikes (nil without any).
    public var averagePaceSecondsPerKm: Double?
    /// The type with the most workouts (ties: more moving time, then the order of ``ActivityType``).
    public var favoriteType: ActivityType?
    public var byType: [TypeTotals]
}

extension ActivitiesReadModel {
    /// Counted workouts of `user`, newest first, filtered, at most `limit`, after `cursor`.
    mutating func page(
        user: String, filter: ActivityFilter, limit: Int, cursor: String?, _ txn: (any TableReader)?
    ) throws(LogbookError) -> ActivityPage {
        var after: ActivityListKey?
        if let cursor {
            let parts = cursor.split(separator: "~", maxSplits: 1)
            // Int64.min has no negation to store it by (keys hold instants negated, newest first).
            guard parts.count == 2, let instant = Int64(parts[0]), instant != .min else {
                throw .invalidArgument(name: "cursor", reason: "not a cursor of this list")
            }
            after = ActivityListKey(user, instant, String(parts[1]))
        }
        let needle = filter.text?.lowercased()
        var found: [ActivityRecord] = []
        var last: ActivityListKey?
        do {
            let (newest, oldest) = Self.instants(from: filter.from, to: filter.to)
            var first = ActivityListKey(user, newest ?? .max, "")
            if let after, first < after { first = after }
            var matched: [ActivityRecord] = []
            try forEachCounted(user: user, from: first, oldest: oldest, txn) { key, record in
                if key == after { return true }
                if let type = filter.type, record.activityType != type { return true }
                if let from = filter.from, record.date < from { return true }
                if let to = filter.to, record.date > to { return true }
                if let needle {
                    let inTitle = record.title?.lowercased().contains(needle) ?? false
                    let inNotes = record.notes?.lowercased().contains(needle) ?? false
                    if !inTitle && !inNotes { return true }
                }
                if matched.count == limit { return false }
                matched.append(record)
                last = key
                return true
            }
            found = try matched.map { try grouped($0, txn) }
        } catch {
            throw .storage("\(error)")
        }
        let more = found.count == limit
        return ActivityPage(activities: found, nextCursor: more ? last.map { "\($0.startInstant)~\($0.workoutId)" } : nil)
    }

    /// `record` with its group: the other recordings of a primary, a duplicate's primary.
    mutating func grouped(_ record: ActivityRecord, _ txn: (any TableReader)?) throws -> ActivityRecord {
        guard let member = try groups.member(record.workoutId, txn), member.counted else { return record }
        var record = record
        if let primary = member.primary { record.primaryWorkoutId = primary }
        if !member.others.isEmpty {
            record.alsoRecordedBy = try member.others.compactMap { other in
                try workouts.get(WorkoutKey(other), txn).map { RecordedBy(workoutId: other, source: $0.source) }
            }
        }
        return record
    }

    /// Calls `body` with `user`'s counted workouts, newest first, from `start` (a list key) on,
    /// until it returns false or the workouts started before `oldest` (an instant) are reached:
    /// read one at a time, so a query costs the span it reads, not the user's whole list.
    func forEachCounted(
        user: String, from start: ActivityListKey, oldest: Int64? = nil, _ txn: (any TableReader)?,
        _ body: (ActivityListKey, ActivityRecord) throws -> Bool
    ) throws {
        try list.forEach(from: start, txn) { key, _ in
            guard key.user.utf8.elementsEqual(user.utf8) else { return false }
            if let oldest, key.startInstant < oldest { return false }
            guard let record = try workouts.peek(WorkoutKey(key.workoutId), txn) else { return true }
            return try body(key, record)
        }
    }

    /// The instants between which workouts whose local date lies in `from` … `to` started (a local
    /// date's offset is at most 18 hours either way): the newest bound to start reading at and
    /// the oldest to stop at (nil: unbounded).
    static func instants(from: CivilDate?, to: CivilDate?) -> (newest: Int64?, oldest: Int64?) {
        let day: Int64 = 86_400_000_000, margin: Int64 = 18 * 3_600_000_000
        func start(_ date: CivilDate) -> Int64 { Int64(date.daysSinceEpoch).multipliedReportingOverflow(by: day).partialValue }
        return (to.map { start($0.adding(days: 1)) &+ margin }, from.map { start($0) &- margin })
    }

    /// The active days of a month.
    mutating func calendar(user: String, year: Int, month: Int, _ txn: (any TableReader)?) throws -> MonthCalendar {
        var days: [CivilDate: MonthCalendar.Day] = [:]
        var records: [ActivityRecord] = []
        if let first = CivilDate(year: year, month: month, day: 1) {
            let (newest, oldest) = Self.instants(from: first, to: first.adding(days: CivilDate.daysIn(month: month, year: year) - 1))
            try forEachCounted(user: user, from: ActivityListKey(user, newest ?? .max, ""), oldest: oldest, txn) { _, record in
                records.append(record)
                return true
            }
        }
        for record in records where record.date.year == year && record.date.month == month {
            var day = days[record.date] ?? MonthCalendar.Day(date: record.date, workouts: 0, movingSeconds: 0, types: [])
            day.workouts += 1
            day.movingSeconds += record.movingSeconds
            if !day.types.contains(record.activityType) { day.types.append(record.activityType) }
            days[record.date] = day
        }
        let sorted = days.values.sorted { $0.date < $1.date }.map { day in
            var day = day
            day.types.sort()
            return day
        }
        return MonthCalendar(year: year, month: month, activeDays: sorted)
    }

    /// Insights over the `days` days ending `today`.
    mutating func insights(user: String, days: Int, today: CivilDate, _ txn: (any TableReader)?) throws -> ActivityInsights {
        let from = today.adding(days: -(days - 1))
        var byType = Array(repeating: ActivityTotals(), count: ActivityType.allCases.count)
        var paceDistance = 0
        var paceSeconds = 0
        var records: [ActivityRecord] = []
        let (newest, oldest) = Self.instants(from: from, to: today)
        try forEachCounted(user: user, from: ActivityListKey(user, newest ?? .max, ""), oldest: oldest, txn) { _, record in
            records.append(record)
            return true
        }
        for record in records where record.date >= from && record.date <= today {
            let index = ActivityType.allCases.firstIndex(of: record.activityType)!
            byType[index].add(ActivityTotals(workouts: 1, distanceMeters: record.distanceMeters, movingSeconds: record.movingSeconds))
            if record.activityType.usesPace {
                paceDistance += record.distanceMeters
                paceSeconds += record.movingSeconds
            }
        }
        var totals = ActivityTotals()
        for value in byType { totals.add(value) }
        let favorite = ActivityType.allCases.indices
            .filter { byType[$0].workouts > 0 }
            .max { a, b in
                (byType[a].workouts, byType[a].movingSeconds, -a) < (byType[b].workouts, byType[b].movingSeconds, -b)
            }
            .map { ActivityType.allCases[$0] }
        return ActivityInsights(
            from: from, to: today, workouts: totals.workouts, distanceMeters: totals.distanceMeters,
            movingSeconds: totals.movingSeconds,
            averagePaceSecondsPerKm: paceDistance > 0 ? Double(paceSeconds) / (Double(paceDistance) / 1000) : nil,
            favoriteType: favorite,
            byType: ActivityType.allCases.enumerated().compactMap { index, type in
                byType[index].isEmpty ? nil : TypeTotals(type: type, totals: byType[index])
            })
    }
}
