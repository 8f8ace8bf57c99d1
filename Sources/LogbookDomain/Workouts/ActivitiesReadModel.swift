public import EventLog

/// Activities: every workout with its details and status, each user's list of counted workouts
/// (newest first, each entry with what the stats summary sums of it), the import index (source kind + id → workout), each user's active workout,
/// the recorded tracks (one row per `workout.track_recorded` part) and the pauses of recorded
/// workouts.
///
/// The list holds only primaries; the embedded ``WorkoutGroups`` says which workouts
/// they are and, for the detail, each workout's group. Each block of 32 days (``DayBlock``) with
/// listed workouts has their sums (``BlockSums``), kept as the list changes, so a stats summary
/// over years reads a record per block.
struct ActivitiesReadModel: FoldsWorkoutLife {
    static let kind = ReadModelKind.activities
    /// 2: records carry elapsed time, maximum heart rate and track sizes; laps in their full form; tracks.
    /// 3: the pauses of recorded workouts.
    /// 4: each track's climb and heart-rate sums (``TrackSummary``), for the stats summary.
    /// 5: only the primaries of groups of the same activity are listed.
    /// 6: block stamps.
    /// 7: the list's entries carry what the stats summary sums of each workout (``SummaryFacts``).
    /// 8: each block's sums (``BlockSums``) in place of its stamp.
    static let codeVersion = 8

    static let folds = Folds<ActivitiesReadModel>()
        .workoutLife()
        .on(.workoutPaused) { try $0.onWorkoutPaused($1, $2, $3) }
        .on(.workoutResumed) { try $0.onWorkoutResumed($1, $2, $3) }
        .on(.workoutTrackRecorded) { try $0.onWorkoutTrackRecorded($1, $2, $3) }

    var workouts: ReadModelTable<WorkoutKey, ActivityRecord>
    /// Each user's counted workouts, newest first, each with what the stats summary sums of it.
    var list: ReadModelTable<ActivityListKey, ListedWorkout>
    var imports: ReadModelTable<ImportKey, TextValue>
    var active: ReadModelTable<UserKey, TextValue>
    var tracks: ReadModelTable<TrackPartKey, TrackPartValue>
    var pauses: ReadModelTable<WorkoutKey, WorkoutPauses>
    var trackSummaries: ReadModelTable<WorkoutKey, TrackSummary>
    /// Per user and block (keyed by its first day): the sums of its listed workouts.
    var blockSums: ReadModelTable<UserDayKey, BlockSums>
    var groups: WorkoutGroups

    init(_ tables: ReadModelTables) {
        groups = WorkoutGroups(tables)
        workouts = tables.table("workouts")
        list = tables.table("list")
        imports = tables.table("imports")
        active = tables.table("active")
        tracks = tables.table("tracks")
        pauses = tables.table("pauses")
        trackSummaries = tables.table("trackSummaries")
        blockSums = tables.table("blockSums")
    }

    /// Stores `record`; a listed workout's entry takes its facts as they now stand (the record's,
    /// and its track summary's as stored).
    private mutating func save(_ record: ActivityRecord, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        workouts.set(WorkoutKey(record.workoutId), record)
        if record.countedPosition != 0 {
            try setListed(ActivityListKey(record.user, record.startedAt.instant, record.workoutId), ListedWorkout(try facts(of: record, txn)), txn)
        }
    }

    /// Sets the list entry `key` (nil: takes it off), and keeps the sums of the blocks its old and
    /// new facts fall in as the list then stands: the old workout taken off and the new one added,
    /// or the block summed again from its entries when the one taken off held a best or its
    /// type's first day in the block.
    private mutating func setListed(_ key: ActivityListKey, _ entry: ListedWorkout?, _ txn: (any TableReader)?) throws {
        let old = try list.get(key, txn)
        guard old != entry else { return }
        list.set(key, entry)
        func workout(_ listed: ListedWorkout?) throws -> SummaryWorkout? {
            guard let listed, let facts = try facts(of: key, listed, txn) else { return nil }
            return try SummaryWorkout(id: key.workoutId, startInstant: key.startInstant, facts)
        }
        let (before, after) = (try workout(old), try workout(entry))
        var resummed: Int32?
        if let before {
            let block = DayBlock.first(of: Int32(before.date.daysSinceEpoch))
            var sums = try blockSums.get(UserDayKey(key.user, block), txn) ?? BlockSums()
            if try sums.remove(before) {
                blockSums.set(UserDayKey(key.user, block), sums)
            } else {
                try sumBlock(user: key.user, first: block, txn)
                resummed = block
            }
        }
        if let after {
            let block = DayBlock.first(of: Int32(after.date.daysSinceEpoch))
            // A block summed again already holds the new entry.
            guard block != resummed else { return }
            var sums = try blockSums.get(UserDayKey(key.user, block), txn) ?? BlockSums()
            try sums.add(after)
            blockSums.set(UserDayKey(key.user, block), sums)
        }
    }

