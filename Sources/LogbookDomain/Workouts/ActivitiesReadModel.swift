import EventLog

/// Activities: every workout with its details and status, each user's list of counted workouts
/// (newest first), the import index (source kind + id → workout), each user's active workout,
/// the recorded tracks (one row per `workout.track_recorded` part) and the pauses of recorded
/// workouts.
///
/// The list holds only primaries; the embedded ``WorkoutGroups`` says which workouts
/// they are and, for the detail, each workout's group. Each block of 32 days (``DayBlock``) of
/// a user's workouts has a stamp: the last position that changed a workout started in it, so
/// what queries work out from a block can be kept until it changes.
struct ActivitiesReadModel: CountsPrimaries {
    static let kind = ReadModelKind.activities
    /// 2: records carry elapsed time, maximum heart rate and track sizes; laps in their full form; tracks.
    /// 3: the pauses of recorded workouts.
    /// 4: each track's climb and heart-rate sums (``TrackSummary``), for the stats summary.
    /// 5: only the primaries of groups of the same activity are listed.
    /// 6: block stamps.
    static let codeVersion = 6

    static let folds = Folds<ActivitiesReadModel>()
        .on(.workoutStarted) { try $0.onWorkoutStarted($1, $2, $3) }
        .on(.workoutPaused) { try $0.onWorkoutPaused($1, $2, $3) }
        .on(.workoutResumed) { try $0.onWorkoutResumed($1, $2, $3) }
        .on(.workoutFinished) { try $0.onWorkoutFinished($1, $2, $3) }
        .on(.workoutDiscarded) { try $0.onWorkoutDiscarded($1, $2, $3) }
        .on(.workoutImported) { try $0.onWorkoutImported($1, $2, $3) }
        .on(.workoutEdited) { try $0.onWorkoutEdited($1, $2, $3) }
        .on(.workoutTrackRecorded) { try $0.onWorkoutTrackRecorded($1, $2, $3) }
        .on(.workoutDeleted) { try $0.onWorkoutDeleted($1, $2, $3) }
        .grouping()

    var workouts: ReadModelTable<WorkoutKey, ActivityRecord>
    var list: ReadModelTable<ActivityListKey, Marker>
    var imports: ReadModelTable<ImportKey, TextValue>
    var active: ReadModelTable<UserKey, TextValue>
    var tracks: ReadModelTable<TrackPartKey, TrackPartValue>
    var pauses: ReadModelTable<WorkoutKey, WorkoutPauses>
    var trackSummaries: ReadModelTable<WorkoutKey, TrackSummary>
    /// Per user and block (keyed by its first day): the last position that changed a workout started in it.
    var blocks: ReadModelTable<UserDayKey, BlockStamp>
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
        blocks = tables.table("blocks")
    }

    /// Stores `record`, stamping its block with `fold`'s position (a workout's start never changes,
    /// so neither does its block).
    private mutating func save(_ record: ActivityRecord, _ fold: FoldEvent) {
        workouts.set(WorkoutKey(record.workoutId), record)
        blocks.set(UserDayKey(record.user, DayBlock.first(of: Int32(record.date.daysSinceEpoch))), BlockStamp(fold.position))
    }

    mutating func onWorkoutStarted(_ e: WorkoutStarted, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        save(ActivityRecord(
            workoutId: e.workoutId, user: user, activityType: e.activityType, status: .running, startedAt: e.startedAt,
            source: e.source), fold)
        active.set(UserKey(user), TextValue(e.workoutId))
        try groups.started(e, user: user, position: fold.position, txn)
    }

    mutating func onWorkoutPaused(_ e: WorkoutPauseChange, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(e.workoutId), txn), record.status == .running else { return }
        record.status = .paused
        save(record, fold)
        try pauses.modify(WorkoutKey(e.workoutId), txn, initial: { WorkoutPauses() }) {
            $0.pauses.append(WorkoutPause(pausedAt: e.at, resumedAt: nil))
        }
    }

    mutating func onWorkoutResumed(_ e: WorkoutPauseChange, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(e.workoutId), txn), record.status == .paused else { return }
        record.status = .running
        save(record, fold)
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
        save(record, fold)
        try clearActive(record.user, e.workoutId, txn)
        try apply(groups.finished(e, txn), fold, txn)
    }

    mutating func onWorkoutDiscarded(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(e.workoutId), txn), record.status.isActive else { return }
        record.status = .discarded
        save(record, fold)
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
        save(record, fold)
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
        save(record, fold)
        try summarize(e, txn)
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
        list.set(ActivityListKey(record.user, record.startedAt.instant, e.workoutId), nil)
        if let sourceId = record.source.sourceId, record.source.kind != .manual,
           try imports.get(ImportKey(record.user, record.source.kind, sourceId), txn)?.text == e.workoutId {
            imports.set(ImportKey(record.user, record.source.kind, sourceId), nil)
        }
        try clearActive(record.user, e.workoutId, txn)
        record.status = .deleted
        record.countedPosition = 0
        save(record, fold)
    }

    /// Lists a workout (it counts from `fold` on) or takes it off the list.
    mutating func setCounts(_ workoutId: String, _ counts: Bool, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var record = try workouts.get(WorkoutKey(workoutId), txn), (record.countedPosition != 0) != counts else { return }
        record.countedPosition = counts ? fold.position : 0
        save(record, fold)
        list.set(ActivityListKey(record.user, record.startedAt.instant, workoutId), counts ? Marker() : nil)
    }

    private mutating func update(_ workoutId: String, _ fold: FoldEvent, _ txn: (any TableReader)?, _ body: (inout ActivityRecord) -> Void) throws {
        guard var record = try workouts.get(WorkoutKey(workoutId), txn) else { return }
        body(&record)
        save(record, fold)
    }

    private mutating func clearActive(_ user: String, _ workoutId: String, _ txn: (any TableReader)?) throws {
        if try active.get(UserKey(user), txn)?.text == workoutId { active.set(UserKey(user), nil) }
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&workouts)
        try visitor.visit(&list)
        try visitor.visit(&blocks)
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
