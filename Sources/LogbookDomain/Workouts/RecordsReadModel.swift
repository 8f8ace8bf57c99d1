import BinaryCoding
public import EventLog

/// The personal records Logbook keeps, per user and activity type.
public enum RecordKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The best average pace over a workout of at least 1 km.
    case fastest1K = "fastest_1k"
    /// The best average pace over a workout of at least 5 km.
    case fastest5K = "fastest_5k"
    /// The best average pace over a workout of at least 10 km.
    case fastest10K = "fastest_10k"
    /// The longest distance.
    case longestDistance = "longest_distance"
    /// The longest moving time.
    case longestTime = "longest_time"

    /// For the pace records: the distance a workout must reach to count.
    var minimumMeters: Int? {
        switch self {
        case .fastest1K: 1_000
        case .fastest5K: 5_000
        case .fastest10K: 10_000
        case .longestDistance, .longestTime: nil
        }
    }

    /// True when `a` beats `b` at this record (strictly: the first to reach a value holds it).
    func beats(_ a: RecordEntry, _ b: RecordEntry) -> Bool {
        switch self {
        case .fastest1K, .fastest5K, .fastest10K:
            // Lower seconds per metre; compared exactly, as a cross-multiplication of integers.
            Int64(a.movingSeconds) * Int64(b.distanceMeters) < Int64(b.movingSeconds) * Int64(a.distanceMeters)
        case .longestDistance: a.distanceMeters > b.distanceMeters
        case .longestTime: a.movingSeconds > b.movingSeconds
        }
    }

    /// Whether `entry` can hold this record at all.
    func admits(_ entry: RecordEntry) -> Bool {
        guard let minimum = minimumMeters else { return self == .longestTime ? entry.movingSeconds > 0 : entry.distanceMeters > 0 }
        return entry.distanceMeters >= minimum && entry.movingSeconds > 0
    }

    /// How a timeline line names it.
    var phrase: String {
        switch self {
        case .fastest1K: "fastest 1 km"
        case .fastest5K: "fastest 5 km"
        case .fastest10K: "fastest 10 km"
        case .longestDistance: "longest distance"
        case .longestTime: "longest time"
        }
    }
}

/// A counted workout as the records keep it, under the position that made it count.
struct RecordEntry: TableValue, Equatable {
    var workoutId: String
    var date: CivilDate
    var distanceMeters: Int
    var movingSeconds: Int
    func encode(into w: inout ByteWriter) { w.string(workoutId); w.date(date); w.int(distanceMeters); w.int(movingSeconds) }
    init(workoutId: String, date: CivilDate, distanceMeters: Int, movingSeconds: Int) {
        self.workoutId = workoutId
        self.date = date
        self.distanceMeters = distanceMeters
        self.movingSeconds = movingSeconds
    }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        workoutId = try ByteReader.string(s, &o)
        date = try FieldReader.date(s, &o)
        distanceMeters = try FieldReader.int(s, &o)
        movingSeconds = try FieldReader.int(s, &o)
    }
}

/// Key of one counted workout among its user's and type's: in the order they came to count.
struct CountedRecordKey: TableKey {
    let user: String
    let type: ActivityType
    let position: UInt64
    let workoutId: String
    init(_ user: String, _ type: ActivityType, _ position: UInt64, _ workoutId: String) {
        self.user = user
        self.type = type
        self.position = position
        self.workoutId = workoutId
    }
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) {
        w.keyString(user); w.keyString(type.rawValue); w.keyInt(Int64(bitPattern: position)); w.keyString(workoutId)
    }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        guard let type = ActivityType(rawValue: try KeyReader.string(s, &o)) else { throw DecodeFailure(reason: "unknown activity type in a record key") }
        self.type = type
        position = UInt64(bitPattern: try KeyReader.int(s, &o))
        workoutId = try KeyReader.string(s, &o)
    }
    static func < (a: CountedRecordKey, b: CountedRecordKey) -> Bool {
        if a.user != b.user { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        if a.type != b.type { return a.type.rawValue.utf8.lexicographicallyPrecedes(b.type.rawValue.utf8) }
        if a.position != b.position { return a.position < b.position }
        return a.workoutId.utf8.lexicographicallyPrecedes(b.workoutId.utf8)
    }

    /// The key prefix of every counted workout of `user` and `type`.
    static func prefix(_ user: String, _ type: ActivityType) -> [UInt8] {
        keyPrefix { $0.keyString(user); $0.keyString(type.rawValue) }
    }
}

