public import EventLog

/// One personal record: what it is, its value, and the workout and day that set it.
public struct PersonalRecord: Sendable, Hashable, Codable {
    public var kind: RecordKind
    public var workoutId: String
    /// The local date the workout started on.
    public var date: CivilDate
    public var distanceMeters: Int
    public var movingSeconds: Int
    /// The workout's average pace in seconds per kilometre (nil without distance).
    public var paceSecondsPerKm: Double?
    /// The log position at which the workout came to count.
    public var position: UInt64
}

/// A user's personal records for one activity type.
public struct ActivityTypeRecords: Sendable, Hashable, Codable {
    public var activityType: ActivityType
    /// Every record the type has a holder for, in ``RecordKind`` order.
    public var records: [PersonalRecord]
}

/// A user's personal records, per activity type (types without counted workouts are left out).
public struct PersonalRecords: Sendable, Hashable, Codable {
    public var user: String
    public var activityTypes: [ActivityTypeRecords]
}

extension CachedQuery {
    /// Personal records.
    public static let records = CachedQuery(name: "records", reads: [.profiles, .records])
}
