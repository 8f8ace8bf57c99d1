import BinaryCoding
import EventLog

/// Key of a per-user, per-local-day record.
struct UserDayKey: TableKey {
    let user: String
    let day: Int32
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyInt(Int64(day)) }
    init(_ user: String, _ day: Int32) { self.user = user; self.day = day }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        day = try KeyReader.day(s, &o)
    }
    static func < (a: UserDayKey, b: UserDayKey) -> Bool {
        a.user == b.user ? a.day < b.day : a.user.utf8.lexicographicallyPrecedes(b.user.utf8)
    }
}

/// Key of a per-user, per-day, per-step-source record.
struct UserDaySourceKey: TableKey {
    let user: String
    let day: Int32
    let source: String
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyInt(Int64(day)); w.keyString(source) }
    init(_ user: String, _ day: Int32, _ source: String) { self.user = user; self.day = day; self.source = source }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        day = try KeyReader.day(s, &o)
        source = try KeyReader.string(s, &o)
    }
    static func < (a: UserDaySourceKey, b: UserDaySourceKey) -> Bool {
        if a.user != b.user { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        if a.day != b.day { return a.day < b.day }
        return a.source.utf8.lexicographicallyPrecedes(b.source.utf8)
    }
    /// Sources compare as bytes, as the stored keys do (a source in a log written before sources
    /// had to be in NFC may be a decomposed twin of another). Equal bytes hash alike under
    /// `String`'s hashing, so the synthesized hash stays consistent with this.
    static func == (a: UserDaySourceKey, b: UserDaySourceKey) -> Bool {
        a.day == b.day && a.user == b.user && a.source.hasSameBytes(as: b.source)
    }
}

/// Key of a record about one workout.
struct WorkoutKey: TableKey {
    let workoutId: String
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.workoutPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(workoutId) }
    init(_ workoutId: String) { self.workoutId = workoutId }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        workoutId = try KeyReader.string(s, &o)
    }
    static func < (a: WorkoutKey, b: WorkoutKey) -> Bool { a.workoutId.utf8.lexicographicallyPrecedes(b.workoutId.utf8) }
}

/// Totals of one activity type on one day.
public struct ActivityTotals: Sendable, Hashable, Codable {
    public var workouts: Int = 0
    public var distanceMeters: Int = 0
    public var movingSeconds: Int = 0

    public init(workouts: Int = 0, distanceMeters: Int = 0, movingSeconds: Int = 0) {
        self.workouts = workouts
        self.distanceMeters = distanceMeters
        self.movingSeconds = movingSeconds
    }

    mutating func add(_ other: ActivityTotals, sign: Int = 1) {
        workouts += sign * other.workouts
        distanceMeters += sign * other.distanceMeters
        movingSeconds += sign * other.movingSeconds
    }

    var isEmpty: Bool { workouts == 0 && distanceMeters == 0 && movingSeconds == 0 }
}

/// The workouts of one user on one local day, by activity type.
struct DayActivity: TableValue, Equatable {
    /// Indexed by `ActivityType.allCases`.
    var byType: [ActivityTotals] = Array(repeating: ActivityTotals(), count: ActivityType.allCases.count)
    /// The last log position that changed the day.
    var lastPosition: UInt64 = 0

    func encode(into w: inout ByteWriter) {
        var mask: UInt8 = 0
        for (index, totals) in byType.enumerated() where !totals.isEmpty { mask |= 1 << UInt8(index) }
        w.byte(mask)
        for totals in byType where !totals.isEmpty {
            w.int(totals.workouts); w.int(totals.distanceMeters); w.int(totals.movingSeconds)
        }
        w.varint(lastPosition)
    }

    init() {}

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        let mask = try ByteReader.byte(s, &o)
        for index in 0..<ActivityType.allCases.count where mask & (1 << UInt8(index)) != 0 {
            byType[index] = ActivityTotals(
                workouts: try FieldReader.int(s, &o), distanceMeters: try FieldReader.int(s, &o), movingSeconds: try FieldReader.int(s, &o))
        }
        lastPosition = try ByteReader.varint(s, &o)
    }

    var isEmpty: Bool { byType.allSatisfy(\.isEmpty) }
}

/// The steps one source counted on one local day (after de-duplication).
struct SourceSteps: TableValue, Equatable {
    var steps: Int = 0
    var lastPosition: UInt64 = 0

    func encode(into w: inout ByteWriter) { w.int(steps); w.varint(lastPosition) }
    init() {}
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        steps = try FieldReader.int(s, &o)
        lastPosition = try ByteReader.varint(s, &o)
    }
}

/// What the stats fold remembers about a workout, to add it once and take it back exactly.
struct StatsWorkout: TableValue, Equatable {
    var user: String
    var day: Int32
    var type: ActivityType
    var distanceMeters: Int = 0
    var movingSeconds: Int = 0
    var counted = false
    /// Finished, discarded or deleted: nothing more changes its contribution but edits of type.
    var closed = false

