import BinaryCoding
public import EventLog

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

/// One day of goal progress.
public struct GoalDay: Sendable, Hashable, Codable {
    public var date: CivilDate
    public var goal: Goal
    /// `explicit` (set for this date), `default` (the user's default then in force) or `standard` (10,000).
    public var origin: String
    public var steps: Int
    /// Moving time of the day's counted workouts, in whole minutes (``movingSeconds`` / 60, rounded down).
    public var activeMinutes: Int
    /// Moving time of the day's counted workouts, in seconds: what ``activeMinutes`` is made of.
    public var movingSeconds: Int
    public var met: Bool
}

/// Current and longest runs of met days, as of a day.
public struct Streaks: Sendable, Hashable, Codable {
    /// The day the streaks are counted up to (nil: the user has no data).
    public var asOf: CivilDate?
    /// Consecutive met days ending on `asOf` (0 if that day is not met).
    public var current: Int
    /// The longest run of met days up to `asOf`.
    public var longest: Int

    public init(asOf: CivilDate?, current: Int, longest: Int) {
        self.asOf = asOf
        self.current = current
        self.longest = longest
    }
}

/// One week of goal progress.
public struct GoalWeek: Sendable, Hashable, Codable {
    public var user: String
    public var weekStart: CivilDate
    public var days: [GoalDay]
    public var daysMet: Int
    public var steps: Int
    /// The sum of the days' whole active minutes.
    public var activeMinutes: Int
    /// The sum of the days' moving seconds.
    public var movingSeconds: Int
    /// Streaks as of the week's last day (or the last day with data, if earlier).
    public var streaks: Streaks
}

extension ReadModelSet {
    /// Goal progress of every day from `from` to `to`.
    mutating func goalDays(user: String, profile: Profile, from: CivilDate, to: CivilDate, _ txn: (any TableReader)?) throws -> [GoalDay] {
        let rows = try stats.period(user: user, from: from, to: to, preferredSource: profile.preferredStepSource, txn).days
        return try goalDays(user: user, rows: rows, from: from, to: to, txn)
    }

    /// Goal progress of the days of `rows`, the user's stats of every day from `from` to `to`
    /// (for a caller that reads those rows for more than the goals).
    private mutating func goalDays(user: String, rows: [DayStats], from: CivilDate, to: CivilDate, _ txn: (any TableReader)?) throws -> [GoalDay] {
        let goals = try goals.goals(user: user, from: from, to: to, txn)
        return zip(rows, goals).map { day, goal in
            let minutes = day.movingSeconds / 60
            let met = day.steps >= goal.0.steps && (goal.0.activeMinutes.map { minutes >= $0 } ?? true)
            return GoalDay(
                date: day.date, goal: goal.0, origin: goal.1.rawValue, steps: day.steps, activeMinutes: minutes,
                movingSeconds: day.movingSeconds, met: met)
        }
    }

    /// The user's goal days, block by block (``DayBlock``) in order, through the block holding
    /// `last` (nil: all): every block with stats records, each day with its steps, whether its goal
    /// was met and the last position that changed it. A day outside these blocks, or with no
    /// stats in one, has no data, so it meets no goal (a goal is at least one step): the work
    /// follows the blocks the user has data in, not the span between the earliest and latest date
    /// their samples carry (which a caller chooses, from the year 1 to 9999). Blocks kept in
    /// ``goalDayBlocks`` under the same stamps are not worked out again.
    mutating func goalBlocks(user: String, profile: Profile, through last: CivilDate? = nil, _ txn: (any TableReader)?) throws -> [(first: Int32, days: [GoalDayBlocks.Day])] {
        let upper = UserDayKey(user, last.map { DayBlock.first(of: Int32($0.daysSinceEpoch)) } ?? Int32.max)
        let statsStamps = unstampedDays ? try unstampedBlocks(user: user, through: upper.day, txn) : try stats.blocks.records(in: UserDayKey(user, Int32.min)...upper, txn)
        guard !statsStamps.isEmpty else { return [] }
        var goalStamps: [Int32: UInt64] = [:]
        for (key, stamp) in try goals.blocks.records(in: UserDayKey(user, Int32.min)...upper, txn) { goalStamps[key.day] = stamp.position }
        let defaults = try goals.defaultsChanged.get(UserKey(user), txn)?.position ?? 0
        let kept = unstampedDays ? nil : goalDayBlocks
        let name = BytewiseString(user)
        var blocks: [(first: Int32, days: [GoalDayBlocks.Day])] = []
        blocks.reserveCapacity(statsStamps.count)
        for (key, stamp) in statsStamps {
            let blockKey = GoalDayBlocks.Key(
                user: name, first: key.day, stats: stamp.position, goals: goalStamps[key.day] ?? 0, defaults: defaults,
                source: profile.preferredStepSource.map(BytewiseString.init))
            if let days = kept?.value(blockKey) {
                blocks.append((key.day, days))
                continue
            }
            let from = CivilDate(daysSinceEpoch: Int(key.day))
            let to = from.adding(days: Int(DayBlock.length) - 1)
            let rows = try stats.period(user: user, from: from, to: to, preferredSource: profile.preferredStepSource, txn).days
            let days = zip(rows, try goalDays(user: user, rows: rows, from: from, to: to, txn)).map { row, day in
                GoalDayBlocks.Day(steps: row.steps, lastPosition: row.lastPosition, met: day.met)
            }
            kept?.keep(days, under: blockKey)
            blocks.append((key.day, days))
        }
        return blocks
    }

