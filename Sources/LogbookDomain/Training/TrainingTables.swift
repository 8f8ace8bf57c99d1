import BinaryCoding
import EventLog

/// Key of a record a user names by an id of their own (a target, a planned workout).
struct UserIdKey: TableKey {
    let user: String
    let id: String
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyString(id) }
    init(_ user: String, _ id: String) { self.user = user; self.id = id }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        id = try KeyReader.string(s, &o)
    }
    static func < (a: UserIdKey, b: UserIdKey) -> Bool {
        a.user == b.user ? a.id.utf8.lexicographicallyPrecedes(b.id.utf8) : a.user.utf8.lexicographicallyPrecedes(b.user.utf8)
    }
}

/// Key of one planned workout in a user's plan by date: the local day, then the position of the
/// event that planned it (the plan's order, kept through changes).
struct PlanDayKey: TableKey {
    let user: String
    let day: Int32
    let ordinal: UInt64
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyInt(Int64(day)); w.keyInt(Int64(bitPattern: ordinal)) }
    init(_ user: String, _ day: Int32, _ ordinal: UInt64) { self.user = user; self.day = day; self.ordinal = ordinal }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        day = try KeyReader.day(s, &o)
        ordinal = UInt64(bitPattern: try KeyReader.int(s, &o))
    }
    static func < (a: PlanDayKey, b: PlanDayKey) -> Bool {
        if a.user != b.user { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        return a.day != b.day ? a.day < b.day : a.ordinal < b.ordinal
    }
}

/// Key of a counted workout in its user's day: the local start day, then the workout's id.
struct UserDayWorkoutKey: TableKey {
    let user: String
    let day: Int32
    let workoutId: String
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyInt(Int64(day)); w.keyString(workoutId) }
    init(_ user: String, _ day: Int32, _ workoutId: String) { self.user = user; self.day = day; self.workoutId = workoutId }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        day = try KeyReader.day(s, &o)
        workoutId = try KeyReader.string(s, &o)
    }
    static func < (a: UserDayWorkoutKey, b: UserDayWorkoutKey) -> Bool {
        if a.user != b.user { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        return a.day != b.day ? a.day < b.day : a.workoutId.utf8.lexicographicallyPrecedes(b.workoutId.utf8)
    }
}

/// A training target as the read model keeps it.
package struct TargetRecord: TableValue, Equatable {
    var name: String
    var activityType: ActivityType
    var distanceMeters: Int
    var raceDate: Int32
    var goalSeconds: Int?
    /// The position of the `target.set` that last set it.
    var position: UInt64

    init(_ e: TargetSet, position: UInt64) {
        name = e.name
        activityType = e.activityType
        distanceMeters = e.distanceMeters
        raceDate = Int32(truncatingIfNeeded: e.raceDate.daysSinceEpoch)
        goalSeconds = e.goalSeconds
        self.position = position
    }

    func encode(into w: inout ByteWriter) {
        w.string(name); w.enumeration(activityType); w.int(distanceMeters); w.int(Int(raceDate)); w.optionalInt(goalSeconds); w.varint(position)
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        name = try ByteReader.string(s, &o)
        activityType = try FieldReader.enumeration(s, &o, ActivityType.self)
        distanceMeters = try FieldReader.int(s, &o)
        raceDate = Int32(truncatingIfNeeded: try FieldReader.int(s, &o))
        goalSeconds = try FieldReader.optionalInt(s, &o)
        position = try ByteReader.varint(s, &o)
    }
}

/// A planned workout as the read model keeps it: the whole planned workout and its place in the
/// plan's order (the position of the event that planned it).
package struct PlannedRecord: TableValue, Equatable {
    var date: Int32
    var activityType: ActivityType
    var kind: PlannedKind
    var distanceMeters: Int?
    var durationSeconds: Int?
    var notes: String?
    var ordinal: UInt64

    init(_ e: PlannedWorkout, ordinal: UInt64) {
        date = Int32(truncatingIfNeeded: e.date.daysSinceEpoch)
        activityType = e.activityType
        kind = e.kind
        distanceMeters = e.distanceMeters
        durationSeconds = e.durationSeconds
        notes = e.notes
        self.ordinal = ordinal
    }

    func encode(into w: inout ByteWriter) {
        w.int(Int(date)); w.enumeration(activityType); w.enumeration(kind); w.optionalInt(distanceMeters); w.optionalInt(durationSeconds)
        w.optionalString(notes); w.varint(ordinal)
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        date = Int32(truncatingIfNeeded: try FieldReader.int(s, &o))
        activityType = try FieldReader.enumeration(s, &o, ActivityType.self)
        kind = try FieldReader.enumeration(s, &o, PlannedKind.self)
        distanceMeters = try FieldReader.optionalInt(s, &o)
        durationSeconds = try FieldReader.optionalInt(s, &o)
        notes = try FieldReader.optionalString(s, &o)
        ordinal = try ByteReader.varint(s, &o)
    }
}