/// The holder of each record of one user and type: the first counted workout (by the position
/// that made it count) to reach the best value.
struct RecordHolders: TableValue {
    var holders: [RecordKind: (position: UInt64, entry: RecordEntry)] = [:]

    init() {}

    /// Takes `entry`, counted at `position`, into the standings: it holds a record it beats, or
    /// reaches first (an earlier position: an entry moved from another type keeps its own; at
    /// one position, the smaller workout id), so the holders do not depend on the order entries
    /// arrive in.
    mutating func admit(_ entry: RecordEntry, at position: UInt64) {
        for kind in RecordKind.allCases where kind.admits(entry) {
            if let holder = holders[kind], !kind.beats(entry, holder.entry),
               kind.beats(holder.entry, entry) || Self.first(holder.position, holder.entry.workoutId, before: position, entry.workoutId) {
                continue
            }
            holders[kind] = (position, entry)
        }
    }

    /// Whether the workout counted at `a` comes before the one counted at `b`: by position, then by id bytes.
    private static func first(_ a: UInt64, _ aId: String, before b: UInt64, _ bId: String) -> Bool {
        a != b ? a < b : aId.utf8.lexicographicallyPrecedes(bId.utf8)
    }

    func encode(into w: inout ByteWriter) {
        for kind in RecordKind.allCases {
            guard let holder = holders[kind] else {
                w.byte(0)
                continue
            }
            w.byte(1)
            w.varint(holder.position)
            holder.entry.encode(into: &w)
        }
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        for kind in RecordKind.allCases where try ByteReader.byte(s, &o) == 1 {
            let position = try ByteReader.varint(s, &o)
            let workoutId = try ByteReader.string(s, &o)
            let date = try FieldReader.date(s, &o)
            let distance = try FieldReader.int(s, &o)
            let moving = try FieldReader.int(s, &o)
            holders[kind] = (position, RecordEntry(workoutId: workoutId, date: date, distanceMeters: distance, movingSeconds: moving))
        }
        guard o == s.count else { throw DecodeFailure(reason: "bytes after record holders") }
    }
}

/// Key of a user's records of one activity type.
struct UserTypeKey: TableKey {
    let user: String
    let type: ActivityType
    init(_ user: String, _ type: ActivityType) { self.user = user; self.type = type }
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyString(type.rawValue) }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        guard let type = ActivityType(rawValue: try KeyReader.string(s, &o)) else { throw DecodeFailure(reason: "unknown activity type in a record key") }
        self.type = type
    }
    static func < (a: UserTypeKey, b: UserTypeKey) -> Bool {
        if a.user != b.user { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        return a.type.rawValue.utf8.lexicographicallyPrecedes(b.type.rawValue.utf8)
    }
}

/// What the records fold remembers about a workout until (and after) it counts.
struct RecordWorkout: TableValue {
    var user: String
    var type: ActivityType
    var startedOn: CivilDate
    /// The position that made it count, 0 while it does not.
    var countedPosition: UInt64 = 0
    var closed = false
    /// Its totals, once finished or imported.
    var distanceMeters = 0
    var movingSeconds = 0
    func encode(into w: inout ByteWriter) {
        w.string(user); w.enumeration(type); w.date(startedOn); w.varint(countedPosition); w.byte(closed ? 1 : 0)
        w.int(distanceMeters); w.int(movingSeconds)
    }
    init(user: String, type: ActivityType, startedOn: CivilDate) { self.user = user; self.type = type; self.startedOn = startedOn }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try ByteReader.string(s, &o)
        type = try FieldReader.enumeration(s, &o, ActivityType.self)
        startedOn = try FieldReader.date(s, &o)
        countedPosition = try ByteReader.varint(s, &o)
        closed = try ByteReader.byte(s, &o) == 1
        distanceMeters = try FieldReader.int(s, &o)
        movingSeconds = try FieldReader.int(s, &o)
    }
}

/// The records a workout broke when it came to count, for its timeline line.
struct RecordFalls: TableValue {
    var kinds: [RecordKind]
    func encode(into w: inout ByteWriter) { w.varint(UInt64(kinds.count)); for kind in kinds { w.enumeration(kind) } }
    init(kinds: [RecordKind]) { self.kinds = kinds }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        let count = try ByteReader.varint(s, &o)
        guard count <= UInt64(s.count) else { throw DecodeFailure(reason: "\(count) broken records") }
        kinds = []
        for _ in 0..<count { kinds.append(try FieldReader.enumeration(s, &o, RecordKind.self)) }
    }
}

