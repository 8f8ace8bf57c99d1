import BinaryCoding
public import EventLog

/// A milestone a user earned, with the event and the day that earned it.
public struct Collectible: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    /// The log position of the event that earned it.
    public var position: UInt64
    public var date: CivilDate

    init(_ milestone: Milestone, position: UInt64, date: CivilDate) {
        id = milestone.id
        title = milestone.title
        self.position = position
        self.date = date
    }
}

/// A milestone a user can earn: what it is called, what earns it, and the number that measures
/// the way there (earned when the measure reaches `target`).
public struct Milestone: Sendable, Hashable {
    public let id: String
    public let title: String
    /// What earns it, for people.
    public let earnedBy: String
    public let target: Int
    /// The measure's unit: `workouts`, `m`, `steps` or `days`.
    public let unit: String

    public static let firstWorkout = Milestone(id: "first_workout", title: "First workout", earnedBy: "Finish or import a workout", target: 1, unit: "workouts")
    public static let first5k = Milestone(id: "first_5k", title: "First 5 km", earnedBy: "One workout of at least 5 km", target: 5_000, unit: "m")
    public static let marathon = Milestone(id: "marathon", title: "A marathon in one workout", earnedBy: "One workout of at least 42.195 km", target: 42_195, unit: "m")
    public static let tenWorkouts = Milestone(id: "ten_workouts", title: "Ten workouts", earnedBy: "Ten counted workouts", target: 10, unit: "workouts")
    public static let total100km = Milestone(id: "total_100km", title: "100 km in total", earnedBy: "100 km over all counted workouts", target: 100_000, unit: "m")
    public static let steps10kDay = Milestone(id: "steps_10k_day", title: "A 10,000-step day", earnedBy: "10,000 steps in one day", target: 10_000, unit: "steps")
    public static let goalStreak7 = Milestone(id: "goal_streak_7", title: "A 7-day goal streak", earnedBy: "Meet the daily goal seven days in a row", target: 7, unit: "days")

    /// Every milestone, in the order a medals screen lists them.
    public static let all: [Milestone] = [.firstWorkout, .first5k, .marathon, .tenWorkouts, .total100km, .steps10kDay, .goalStreak7]
}

/// One milestone on the way: how far the user has come (capped at the target), and when it was
/// earned if it was.
public struct CollectibleProgress: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var earnedBy: String
    public var progress: Int
    public var target: Int
    public var unit: String
    public var earned: Bool
    /// The log position of the event that earned it (absent until earned).
    public var position: UInt64?
    /// The local day it was earned on (absent until earned).
    public var date: CivilDate?

    init(_ milestone: Milestone, measure: Int, earned: Collectible?) {
        id = milestone.id
        title = milestone.title
        earnedBy = milestone.earnedBy
        target = milestone.target
        unit = milestone.unit
        // Earned is the ledger's word (the measure reaches the target exactly when it is earned).
        progress = earned == nil ? min(measure, milestone.target) : milestone.target
        self.earned = earned != nil
        position = earned?.position
        date = earned?.date
    }
}

/// Key of a ledger entry: a user, the position at which a workout came to count, the workout.
struct UserPositionWorkoutKey: TableKey {
    let user: String
    let position: UInt64
    let workoutId: String
    init(_ user: String, _ position: UInt64, _ workoutId: String) {
        self.user = user
        self.position = position
        self.workoutId = workoutId
    }
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyInt(Int64(bitPattern: position)); w.keyString(workoutId) }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        position = UInt64(bitPattern: try KeyReader.int(s, &o))
        workoutId = try KeyReader.string(s, &o)
    }
    static func < (a: UserPositionWorkoutKey, b: UserPositionWorkoutKey) -> Bool {
        if !a.user.utf8.elementsEqual(b.user.utf8) { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        if a.position != b.position { return a.position < b.position }
        return a.workoutId.utf8.lexicographicallyPrecedes(b.workoutId.utf8)
    }
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
    /// Its distance, once finished or imported.
    var distanceMeters: Int
    func encode(into w: inout ByteWriter) {
        w.string(user); w.date(startedOn); w.varint(countedPosition); w.byte(closed ? 1 : 0); w.int(distanceMeters)
    }
    init(user: String, startedOn: CivilDate, countedPosition: UInt64 = 0, closed: Bool = false, distanceMeters: Int = 0) {
        self.user = user
        self.startedOn = startedOn
        self.countedPosition = countedPosition
        self.closed = closed
        self.distanceMeters = distanceMeters
    }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try ByteReader.string(s, &o)
        startedOn = try FieldReader.date(s, &o)
        countedPosition = try ByteReader.varint(s, &o)
        closed = try ByteReader.byte(s, &o) == 1
        distanceMeters = try FieldReader.int(s, &o)
    }
}

