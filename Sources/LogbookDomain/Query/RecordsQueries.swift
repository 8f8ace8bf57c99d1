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

extension Logbook {
    /// The user's personal records: for each activity type, the best average pace over workouts
    /// of at least 1, 5 and 10 km, the longest distance and the longest moving time, each with
    /// the workout and the date that set it (the first to reach the value holds it).
    public func personalRecords(user: String, asOf: AsOf? = nil) async throws -> PersonalRecords {
        try await query(.records, user: user, parameters: "all", asOf: asOf, cost: { 256 * $0.activityTypes.count + 64 }) { projections, txn in
            _ = try Self.requireProfile(user, &projections, txn)
            var types: [ActivityTypeRecords] = []
            for type in ActivityType.allCases {
                let holders = try projections.records.records(user: user, type: type, txn)
                let records = RecordKind.allCases.compactMap { kind -> PersonalRecord? in
                    guard let holder = holders[kind] else { return nil }
                    let entry = holder.entry
                    return PersonalRecord(
                        kind: kind, workoutId: entry.workoutId, date: entry.date, distanceMeters: entry.distanceMeters,
                        movingSeconds: entry.movingSeconds,
                        paceSecondsPerKm: entry.distanceMeters > 0 ? Double(entry.movingSeconds) * 1000 / Double(entry.distanceMeters) : nil,
                        position: holder.position)
                }
                if !records.isEmpty { types.append(ActivityTypeRecords(activityType: type, records: records)) }
            }
            return PersonalRecords(user: user, activityTypes: types)
        }
    }
}