/// Personal records: each user's counted workouts per activity type, one record each in the
/// order they came to count (a deleted one leaves, as if never recorded; a new type moves it),
/// and per user and type the holder of each record — the best paces over 1, 5 and 10 km, the
/// longest distance and the longest moving time — kept as workouts count (work of one workout,
/// whatever the history), worked out again from the counted workouts only when a holder leaves;
/// and, per position, the standing records a workout broke when it came to count (the first
/// workout of a type sets records but breaks none), for the timeline. Only primaries count.
struct RecordsReadModel: FoldsWorkoutLife {
    static let kind = ReadModelKind.records
    /// 2: only primaries count. 3: one record per counted workout, and the holders kept (two
    /// workouts counted at one position that tie: the smaller id holds the record).
    static let codeVersion = 3

    static let folds = Folds<RecordsReadModel>()
        .workoutLife()
        .on(.workoutTrackRecorded) { try $0.groupTrack($1, $2, $3) }

    var workouts: ReadModelTable<WorkoutKey, RecordWorkout>
    var counted: ReadModelTable<CountedRecordKey, RecordEntry>
    var holders: ReadModelTable<UserTypeKey, RecordHolders>
    var falls: ReadModelTable<UserPositionKey, RecordFalls>
    var groups: WorkoutGroups

