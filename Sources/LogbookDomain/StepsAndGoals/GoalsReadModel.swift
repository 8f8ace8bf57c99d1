import BinaryCoding
import EventLog

/// A step goal, with optional active minutes.
public struct Goal: Sendable, Hashable, Codable {
    public var steps: Int
    public var activeMinutes: Int?

    public init(steps: Int, activeMinutes: Int? = nil) {
        self.steps = steps
        self.activeMinutes = activeMinutes
    }

    /// The goal of a day with no explicit goal and no default: 10,000 steps.
    public static let standard = Goal(steps: 10_000)
}

extension Goal: TableValue {
    func encode(into w: inout ByteWriter) { w.int(steps); w.optionalInt(activeMinutes) }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        steps = try FieldReader.int(s, &o)
        activeMinutes = try FieldReader.optionalInt(s, &o)
    }
}

/// Goal progress: each user's explicit goals per local date and the history of their default
/// goal (each default applies from the local day of its `occurredAt` onwards). Steps, active
/// minutes, met days and streaks are worked out when queried, together with the stats.
///
/// Each block of 32 days (``DayBlock``) with explicit goals has a stamp (the last position that
/// changed them), and each user one for their defaults, so what queries work out from a block
/// can be kept until it changes.
struct GoalsReadModel: ReadModel {
    static let kind = ReadModelKind.goals
    /// 2: block and default stamps.
    static let codeVersion = 2

    static let folds = Folds<GoalsReadModel>()
        .on(.goalSet) { try $0.onGoalSet($1, $2, $3) }
        .on(.goalCleared) { try $0.onGoalCleared($1, $2, $3) }
        .on(.goalDefaultSet) { try $0.onGoalDefaultSet($1, $2, $3) }

    var explicit: ReadModelTable<UserDayKey, Goal>
    var defaults: ReadModelTable<UserDayKey, Goal>
    /// Per user and block (keyed by its first day): the last position that changed its explicit goals.
    var blocks: ReadModelTable<UserDayKey, BlockStamp>
    /// Per user: the last position that changed their defaults (which reach every later day).
    var defaultsChanged: ReadModelTable<UserKey, BlockStamp>

    init(_ tables: ReadModelTables) {
        explicit = tables.table("explicit")
        defaults = tables.table("defaults")
        blocks = tables.table("blocks")
        defaultsChanged = tables.table("defaults-changed")
    }

    mutating func onGoalSet(_ e: GoalSet, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        setExplicit(fold, Int32(e.date.daysSinceEpoch), Goal(steps: e.steps, activeMinutes: e.activeMinutes))
    }

    mutating func onGoalCleared(_ e: GoalCleared, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        setExplicit(fold, Int32(e.date.daysSinceEpoch), nil)
    }

    private mutating func setExplicit(_ fold: FoldEvent, _ day: Int32, _ goal: Goal?) {
        explicit.set(UserDayKey(fold.user, day), goal)
        blocks.set(UserDayKey(fold.user, DayBlock.first(of: day)), BlockStamp(fold.position))
    }

    mutating func onGoalDefaultSet(_ e: GoalDefaultSet, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let day = fold.envelope.occurredAt.localDay
        defaults.set(UserDayKey(fold.user, day), Goal(steps: e.steps, activeMinutes: e.activeMinutes))
        defaultsChanged.set(UserKey(fold.user), BlockStamp(fold.position))
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&explicit)
        try visitor.visit(&defaults)
        try visitor.visit(&blocks)
        try visitor.visit(&defaultsChanged)
    }

    /// Where a day's goal came from.
    enum Origin: String, Sendable, Codable { case explicit, `default`, standard }

    /// The goal of each day from `from` to `to`, and where it came from.
    mutating func goals(user: String, from: CivilDate, to: CivilDate, _ txn: (any TableReader)?) throws -> [(Goal, Origin)] {
        let first = Int32(from.daysSinceEpoch)
        let last = Int32(to.daysSinceEpoch)
        guard first <= last else { return [] }
        var explicitGoals: [Int32: Goal] = [:]
        for (key, goal) in try explicit.records(in: UserDayKey(user, first)...UserDayKey(user, last), txn) { explicitGoals[key.day] = goal }
        let history = try defaults.records(in: UserDayKey(user, Int32.min)...UserDayKey(user, last), txn)
        var result: [(Goal, Origin)] = []
        var index = 0
        var current: Goal?
        for day in first...last {
            while index < history.count, history[index].0.day <= day {
                current = history[index].1
                index += 1
            }
            if let goal = explicitGoals[day] {
                result.append((goal, .explicit))
            } else if let current {
                result.append((current, .default))
            } else {
                result.append((.standard, .standard))
            }
        }
        return result
    }
}

extension ReadModelKind {
    /// The goals read model.
    public static let goals = ReadModelKind(declared: "goals")
}

extension ReadModelSet {
    /// The goals read model, changed in place.
    var goals: GoalsReadModel {
        get { self[GoalsReadModel.self] }
        _modify { yield &self[GoalsReadModel.self] }
    }
}