/// What the intensity read model keeps of one workout: enough to say when and what it was, and
/// how long it spent at each heart rate.
struct IntensityWorkout: TableValue, Equatable {
    enum State: UInt8 { case open = 0, counted = 1, closed = 2 }

    var user: String
    var day: Int32
    var startedAt: Timestamp
    var activityType: ActivityType
    var state: State = .open
    var distanceMeters = 0
    var movingSeconds = 0
    var averageHeartRate: Int?
    /// The track has at least one point with a heart rate.
    var trackHasRates = false
    /// The last point with a rate (offset in ms, bpm): its rate holds until the next such point.
    var pendingOffsetMillis: Int64 = 0
    var pendingBeatsPerMinute = 0
    /// Milliseconds at each heart rate, by ascending bpm.
    var millisByBeatsPerMinute: [BeatsPerMinuteMillis] = []

    init(user: String, startedAt: Timestamp, activityType: ActivityType) {
        self.user = user
        self.day = Int32(truncatingIfNeeded: startedAt.localDayNumber)
        self.startedAt = startedAt
        self.activityType = activityType
    }

    func encode(into w: inout ByteWriter) {
        w.string(user); w.int(Int(day)); w.signedVarint(startedAt.microsecondsSinceEpoch); w.int(Int(startedAt.utcOffsetSeconds))
        w.enumeration(activityType); w.byte(state.rawValue); w.int(distanceMeters); w.int(movingSeconds); w.optionalInt(averageHeartRate)
        w.byte(trackHasRates ? 1 : 0); w.signedVarint(pendingOffsetMillis); w.int(pendingBeatsPerMinute)
        w.int(millisByBeatsPerMinute.count)
        for entry in millisByBeatsPerMinute { w.int(entry.beatsPerMinute); w.signedVarint(entry.millis) }
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try ByteReader.string(s, &o)
        day = Int32(truncatingIfNeeded: try FieldReader.int(s, &o))
        let micros = try ByteReader.signedVarint(s, &o)
        let offset = try FieldReader.int(s, &o)
        guard let offsetSeconds = Int32(exactly: offset) else { throw DecodeFailure(reason: "UTC offset out of range") }
        startedAt = Timestamp(microsecondsSinceEpoch: micros, utcOffsetSeconds: offsetSeconds)
        activityType = try FieldReader.enumeration(s, &o, ActivityType.self)
        guard let state = State(rawValue: try ByteReader.byte(s, &o)) else { throw DecodeFailure(reason: "unknown workout state") }
        self.state = state
        distanceMeters = try FieldReader.int(s, &o)
        movingSeconds = try FieldReader.int(s, &o)
        averageHeartRate = try FieldReader.optionalInt(s, &o)
        trackHasRates = try ByteReader.byte(s, &o) != 0
        pendingOffsetMillis = try ByteReader.signedVarint(s, &o)
        pendingBeatsPerMinute = try FieldReader.int(s, &o)
        let count = try FieldReader.int(s, &o)
        // Each entry takes at least two bytes: a count beyond that is damage, not a reason to reserve memory.
        guard count >= 0, count <= (s.count - o) / 2 else { throw DecodeFailure(reason: "heart-rate entry count past the end") }
        var entries: [BeatsPerMinuteMillis] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            entries.append(BeatsPerMinuteMillis(beatsPerMinute: try FieldReader.int(s, &o), millis: try ByteReader.signedVarint(s, &o)))
        }
        millisByBeatsPerMinute = entries
    }
}

/// Milliseconds spent at one heart rate.
struct BeatsPerMinuteMillis: Equatable, Sendable {
    var beatsPerMinute: Int
    var millis: Int64
}
