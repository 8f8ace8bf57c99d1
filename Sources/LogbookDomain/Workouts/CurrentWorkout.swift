public import EventLog

/// One pause of a recorded workout: when it began and, unless it still lasts, when the workout
/// resumed.
public struct WorkoutPause: Sendable, Hashable, Codable {
    public var pausedAt: Timestamp
    public var resumedAt: Timestamp?

    public init(pausedAt: Timestamp, resumedAt: Timestamp?) {
        self.pausedAt = pausedAt
        self.resumedAt = resumedAt
    }
}

/// The user's running or paused workout as a live screen shows it (`GET …/workouts/current`):
/// elapsed and moving time so far as of `now`, its pauses, and what its track holds so far.
public struct CurrentWorkout: Sendable, Hashable, Codable {
    public var workoutId: String
    public var activityType: ActivityType
    /// Running or paused.
    public var status: WorkoutStatus
    public var startedAt: Timestamp
    /// The moment the times are measured at (the clock's, in the start's offset).
    public var now: Timestamp
    /// Whole seconds from the start to `now`, pauses included.
    public var elapsedSeconds: Int
    /// Whole seconds from the start to `now`, pauses left out.
    public var movingSeconds: Int
    /// The pauses in order; the last one lasts while the workout is paused.
    public var pauses: [WorkoutPause]
    /// Points of the track recorded so far.
    public var trackPoints: Int
    /// The last distance the track recorded so far, in metres (nil without a distance column).
    public var distanceMeters: Int?

    /// The workout `record` with `pauses` as of `now`. Pause times are clamped to the start and
    /// `now`, and time paused twice (pauses whose times overlap) counts once.
    init(record: ActivityRecord, pauses: [WorkoutPause], lastTrackPart: TrackSamples?, now: Timestamp) {
        workoutId = record.workoutId
        activityType = record.activityType
        status = record.status
        startedAt = record.startedAt
        self.now = Timestamp(microsecondsSinceEpoch: now.instant, utcOffsetSeconds: record.startedAt.utcOffsetSeconds)
        self.pauses = pauses
        trackPoints = record.trackPoints
        let start = record.startedAt.instant
        let end = max(start, now.instant)
        let intervals = pauses.map { pause -> (from: Int64, to: Int64) in
            let from = min(max(pause.pausedAt.instant, start), end)
            return (from, min(max(pause.resumedAt?.instant ?? end, from), end))
        }.sorted { $0.from < $1.from }
        var paused: Int64 = 0
        var covered = start
        for interval in intervals where interval.to > covered {
            paused += interval.to - max(interval.from, covered)
            covered = interval.to
        }
        elapsedSeconds = Int((end - start) / 1_000_000)
        movingSeconds = Int((end - start - paused) / 1_000_000)
        distanceMeters = lastTrackPart?[.distanceCentimeters]?.last(where: { $0 != nil }).flatMap { $0 }.map { $0 / 100 }
    }
}

extension ReadModelSet {
    /// The user's running or paused workout as of `now`, nil when there is none.
    package mutating func currentWorkout(user: String, now: Timestamp, _ txn: (any TableReader)?) throws -> CurrentWorkout? {
        guard let id = try activities.active.get(UserKey(user), txn)?.text,
              let record = try activities.workouts.get(WorkoutKey(id), txn), record.user == user, record.status.isActive
        else { return nil }
        let pauses = try activities.pauses.get(WorkoutKey(id), txn)?.pauses ?? []
        return CurrentWorkout(record: record, pauses: pauses, lastTrackPart: try activities.lastTrackPart(of: record, txn), now: now)
    }
}

extension ActivitiesReadModel {
    /// The last part of the workout's recorded track (parts are numbered from 0 in the order they
    /// arrive), nil without a track.
    mutating func lastTrackPart(of record: ActivityRecord, _ txn: (any TableReader)?) throws -> TrackSamples? {
        guard record.trackParts > 0 else { return nil }
        return try tracks.get(TrackPartKey(record.workoutId, record.trackParts - 1), txn)?.samples
    }
}
