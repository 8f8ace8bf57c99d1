import BinaryCoding

/// One workout as ``WorkoutGroups`` keeps it: what the same-activity rule reads, whether it is counted
/// (finished or imported, not deleted), whether it counts (counted and its group's primary), and
/// its group as seen from it (its primary, or the others when it is the primary).
struct GroupMember: TableValue, Equatable {
    var user: String
    var workout: SameActivity.Workout
    /// Finished or imported, and not deleted: in its user's day buckets, part of a group.
    var counted = false
    /// Counted and the primary of its group: what the read models add up.
    var counts = false
    /// The group's primary, when this workout is counted but not the primary.
    var primary: String?
    /// The group's other workouts in log order (first position, then id), when this is the primary.
    var others: [String] = []

    init(user: String, workout: SameActivity.Workout) {
        self.user = user
        self.workout = workout
    }

    func encode(into w: inout ByteWriter) {
        w.string(user)
        w.byte((workout.live ? 1 : 0) | (workout.hasTrack ? 2 : 0) | (workout.hasLaps ? 4 : 0) | (workout.hasHeartRate ? 8 : 0)
               | (counted ? 16 : 0) | (counts ? 32 : 0))
        w.enumeration(workout.kind); w.enumeration(workout.type)
        w.signedVarint(workout.start); w.signedVarint(workout.end)
        w.int(workout.movingSeconds); w.varint(workout.firstPosition)
        if let primary { w.byte(1); w.string(primary) } else { w.byte(0) }
        w.varint(UInt64(others.count))
        for other in others { w.string(other) }
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try ByteReader.string(s, &o)
        let flags = try ByteReader.byte(s, &o)
        let kind = try FieldReader.enumeration(s, &o, SourceKind.self)
        let type = try FieldReader.enumeration(s, &o, ActivityType.self)
        let start = SameActivity.start(try ByteReader.signedVarint(s, &o))
        let end = try ByteReader.signedVarint(s, &o)
        guard end >= start, end <= 1 << 61 else { throw DecodeFailure(reason: "a grouped workout's interval is out of range") }
        workout = SameActivity.Workout(
            live: flags & 1 != 0, kind: kind, type: type, start: start, end: end, hasTrack: flags & 2 != 0,
            hasLaps: flags & 4 != 0, hasHeartRate: flags & 8 != 0, movingSeconds: try FieldReader.int(s, &o),
            firstPosition: try ByteReader.varint(s, &o))
        counted = flags & 16 != 0
        counts = flags & 32 != 0
        primary = try ByteReader.byte(s, &o) == 1 ? try ByteReader.string(s, &o) : nil
        let count = try ByteReader.varint(s, &o)
        guard count <= UInt64(s.count) else { throw DecodeFailure(reason: "\(count) grouped workouts") }
        for _ in 0..<count { others.append(try ByteReader.string(s, &o)) }
    }
}

/// The counted workouts of one user that start on one UTC day, by id in byte order: where the
/// rule looks for a workout's possible duplicates.
struct GroupDay: TableValue, Equatable {
    var workoutIds: [String] = []

    init() {}

    /// Adds `id`, keeping byte order (nothing if it is there already).
    mutating func insert(_ id: String) {
        let index = workoutIds.firstIndex { !$0.utf8.lexicographicallyPrecedes(id.utf8) } ?? workoutIds.count
        if index < workoutIds.count, workoutIds[index].utf8.elementsEqual(id.utf8) { return }
        workoutIds.insert(id, at: index)
    }

    mutating func remove(_ id: String) { workoutIds.removeAll { $0.utf8.elementsEqual(id.utf8) } }

    func encode(into w: inout ByteWriter) {
        w.varint(UInt64(workoutIds.count))
        for id in workoutIds { w.string(id) }
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        let count = try ByteReader.varint(s, &o)
        guard count <= UInt64(s.count) else { throw DecodeFailure(reason: "\(count) workouts in a day") }
        for _ in 0..<count { workoutIds.append(try ByteReader.string(s, &o)) }
    }
}

/// What grouping keeps per user: the workout source kinds the user prefers (the profile's
/// `preferredWorkoutSources`) and the most UTC days any counted workout of theirs has spanned
/// (how far back a search for overlapping workouts must look).
struct GroupUser: TableValue, Equatable {
    var preference: [SourceKind] = []
    var longestSpanDays: Int = 0

    init() {}

    func encode(into w: inout ByteWriter) {
        w.varint(UInt64(preference.count))
        for kind in preference { w.enumeration(kind) }
        w.int(longestSpanDays)
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        let count = try ByteReader.varint(s, &o)
        guard count <= UInt64(SourceKind.allCases.count) else { throw DecodeFailure(reason: "\(count) preferred sources") }
        for _ in 0..<count { preference.append(try FieldReader.enumeration(s, &o, SourceKind.self)) }
        longestSpanDays = try FieldReader.int(s, &o)
        guard (0...402).contains(longestSpanDays) else { throw DecodeFailure(reason: "a span of \(longestSpanDays) days") }
    }
}

/// Key of a pair of workouts a user keeps apart (`workout.kept_separate`): the two ids in byte order.
struct WorkoutPairKey: TableKey {
    let first: String
    let second: String

    /// The pair of `a` and `b`, in byte order.
    init(_ a: String, _ b: String) {
        if b.utf8.lexicographicallyPrecedes(a.utf8) { (first, second) = (b, a) } else { (first, second) = (a, b) }
    }

    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.workoutPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(first); w.keyString(second) }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        first = try KeyReader.string(s, &o)
        second = try KeyReader.string(s, &o)
    }

    static func < (a: WorkoutPairKey, b: WorkoutPairKey) -> Bool {
        if !a.first.utf8.elementsEqual(b.first.utf8) { return a.first.utf8.lexicographicallyPrecedes(b.first.utf8) }
        return a.second.utf8.lexicographicallyPrecedes(b.second.utf8)
    }
}
