import BinaryCoding
public import EventLog

/// A milestone a user earned, with the event and the day that earned it.
public struct Collectible: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    /// The log position of the event that earned it.
    public var position: UInt64
    public var date: CivilDate
}

/// A counted workout as the collectibles ledger keeps it.
struct LedgerEntry: TableValue, Equatable {
    var workoutId: String
    var date: CivilDate
    var distanceMeters: Int
    func encode(into w: inout ByteWriter) { w.string(workoutId); w.date(date); w.int(distanceMeters) }
    init(workoutId: String, date: CivilDate, distanceMeters: Int) {
        self.workoutId = workoutId
        self.date = date
        self.distanceMeters = distanceMeters
    }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        workoutId = try ByteReader.string(s, &o)
        date = try FieldReader.date(s, &o)
        distanceMeters = try FieldReader.int(s, &o)
    }
}

/// Where a workout stands in the collectibles ledger.
struct LedgerWorkout: TableValue {
    var user: String
    var startedOn: CivilDate
    /// The ledger position it counts at, 0 while it does not count.
    var countedPosition: UInt64
    var closed: Bool
    func encode(into w: inout ByteWriter) { w.string(user); w.date(startedOn); w.varint(countedPosition); w.byte(closed ? 1 : 0) }
    init(user: String, startedOn: CivilDate, countedPosition: UInt64 = 0, closed: Bool = false) {
        self.user = user
        self.startedOn = startedOn
        self.countedPosition = countedPosition
        self.closed = closed
    }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try ByteReader.string(s, &o)
        startedOn = try FieldReader.date(s, &o)
        countedPosition = try ByteReader.varint(s, &o)
        closed = try ByteReader.byte(s, &o) == 1
    }
}

/// Collectibles: each user's ledger of counted workouts in the order they came to count (a
/// deleted one leaves it, as if never recorded). Workout milestones (first workout, first 5 km,
/// ten workouts, 100 km in total, a marathon) are read off the ledger; step and goal milestones
/// (a 10,000-step day, a 7-day goal streak) off the stats and goals, when queried.
struct CollectiblesReadModel: ReadModel {
    static let kind = ReadModelKind.collectibles
    static let codeVersion = 1

    static let folds = Folds<CollectiblesReadModel>()
        .on(.workoutStarted) { try $0.onWorkoutStarted($1, $2, $3) }
        .on(.workoutFinished) { try $0.onWorkoutFinished($1, $2, $3) }
        .on(.workoutImported) { try $0.onWorkoutImported($1, $2, $3) }
        .on(.workoutDiscarded) { try $0.onWorkoutDiscarded($1, $2, $3) }
        .on(.workoutDeleted) { try $0.onWorkoutDeleted($1, $2, $3) }

    var ledger: ReadModelTable<UserPositionKey, LedgerEntry>
    var workouts: ReadModelTable<WorkoutKey, LedgerWorkout>

    init(_ tables: ReadModelTables) {
        ledger = tables.table("ledger")
        workouts = tables.table("workouts")
    }

    mutating func onWorkoutStarted(_ e: WorkoutStarted, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        workouts.set(WorkoutKey(e.workoutId), LedgerWorkout(user: fold.user, startedOn: e.startedAt.localDate))
    }

    mutating func onWorkoutFinished(_ e: WorkoutFinished, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn), !workout.closed else { return }
        workout.closed = true
        workout.countedPosition = fold.position
        ledger.set(UserPositionKey(workout.user, fold.position),
                   LedgerEntry(workoutId: e.workoutId, date: workout.startedOn, distanceMeters: e.distanceMeters))
        workouts.set(WorkoutKey(e.workoutId), workout)
    }

    mutating func onWorkoutImported(_ e: WorkoutImported, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        workouts.set(WorkoutKey(e.workoutId), LedgerWorkout(
            user: fold.user, startedOn: e.startedAt.localDate, countedPosition: fold.position, closed: true))
        ledger.set(UserPositionKey(fold.user, fold.position),
                   LedgerEntry(workoutId: e.workoutId, date: e.startedAt.localDate, distanceMeters: e.distanceMeters))
    }

    mutating func onWorkoutDiscarded(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn), !workout.closed else { return }
        workout.closed = true
        workouts.set(WorkoutKey(e.workoutId), workout)
    }

    mutating func onWorkoutDeleted(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn) else { return }
        if workout.countedPosition != 0 { ledger.set(UserPositionKey(workout.user, workout.countedPosition), nil) }
        workout.countedPosition = 0
        workout.closed = true
        workouts.set(WorkoutKey(e.workoutId), workout)
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&ledger)
        try visitor.visit(&workouts)
    }

    /// The workout milestones of `user`, from the ledger.
    mutating func workoutMilestones(user: String, _ txn: (any TableReader)?) throws -> [Collectible] {
        let entries = try ledger.records(in: UserPositionKey(user, 0)...UserPositionKey(user, .max), txn)
        var earned: [Collectible] = []
        func earn(_ id: String, _ title: String, _ key: UserPositionKey, _ entry: LedgerEntry) {
            guard !earned.contains(where: { $0.id == id }) else { return }
            earned.append(Collectible(id: id, title: title, position: key.position, date: entry.date))
        }
        var total = 0
        for (index, (key, entry)) in entries.enumerated() {
            earn("first_workout", "First workout", key, entry)
            if entry.distanceMeters >= 5_000 { earn("first_5k", "First 5 km", key, entry) }
            if entry.distanceMeters >= 42_195 { earn("marathon", "A marathon in one workout", key, entry) }
            if index == 9 { earn("ten_workouts", "Ten workouts", key, entry) }
            total += entry.distanceMeters
            if total >= 100_000 { earn("total_100km", "100 km in total", key, entry) }
        }
        return earned
    }
}

extension ReadModelKind {
    /// The collectibles read model.
    public static let collectibles = ReadModelKind(declared: "collectibles")
}

extension ReadModelSet {
    /// The collectibles read model, changed in place.
    var collectibles: CollectiblesReadModel {
        get { self[CollectiblesReadModel.self] }
        _modify { yield &self[CollectiblesReadModel.self] }
    }
}
