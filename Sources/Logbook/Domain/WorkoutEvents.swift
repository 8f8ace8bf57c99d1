public import EventLog

/// `workout.started`: a live recording begins.
public struct WorkoutStarted: Sendable, Hashable, Codable {
    public var workoutId: String
    public var activityType: ActivityType
    public var startedAt: Timestamp
    public var source: WorkoutSource

    public init(workoutId: String, activityType: ActivityType, startedAt: Timestamp, source: WorkoutSource = .init(kind: .manual)) {
        self.workoutId = workoutId
        self.activityType = activityType
        self.startedAt = startedAt
        self.source = source
    }
}

/// `workout.paused` and `workout.resumed`: the recording stops or goes on.
public struct WorkoutPauseChange: Sendable, Hashable, Codable {
    public var workoutId: String
    public var at: Timestamp

    public init(workoutId: String, at: Timestamp) {
        self.workoutId = workoutId
        self.at = at
    }
}

/// `workout.finished`: the recording ends with its totals.
public struct WorkoutFinished: Sendable, Hashable, Codable {
    public var workoutId: String
    public var endedAt: Timestamp
    public var distanceMeters: Int
    public var movingSeconds: Int
    public var steps: Int?
    public var activeKcal: Int?
    public var avgHeartRate: Int?
    public var laps: [Lap]?

    public init(
        workoutId: String, endedAt: Timestamp, distanceMeters: Int, movingSeconds: Int, steps: Int? = nil,
        activeKcal: Int? = nil, avgHeartRate: Int? = nil, laps: [Lap]? = nil
    ) {
        self.workoutId = workoutId
        self.endedAt = endedAt
        self.distanceMeters = distanceMeters
        self.movingSeconds = movingSeconds
        self.steps = steps
        self.activeKcal = activeKcal
        self.avgHeartRate = avgHeartRate
        self.laps = laps
    }
}

/// `workout.imported`: a finished workout from an external source, in one event.
public struct WorkoutImported: Sendable, Hashable, Codable {
    public var workoutId: String
    public var activityType: ActivityType
    public var startedAt: Timestamp
    public var endedAt: Timestamp
    public var distanceMeters: Int
    public var movingSeconds: Int
    public var steps: Int?
    public var activeKcal: Int?
    public var avgHeartRate: Int?
    public var laps: [Lap]?
    /// Kind and the workout's id at the source (required for imports).
    public var source: WorkoutSource
    public var title: String?
    /// Wall-clock length, pauses included (schema version 2).
    public var elapsedSeconds: Int?
    /// Highest heart rate recorded (schema version 2).
    public var maxHeartRate: Int?

    public init(
        workoutId: String, activityType: ActivityType, startedAt: Timestamp, endedAt: Timestamp, distanceMeters: Int,
        movingSeconds: Int, steps: Int? = nil, activeKcal: Int? = nil, avgHeartRate: Int? = nil, laps: [Lap]? = nil,
        source: WorkoutSource, title: String? = nil, elapsedSeconds: Int? = nil, maxHeartRate: Int? = nil
    ) {
        self.workoutId = workoutId
        self.activityType = activityType
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.distanceMeters = distanceMeters
        self.movingSeconds = movingSeconds
        self.steps = steps
        self.activeKcal = activeKcal
        self.avgHeartRate = avgHeartRate
        self.laps = laps
        self.source = source
        self.title = title
        self.elapsedSeconds = elapsedSeconds
        self.maxHeartRate = maxHeartRate
    }
}

/// `workout.edited`: title, notes or type change.
public struct WorkoutEdited: Sendable, Hashable, Codable {
    public var workoutId: String
    public var title: String?
    public var notes: String?
    public var activityType: ActivityType?

    public init(workoutId: String, title: String? = nil, notes: String? = nil, activityType: ActivityType? = nil) {
        self.workoutId = workoutId
        self.title = title
        self.notes = notes
        self.activityType = activityType
    }
}

/// `workout.discarded` and `workout.deleted`: a workout that counts nowhere.
public struct WorkoutReference: Sendable, Hashable, Codable {
    public var workoutId: String

    public init(workoutId: String) { self.workoutId = workoutId }
}