/// Collectibles: each user's ledger of counted workouts in the order they came to count (a
/// deleted one leaves it, as if never recorded). Workout milestones (first workout, first 5 km,
/// ten workouts, 100 km in total, a marathon) are read off the ledger; step and goal milestones
/// (a 10,000-step day, a 7-day goal streak) off the stats and goals, when queried.
///
/// Only primaries count: a workout enters the ledger when grouping says it counts
/// (several may at one position, so entries are keyed by position and workout id). Each user's
/// ``LedgerTotals`` follow the ledger, so the workout milestones read one record.
struct CollectiblesReadModel: FoldsWorkoutLife {
    static let kind = ReadModelKind.collectibles
    /// 2: only primaries count; ledger keys carry the workout id. 3: the ledger's totals kept.
    static let codeVersion = 3

    static let folds = Folds<CollectiblesReadModel>()
        .workoutLife()
        .on(.workoutTrackRecorded) { try $0.groupTrack($1, $2, $3) }

    var ledger: ReadModelTable<UserPositionWorkoutKey, LedgerEntry>
    var totals: ReadModelTable<UserKey, LedgerTotals>
    var workouts: ReadModelTable<WorkoutKey, LedgerWorkout>
    var groups: WorkoutGroups

    init(_ tables: ReadModelTables) {
        groups = WorkoutGroups(tables)
        ledger = tables.table("ledger")
        totals = tables.table("totals")
        workouts = tables.table("workouts")
    }

    mutating func onWorkoutStarted(_ e: WorkoutStarted, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        workouts.set(WorkoutKey(e.workoutId), LedgerWorkout(user: fold.user, startedOn: e.startedAt.localDate))
        try groups.started(e, user: fold.user, position: fold.position, txn)
    }

    mutating func onWorkoutFinished(_ e: WorkoutFinished, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(e.workoutId), txn), !workout.closed else { return }
        workout.closed = true
        workout.distanceMeters = e.distanceMeters
        workouts.set(WorkoutKey(e.workoutId), workout)
        try apply(groups.finished(e, txn), fold, txn)
    }

    mutating func onWorkoutImported(_ e: WorkoutImported, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try workouts.get(WorkoutKey(e.workoutId), txn) == nil else { return }
        workouts.set(WorkoutKey(e.workoutId), LedgerWorkout(
            user: fold.user, startedOn: e.startedAt.localDate, closed: true, distanceMeters: e.distanceMeters))
        try apply(groups.imported(e, user: fold.user, position: fold.position, txn), fold, txn)
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

    /// A change of type changes no milestone, but may change the workout's group.
    mutating func onWorkoutEdited(_ e: WorkoutEdited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard let type = e.activityType else { return }
        try apply(groups.retyped(e.workoutId, to: type, txn), fold, txn)
    }

    /// Enters a workout in the ledger at `fold` (it counts from there on) or takes it out.
    mutating func setCounts(_ workoutId: String, _ counts: Bool, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var workout = try workouts.get(WorkoutKey(workoutId), txn), (workout.countedPosition != 0) != counts else { return }
        if counts {
            workout.countedPosition = fold.position
            let key = UserPositionWorkoutKey(workout.user, fold.position, workoutId)
            let entry = LedgerEntry(workoutId: workoutId, date: workout.startedOn, distanceMeters: workout.distanceMeters)
            ledger.set(key, entry)
            var current = try totals.get(UserKey(workout.user), txn) ?? LedgerTotals()
            if current.follows(key) {
                current.append(key, entry)
                totals.set(UserKey(workout.user), current)
            } else {
                try sumAgain(workout.user, txn)
            }
        } else {
            let key = UserPositionWorkoutKey(workout.user, workout.countedPosition, workoutId)
            if let entry = try ledger.get(key, txn) {
                ledger.set(key, nil)
                var current = try totals.get(UserKey(workout.user), txn) ?? LedgerTotals()
                if current.remove(key, entry) {
                    totals.set(UserKey(workout.user), current)
                } else {
                    try sumAgain(workout.user, txn)
                }
            }
            workout.countedPosition = 0
        }
        workouts.set(WorkoutKey(workoutId), workout)
    }

    /// Works `user`'s ledger totals out again from the ledger, in its order; the high-water key
    /// stays (no key the ledger has held is greater).
    private mutating func sumAgain(_ user: String, _ txn: (any TableReader)?) throws {
        let highWater = try totals.get(UserKey(user), txn)?.highWater
        var again = LedgerTotals()
        for (key, entry) in try ledger.records(withPrefix: keyPrefix { $0.keyString(user) }, txn) { again.append(key, entry) }
        if let highWater { again.highWater = highWater }
        totals.set(UserKey(user), again.highWater == nil ? nil : again)
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&ledger)
        try visitor.visit(&totals)
        try visitor.visit(&workouts)
        try groups.visitTables(&visitor)
    }

    /// The workout milestones of `user`, from the ledger's totals, and the measures on the way
    /// to them: workouts counted, the longest one's metres, the metres in total.
    mutating func workoutMilestones(user: String, _ txn: (any TableReader)?) throws -> (earned: [Collectible], measures: [String: Int]) {
        (try totals.get(UserKey(user), txn) ?? LedgerTotals()).milestones
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