    /// Sums `user`'s block starting on day `first` from its list entries.
    private mutating func sumBlock(user: String, first: Int32, _ txn: (any TableReader)?) throws {
        let from = CivilDate(daysSinceEpoch: Int(first))
        var sums = BlockSums()
        try listedWorkouts(user: user, from: from, to: from.adding(days: Int(DayBlock.length) - 1), type: nil, txn) { _, workout in
            try sums.add(workout)
        }
        blockSums.set(UserDayKey(user, first), sums.isEmpty ? nil : sums)
    }

    mutating func onWorkoutStarted(_ e: WorkoutStarted, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        try save(ActivityRecord(
            workoutId: e.workoutId, user: user, activityType: e.activityType, status: .running, startedAt: e.startedAt,
            source: e.source), fold, txn)
        active.set(UserKey(user), TextValue(e.workoutId))
        try groups.started(e, user: user, position: fold.position, txn)
    }

    mutating func onWorkoutPaused(_ e: WorkoutPauseChange, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(e.workoutId), txn), record.status == .running else { return }
        record.status = .paused
        try save(record, fold, txn)
        try pauses.modify(WorkoutKey(e.workoutId), txn, initial: { WorkoutPauses() }) {
            $0.pauses.append(WorkoutPause(pausedAt: e.at, resumedAt: nil))
        }
    }

    mutating func onWorkoutResumed(_ e: WorkoutPauseChange, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(e.workoutId), txn), record.status == .paused else { return }
        record.status = .running
        try save(record, fold, txn)
        try pauses.modifyIfPresent(WorkoutKey(e.workoutId), txn) { recorded in
            if let last = recorded.pauses.indices.last, recorded.pauses[last].resumedAt == nil { recorded.pauses[last].resumedAt = e.at }
        }
    }

    mutating func onWorkoutFinished(_ e: WorkoutFinished, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(e.workoutId), txn), record.status.isActive else { return }
        record.status = .finished
        record.endedAt = e.endedAt
        record.distanceMeters = e.distanceMeters
        record.movingSeconds = e.movingSeconds
        record.steps = e.steps
        record.activeKcal = e.activeKcal
        record.avgHeartRate = e.avgHeartRate
        record.laps = e.laps
        try save(record, fold, txn)
        try clearActive(record.user, e.workoutId, txn)
        try apply(groups.finished(e, txn), fold, txn)
    }

    mutating func onWorkoutDiscarded(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(e.workoutId), txn), record.status.isActive else { return }
        record.status = .discarded
        try save(record, fold, txn)
        try clearActive(record.user, e.workoutId, txn)
        try apply(groups.deleted(e.workoutId, txn), fold, txn)
    }

    mutating func onWorkoutImported(_ e: WorkoutImported, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        let record = ActivityRecord(
            workoutId: e.workoutId, user: user, activityType: e.activityType, status: .finished, startedAt: e.startedAt,
            endedAt: e.endedAt, source: e.source, distanceMeters: e.distanceMeters, movingSeconds: e.movingSeconds,
            steps: e.steps, activeKcal: e.activeKcal, avgHeartRate: e.avgHeartRate, laps: e.laps, title: e.title,
            elapsedSeconds: e.elapsedSeconds, maxHeartRate: e.maxHeartRate)
        try save(record, fold, txn)
        if let sourceId = e.source.sourceId { imports.set(ImportKey(user, e.source.kind, sourceId), TextValue(e.workoutId)) }
        try apply(groups.imported(e, user: user, position: fold.position, txn), fold, txn)
    }

    mutating func onWorkoutEdited(_ e: WorkoutEdited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try update(e.workoutId, fold, txn) { record in
            if let title = e.title { record.title = title }
            if let notes = e.notes { record.notes = notes }
            if let type = e.activityType { record.activityType = type }
        }
        if let type = e.activityType { try apply(groups.retyped(e.workoutId, to: type, txn), fold, txn) }
    }

    mutating func onWorkoutTrackRecorded(_ e: WorkoutTrackRecorded, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(e.workoutId), txn), record.status != .deleted,
              try tracks.get(TrackPartKey(e.workoutId, e.part), txn) == nil
        else { return }
        tracks.set(TrackPartKey(e.workoutId, e.part), TrackPartValue(e.samples))
        record.trackParts += 1
        record.trackPoints += e.samples.points
        // Summarized first, so a listed workout's entry takes the new climb and heart rates.
        try summarize(e, txn)
        try save(record, fold, txn)
        try apply(groups.tracked(e, txn), fold, txn)
    }

    /// Adds a track part to its workout's ``TrackSummary``: its heart rates at once, its altitudes
    /// when every part before it is there (then the parts after it that wait too), so the climb is
    /// the whole track's, in part order, whatever order the parts arrived in.
    private mutating func summarize(_ e: WorkoutTrackRecorded, _ txn: (any TableReader)?) throws {
        var summary = try trackSummaries.get(WorkoutKey(e.workoutId), txn) ?? TrackSummary()
        for index in 0..<e.samples.points {
            if let rate = e.samples.value(.heartRate, index) {
                summary.heartRateSum += rate
                summary.heartRateCount += 1
            }
        }
        if e.part == summary.climbParts {
            summary.climb.add(e.samples)
            summary.climbParts += 1
            while let waiting = try tracks.get(TrackPartKey(e.workoutId, summary.climbParts), txn) {
                summary.climb.add(waiting.samples)
                summary.climbParts += 1
            }
        }
        trackSummaries.set(WorkoutKey(e.workoutId), summary)
    }

    mutating func onWorkoutDeleted(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn)?.status != .deleted else { return }
        try apply(groups.deleted(e.workoutId, txn), fold, txn)
        guard var record = try workouts.get(WorkoutKey(e.workoutId), txn) else { return }
        for (key, _) in try tracks.records(in: TrackPartKey(e.workoutId, .min)...TrackPartKey(e.workoutId, .max), txn) {
            tracks.set(key, nil)
        }
        record.trackParts = 0
        record.trackPoints = 0
        pauses.set(WorkoutKey(e.workoutId), nil)
        trackSummaries.set(WorkoutKey(e.workoutId), nil)
        try setListed(ActivityListKey(record.user, record.startedAt.instant, e.workoutId), nil, txn)
        if let sourceId = record.source.sourceId, record.source.kind != .manual,
           try imports.get(ImportKey(record.user, record.source.kind, sourceId), txn)?.text == e.workoutId {
            imports.set(ImportKey(record.user, record.source.kind, sourceId), nil)
        }
        try clearActive(record.user, e.workoutId, txn)
        record.status = .deleted
        record.countedPosition = 0
        try save(record, fold, txn)
    }

    /// Lists a workout (it counts from `fold` on) or takes it off the list.
    mutating func setCounts(_ workoutId: String, _ counts: Bool, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(workoutId), txn), (record.countedPosition != 0) != counts else { return }
        record.countedPosition = counts ? fold.position : 0
        // Listed with its facts by the save; taken off here.
        try save(record, fold, txn)
        if !counts { try setListed(ActivityListKey(record.user, record.startedAt.instant, workoutId), nil, txn) }
    }

    private mutating func update(_ workoutId: String, _ fold: FoldEvent, _ txn: (any TableReader)?, _ body: (inout ActivityRecord) -> Void) throws {
        guard var record = try workouts.get(WorkoutKey(workoutId), txn) else { return }
        body(&record)
        try save(record, fold, txn)
    }

    private mutating func clearActive(_ user: String, _ workoutId: String, _ txn: (any TableReader)?) throws {
        if try active.get(UserKey(user), txn)?.text == workoutId { active.set(UserKey(user), nil) }
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&workouts)
        try visitor.visit(&list)
        try visitor.visit(&blockSums)
        try visitor.visit(&imports)
        try visitor.visit(&active)
        try visitor.visit(&tracks)
        try visitor.visit(&pauses)
        try visitor.visit(&trackSummaries)
        try groups.visitTables(&visitor)
    }
}

extension ReadModelKind {
    /// The activities read model.
    public static let activities = ReadModelKind(declared: "activities")
}

extension ReadModelSet {
    /// The activities read model, changed in place.
    var activities: ActivitiesReadModel {
        get { self[ActivitiesReadModel.self] }
        _modify { yield &self[ActivitiesReadModel.self] }
    }
}

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
            // Int64.min has no negation to store it by (keys hold instants negated, newest first).
            guard let parts = PageCursor.split(cursor, at: "~"), !parts.tail.isEmpty, let instant = Int64(parts.head), instant != .min else {
                throw .invalidArgument(name: "cursor", reason: "not a cursor of this list")
            }
            after = ActivityListKey(user, instant, parts.tail)
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