    init(_ tables: ReadModelTables) {
        groups = WorkoutGroups(tables)
        workouts = tables.table("workouts")
        counted = tables.table("counted")
        holders = tables.table("holders")
        falls = tables.table("falls")
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&workouts)
        try visitor.visit(&counted)
        try visitor.visit(&holders)
        try visitor.visit(&falls)
        try groups.visitTables(&visitor)
    }

    mutating func onWorkoutStarted(_ e: WorkoutStarted, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        workouts.set(WorkoutKey(e.workoutId), RecordWorkout(user: fold.user, type: e.activityType, startedOn: e.startedAt.localDate))
        try groups.started(e, user: fold.user, position: fold.position, txn)
    }

    mutating func onWorkoutFinished(_ e: WorkoutFinished, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard let workout = try workouts.get(WorkoutKey(e.workoutId), txn), !workout.closed else { return }
        close(e.workoutId, workout, distance: e.distanceMeters, moving: e.movingSeconds)
        try apply(groups.finished(e, txn), fold, txn)
    }

    mutating func onWorkoutImported(_ e: WorkoutImported, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        let workout = RecordWorkout(user: fold.user, type: e.activityType, startedOn: e.startedAt.localDate)
        close(e.workoutId, workout, distance: e.distanceMeters, moving: e.movingSeconds)
        try apply(groups.imported(e, user: fold.user, position: fold.position, txn), fold, txn)
    }

    /// Closes a finished (or imported) workout with its totals; it counts when grouping says so.
    private mutating func close(_ workoutId: String, _ workout: RecordWorkout, distance: Int, moving: Int) {
        var workout = workout
        workout.distanceMeters = distance
        workout.movingSeconds = moving
        workout.closed = true
        workouts.set(WorkoutKey(workoutId), workout)
    }

    /// Counts a workout from `fold` on, or takes it back out.
    mutating func setCounts(_ workoutId: String, _ counts: Bool, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(workoutId), txn), (workout.countedPosition != 0) != counts else { return }
        if counts {
            try count(workoutId, workout, position: fold.position, txn)
        } else {
            _ = try removeEntry(workoutId, workout, txn)
            workout.countedPosition = 0
            workouts.set(WorkoutKey(workoutId), workout)
        }
    }

    mutating func onWorkoutDiscarded(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn), !workout.closed else { return }
        workout.closed = true
        workouts.set(WorkoutKey(e.workoutId), workout)
        try apply(groups.deleted(e.workoutId, txn), fold, txn)
    }

    mutating func onWorkoutDeleted(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try apply(groups.deleted(e.workoutId, txn), fold, txn)
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn) else { return }
        workout.closed = true
        workouts.set(WorkoutKey(e.workoutId), workout)
    }

    mutating func onWorkoutEdited(_ e: WorkoutEdited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard let type = e.activityType, var workout = try workouts.get(WorkoutKey(e.workoutId), txn), workout.type != type else { return }
        if workout.countedPosition != 0, let moved = try removeEntry(e.workoutId, workout, txn) {
            try insertEntry(moved, user: workout.user, type: type, at: workout.countedPosition, txn)
        }
        workout.type = type
        workouts.set(WorkoutKey(e.workoutId), workout)
        try apply(groups.retyped(e.workoutId, to: type, txn), fold, txn)
    }

    /// Takes a counted workout's entry out of its user's and type's; if it held a record, the
    /// holders are worked out again from the workouts still counted.
    private mutating func removeEntry(_ workoutId: String, _ workout: RecordWorkout, _ txn: (any TableReader)?) throws -> RecordEntry? {
        let key = CountedRecordKey(workout.user, workout.type, workout.countedPosition, workoutId)
        guard let removed = try counted.get(key, txn) else { return nil }
        counted.set(key, nil)
        let holdersKey = UserTypeKey(workout.user, workout.type)
        let standing = try holders.get(holdersKey, txn) ?? RecordHolders()
        guard standing.holders.values.contains(where: { $0.position == key.position && $0.entry.workoutId.utf8.elementsEqual(workoutId.utf8) }) else {
            return removed
        }
        var again = RecordHolders()
        for (other, entry) in try counted.records(withPrefix: CountedRecordKey.prefix(workout.user, workout.type), txn) {
            again.admit(entry, at: other.position)
        }
        holders.set(holdersKey, again.holders.isEmpty ? nil : again)
        return removed
    }

    /// Adds `entry`, counted at `position`, to `user`'s and `type`'s counted workouts and standings.
    private mutating func insertEntry(_ entry: RecordEntry, user: String, type: ActivityType, at position: UInt64, _ txn: (any TableReader)?) throws {
        counted.set(CountedRecordKey(user, type, position, entry.workoutId), entry)
        try holders.modify(UserTypeKey(user, type), txn, initial: { RecordHolders() }) { $0.admit(entry, at: position) }
    }

    /// Counts a finished (or imported) workout: notes the records it breaks (with any another
    /// workout broke at the same position), then keeps it.
    private mutating func count(_ workoutId: String, _ workout: RecordWorkout, position: UInt64, _ txn: (any TableReader)?) throws {
        var workout = workout
        let entry = RecordEntry(
            workoutId: workoutId, date: workout.startedOn, distanceMeters: workout.distanceMeters, movingSeconds: workout.movingSeconds)
        let standing = try records(user: workout.user, type: workout.type, txn)
        let broken = RecordKind.allCases.filter { kind in
            guard kind.admits(entry), let holder = standing[kind] else { return false }
            return kind.beats(entry, holder.entry)
        }
        if !broken.isEmpty {
            let earlier = try falls.get(UserPositionKey(workout.user, position), txn)?.kinds ?? []
            let all = RecordKind.allCases.filter { earlier.contains($0) || broken.contains($0) }
            falls.set(UserPositionKey(workout.user, position), RecordFalls(kinds: all))
        }
        try insertEntry(entry, user: workout.user, type: workout.type, at: position, txn)
        workout.countedPosition = position
        workout.closed = true
        workouts.set(WorkoutKey(workoutId), workout)
    }

    /// The holder of each record of one user and type: the first counted workout to reach the best value.
    mutating func records(user: String, type: ActivityType, _ txn: (any TableReader)?) throws -> [RecordKind: (position: UInt64, entry: RecordEntry)] {
        try holders.get(UserTypeKey(user, type), txn)?.holders ?? [:]
    }
}

extension RecordsReadModel {
    static let notesTimeline = true

    /// "Personal records: fastest 5 km, longest distance" on the line of a workout that broke them.
    mutating func timelineNote(user: String, position: UInt64, _ txn: (any TableReader)?) throws -> String? {
        guard let fell = try falls.get(UserPositionKey(user, position), txn), !fell.kinds.isEmpty else { return nil }
        return (fell.kinds.count == 1 ? "Personal record: " : "Personal records: ") + fell.kinds.map(\.phrase).joined(separator: ", ")
    }
}

extension ReadModelKind {
    /// The personal records read model.
    public static let records = ReadModelKind(declared: "records")
}

extension ReadModelSet {
    /// The personal records read model, changed in place.
    var records: RecordsReadModel {
        get { self[RecordsReadModel.self] }
        _modify { yield &self[RecordsReadModel.self] }
    }
}

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