    func encode(into w: inout ByteWriter) {
        w.string(user); w.int(Int(day)); w.enumeration(type); w.int(distanceMeters); w.int(movingSeconds)
        w.byte((counted ? 1 : 0) | (closed ? 2 : 0))
    }

    init(user: String, day: Int32, type: ActivityType) {
        self.user = user
        self.day = day
        self.type = type
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try ByteReader.string(s, &o)
        day = Int32(truncatingIfNeeded: try FieldReader.int(s, &o))
        type = try FieldReader.enumeration(s, &o, ActivityType.self)
        distanceMeters = try FieldReader.int(s, &o)
        movingSeconds = try FieldReader.int(s, &o)
        let flags = try ByteReader.byte(s, &o)
        counted = flags & 1 != 0
        closed = flags & 2 != 0
    }

    var totals: ActivityTotals { ActivityTotals(workouts: 1, distanceMeters: distanceMeters, movingSeconds: movingSeconds) }
}

/// The step samples already counted for one user, source and UTC day, by start and end instant:
/// a bit per minute for minute-aligned one-minute samples (the common case), a sorted list for
/// the rest.
struct CountedSamples: TableValue, Equatable {
    static let minutes = 1440
    var minuteBits: [UInt64] = []
    var others: [Pair] = []

    struct Pair: Equatable, Comparable {
        var start: Int64
        var end: Int64
        static func < (a: Pair, b: Pair) -> Bool { (a.start, a.end) < (b.start, b.end) }
    }

    /// Records a sample; false if the same (start, end) was counted before.
    mutating func insert(start: Int64, end: Int64, dayStart: Int64) -> Bool {
        let minute: Int64 = 60_000_000
        if end - start == minute, (start - dayStart) % minute == 0 {
            let index = Int((start - dayStart) / minute)
            if minuteBits.isEmpty { minuteBits = Array(repeating: 0, count: Self.minutes / 64 + 1) }
            let bit: UInt64 = 1 << UInt64(index % 64)
            if minuteBits[index / 64] & bit != 0 { return false }
            minuteBits[index / 64] |= bit
            return true
        }
        let pair = Pair(start: start, end: end)
        var low = 0
        var high = others.count
        while low < high {
            let mid = (low + high) / 2
            if others[mid] < pair { low = mid + 1 } else { high = mid }
        }
        if low < others.count, others[low] == pair { return false }
        others.insert(pair, at: low)
        return true
    }

    func encode(into w: inout ByteWriter) {
        w.byte(minuteBits.isEmpty ? 0 : 1)
        for word in minuteBits {
            for shift in stride(from: 0, to: 64, by: 8) { w.byte(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        w.varint(UInt64(others.count))
        var previous: Int64 = 0
        for pair in others {
            w.signedVarint(pair.start - previous)
            w.signedVarint(pair.end - pair.start)
            previous = pair.start
        }
    }

    init() {}

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        if try ByteReader.byte(s, &o) == 1 {
            for _ in 0...(Self.minutes / 64) {
                var word: UInt64 = 0
                for shift in stride(from: 0, to: 64, by: 8) { word |= UInt64(try ByteReader.byte(s, &o)) << UInt64(shift) }
                minuteBits.append(word)
            }
        }
        let count = try ByteReader.int(s, &o)
        guard count <= s.count else { throw DecodeFailure(reason: "\(count) samples") }
        var previous: Int64 = 0
        for _ in 0..<count {
            let start = try Self.moved(previous, by: ByteReader.signedVarint(s, &o))
            let end = try Self.moved(start, by: ByteReader.signedVarint(s, &o))
            others.append(Pair(start: start, end: end))
            previous = start
        }
    }

    /// `value` moved by a stored delta; one beyond 64 bits is damage, not a trap.
    private static func moved(_ value: Int64, by delta: Int64) throws(DecodeFailure) -> Int64 {
        let (result, overflow) = value.addingReportingOverflow(delta)
        guard !overflow else { throw DecodeFailure(reason: "a counted sample's time is out of range") }
        return result
    }
}

/// Key of the counted-samples record of one user, source and UTC day.
struct SampleDayKey: TableKey {
    let user: String
    let source: String
    let utcDay: Int32
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyString(source); w.keyInt(Int64(utcDay)) }
    init(_ user: String, _ source: String, _ utcDay: Int32) { self.user = user; self.source = source; self.utcDay = utcDay }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        source = try KeyReader.string(s, &o)
        utcDay = try KeyReader.day(s, &o)
    }
    static func < (a: SampleDayKey, b: SampleDayKey) -> Bool {
        if a.user != b.user { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        if !a.source.hasSameBytes(as: b.source) { return a.source.utf8.lexicographicallyPrecedes(b.source.utf8) }
        return a.utcDay < b.utcDay
    }
    /// Sources compare as bytes, as in ``UserDaySourceKey``.
    static func == (a: SampleDayKey, b: SampleDayKey) -> Bool {
        a.utcDay == b.utcDay && a.user == b.user && a.source.hasSameBytes(as: b.source)
    }
}