    /// The blocks holding the user's day and step records through the block starting `last`,
    /// from the records themselves (tables an older code version built keep no stamps), each
    /// with no stamp: none of them is kept.
    private mutating func unstampedBlocks(user: String, through last: Int32, _ txn: (any TableReader)?) throws -> [(UserDayKey, BlockStamp)] {
        let prefix = keyPrefix { $0.keyString(user) }
        let days = try stats.days.records(withPrefix: prefix, txn).map(\.0.day) + stats.steps.records(withPrefix: prefix, txn).map(\.0.day)
        return Set(days.map(DayBlock.first(of:))).filter { $0 <= last }.sorted().map { (UserDayKey(user, $0), BlockStamp(0)) }
    }

    /// The last day with data among `blocks` (``goalBlocks(user:profile:through:_:)``).
    private func lastDataDay(_ blocks: [(first: Int32, days: [GoalDayBlocks.Day])]) -> Int32? {
        for block in blocks.reversed() {
            if let index = block.days.lastIndex(where: { $0.lastPosition > 0 }) { return block.first + Int32(index) }
        }
        return nil
    }

    /// The first day with data among `blocks`.
    private func firstDataDay(_ blocks: [(first: Int32, days: [GoalDayBlocks.Day])]) -> Int32? {
        for block in blocks {
            if let index = block.days.firstIndex(where: { $0.lastPosition > 0 }) { return block.first + Int32(index) }
        }
        return nil
    }

    /// Visits the days of `blocks` in order, through `end` if given, telling `body` whether each
    /// day follows the one visited before it (not the first, nor one after a gap between blocks:
    /// the days of a gap have no data, so no run reaches across one); returns the last day visited.
    @discardableResult
    private func forEachDay(
        _ blocks: [(first: Int32, days: [GoalDayBlocks.Day])], through end: Int32? = nil, _ body: (Int32, GoalDayBlocks.Day, _ follows: Bool) -> Void
    ) -> Int32? {
        var previous: Int32?
        for block in blocks {
            for (offset, day) in block.days.enumerated() {
                let date = block.first + Int32(offset)
                if let end, date > end { return previous }
                body(date, day, previous.map { $0 &+ 1 == date } ?? false)
                previous = date
            }
        }
        return previous
    }

    /// Streaks of met days as of `day` (default: the last day with data).
    mutating func streaks(user: String, profile: Profile, asOf day: CivilDate?, _ txn: (any TableReader)?) throws -> Streaks {
        streaks(blocks: try goalBlocks(user: user, profile: profile, through: day, txn), asOf: day)
    }

    /// Streaks of met days as of `day` (default: the last day with data) over `blocks`, the
    /// user's goal blocks through it: a day without data meets no goal, so no streak reaches across one.
    private func streaks(blocks: [(first: Int32, days: [GoalDayBlocks.Day])], asOf day: CivilDate?) -> Streaks {
        guard let first = firstDataDay(blocks), let lastWithData = lastDataDay(blocks) else { return Streaks(asOf: day, current: 0, longest: 0) }
        let end = day.map { Int32($0.daysSinceEpoch) } ?? lastWithData
        let endDate = CivilDate(daysSinceEpoch: Int(end))
        guard end >= first else { return Streaks(asOf: endDate, current: 0, longest: 0) }
        var current = 0
        var longest = 0
        let folded = forEachDay(blocks, through: end) { _, day, follows in
            current = day.met ? (follows ? current : 0) + 1 : 0
            longest = max(longest, current)
        }
        // Days after the last one folded, up to `end`, have no data: no streak runs through them.
        if let folded, folded < end { current = 0 }
        return Streaks(asOf: endDate, current: current, longest: longest)
    }

