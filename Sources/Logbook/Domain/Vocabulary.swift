public import EventLog

/// The kinds of workout Logbook knows.
public enum ActivityType: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case run, walk, ride, swim, hike, strength, yoga, other

    /// Pace (time per distance) is the natural measure for these; speed for rides.
    public var usesPace: Bool { self == .run || self == .walk || self == .hike }

    public static func < (lhs: ActivityType, rhs: ActivityType) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Where a workout came from.
public enum SourceKind: String, Sendable, Hashable, Codable, CaseIterable {
    case manual, healthkit, garmin, wahoo, strava, file
}

/// The first day of a user's week.
public enum WeekStart: String, Sendable, Hashable, Codable, CaseIterable {
    case monday, sunday
}

/// How a user wants distances shown.
public enum Units: String, Sendable, Hashable, Codable, CaseIterable {
    case metric, imperial
}

/// The two kinds of place in the catalog.
public enum PlaceCategory: String, Sendable, Hashable, Codable, CaseIterable {
    case restaurant, activity
}

/// Right: interested (saved). Left: not interested (hidden).
public enum SwipeDirection: String, Sendable, Hashable, Codable, CaseIterable {
    case right, left
}

/// A workout's source: its kind and, for imports, the id it has there.
public struct WorkoutSource: Sendable, Hashable, Codable {
    public var kind: SourceKind
    public var sourceId: String?

    public init(kind: SourceKind, sourceId: String? = nil) {
        self.kind = kind
        self.sourceId = sourceId
    }
}

/// One lap of a workout: distance and timer time, and (schema version 2 of the workout events)
/// what a device file records per lap — start, wall-clock length, energy and heart rate.
public struct Lap: Sendable, Hashable, Codable {
    public var distanceMeters: Int
    /// Timer (moving) time of the lap.
    public var movingSeconds: Int
    /// When the lap began.
    public var startedAt: Timestamp?
    /// Wall-clock length of the lap, pauses included.
    public var elapsedSeconds: Int?
    public var activeKcal: Int?
    public var avgHeartRate: Int?
    public var maxHeartRate: Int?

    public init(
        distanceMeters: Int, movingSeconds: Int, startedAt: Timestamp? = nil, elapsedSeconds: Int? = nil,
        activeKcal: Int? = nil, avgHeartRate: Int? = nil, maxHeartRate: Int? = nil
    ) {
        self.distanceMeters = distanceMeters
        self.movingSeconds = movingSeconds
        self.startedAt = startedAt
        self.elapsedSeconds = elapsedSeconds
        self.activeKcal = activeKcal
        self.avgHeartRate = avgHeartRate
        self.maxHeartRate = maxHeartRate
    }
}

/// One step-count sample from a device: `count` steps between `start` and `end`.
public struct StepSample: Sendable, Hashable, Codable {
    public var start: Timestamp
    public var end: Timestamp
    public var count: Int
    /// Free text naming the device, e.g. `phone` or `watch`.
    public var source: String

    public init(start: Timestamp, end: Timestamp, count: Int, source: String) {
        self.start = start
        self.end = end
        self.count = count
        self.source = source
    }
}