    /// The goal week containing `date`, by the user's week start.
    mutating func goalWeek(user: String, profile: Profile, containing date: CivilDate, _ txn: (any TableReader)?) throws -> GoalWeek {
        let start = StatsReadModel.weekStart(containing: date, weekStart: profile.weekStart)
        let end = start.adding(days: 6)
        let days = try goalDays(user: user, profile: profile, from: start, to: end, txn)
        // Streaks as of the week's last day, or of the user's last day with data if that is earlier.
        let blocks = try goalBlocks(user: user, profile: profile, txn)
        let streakDay = lastDataDay(blocks).map { min(CivilDate(daysSinceEpoch: Int($0)), end) } ?? end
        return GoalWeek(
            user: user, weekStart: start, days: days, daysMet: days.filter(\.met).count,
            steps: days.reduce(0) { $0 + $1.steps }, activeMinutes: days.reduce(0) { $0 + $1.activeMinutes },
            movingSeconds: days.reduce(0) { $0 + $1.movingSeconds }, streaks: streaks(blocks: blocks, asOf: streakDay))
    }

    /// Every milestone the user has earned: workout ones from the ledger, step and goal ones
    /// from the days.
    mutating func collectibles(user: String, profile: Profile, _ txn: (any TableReader)?) throws -> [Collectible] {
        try milestones(user: user, profile: profile, txn).earned
    }

    /// Every milestone, earned or not, with the user's progress towards it, in ``Milestone/all``'s order.
    package mutating func collectibleProgress(user: String, profile: Profile, _ txn: (any TableReader)?) throws -> [CollectibleProgress] {
        let (earned, measures) = try milestones(user: user, profile: profile, txn)
        return Milestone.all.map { milestone in
            CollectibleProgress(milestone, measure: measures[milestone.id] ?? 0, earned: earned.first { $0.id == milestone.id })
        }
    }

    /// The milestones earned, in the order they were (position, then id), and each milestone's
    /// measure: workout ones from the ledger, the best day's steps and the longest run of days
    /// with the goal met from the days.
    private mutating func milestones(user: String, profile: Profile, _ txn: (any TableReader)?) throws -> (earned: [Collectible], measures: [String: Int]) {
        var (earned, measures) = try collectibles.workoutMilestones(user: user, txn)
        let blocks = try goalBlocks(user: user, profile: profile, txn)
        guard firstDataDay(blocks) != nil else { return (earned.sorted { ($0.position, $0.id) < ($1.position, $1.id) }, measures) }
        var bestDay = 0
        var longest = 0
        var run = 0
        // The last positions of the current run's latest days (at most the streak milestone's length).
        var runPositions: [UInt64] = []
        var hasTenThousand = earned.contains { $0.id == Milestone.steps10kDay.id }
        var hasStreak = earned.contains { $0.id == Milestone.goalStreak7.id }
        forEachDay(blocks) { date, day, follows in
            bestDay = max(bestDay, day.steps)
            if !hasTenThousand, day.lastPosition > 0, day.steps >= Milestone.steps10kDay.target {
                earned.append(Collectible(.steps10kDay, position: day.lastPosition, date: CivilDate(daysSinceEpoch: Int(date))))
                hasTenThousand = true
            }
            if !follows || !day.met {
                run = 0
                runPositions.removeAll(keepingCapacity: true)
            }
            guard day.met else { return }
            run += 1
            longest = max(longest, run)
            runPositions.append(day.lastPosition)
            if runPositions.count > Milestone.goalStreak7.target { runPositions.removeFirst() }
            if run == Milestone.goalStreak7.target, !hasStreak {
                earned.append(Collectible(.goalStreak7, position: runPositions.max() ?? 0, date: CivilDate(daysSinceEpoch: Int(date))))
                hasStreak = true
            }
        }
        measures[Milestone.steps10kDay.id] = bestDay
        measures[Milestone.goalStreak7.id] = longest
        return (earned.sorted { ($0.position, $0.id) < ($1.position, $1.id) }, measures)
    }
}
