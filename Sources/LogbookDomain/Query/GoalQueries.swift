public import EventLog

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

    /// The local days on which the user has workouts or steps, as maximal runs of consecutive
    /// days, in order. A day outside every run has neither, so it meets no goal (a goal is at
    /// least one step): goals and streaks are folded run by run, and their work follows the days
    /// the user has data on, not the span between the earliest and latest date their samples
    /// carry (which a caller chooses, from the year 1 to 9999).
    mutating func dataRuns(user: String, _ txn: (any TableReader)?) throws -> [ClosedRange<CivilDate>] {
        let prefix = keyPrefix { $0.keyString(user) }
        let activityDays = try stats.days.records(withPrefix: prefix, txn).map(\.0.day)
        let stepDays = try stats.steps.records(withPrefix: prefix, txn).map(\.0.day)
        var runs: [ClosedRange<CivilDate>] = []
        var current: (first: Int32, last: Int32)?
        for day in Set(activityDays + stepDays).sorted() {
            if let run = current, run.last &+ 1 == day {
                current = (run.first, day)
                continue
            }
            if let run = current { runs.append(CivilDate(daysSinceEpoch: Int(run.first))...CivilDate(daysSinceEpoch: Int(run.last))) }
            current = (day, day)
        }
        if let run = current { runs.append(CivilDate(daysSinceEpoch: Int(run.first))...CivilDate(daysSinceEpoch: Int(run.last))) }
        return runs
    }

    /// The first and last local days on which the user has workouts or steps.
    mutating func dataRange(user: String, _ txn: (any TableReader)?) throws -> ClosedRange<CivilDate>? {
        let runs = try dataRuns(user: user, txn)
        guard let first = runs.first, let last = runs.last else { return nil }
        return first.lowerBound...last.upperBound
    }

    /// Streaks of met days as of `day` (default: the last day with data).
    mutating func streaks(user: String, profile: Profile, asOf day: CivilDate?, _ txn: (any TableReader)?) throws -> Streaks {
        try streaks(user: user, profile: profile, runs: try dataRuns(user: user, txn), asOf: day, txn)
    }

    /// Streaks of met days as of `day` over `runs`, the user's ``dataRuns(user:_:)``.
    private mutating func streaks(
        user: String, profile: Profile, runs: [ClosedRange<CivilDate>], asOf day: CivilDate?, _ txn: (any TableReader)?
    ) throws -> Streaks {
        guard let first = runs.first, let last = runs.last else { return Streaks(asOf: day, current: 0, longest: 0) }
        let end = day ?? last.upperBound
        guard end >= first.lowerBound else { return Streaks(asOf: end, current: 0, longest: 0) }
        var current = 0
        var longest = 0
        var folded = first.lowerBound
        for run in runs where run.lowerBound <= end {
            // The day before a run has no data, so no streak reaches across it.
            current = 0
            folded = min(run.upperBound, end)
            for day in try goalDays(user: user, profile: profile, from: run.lowerBound, to: folded, txn) {
                current = day.met ? current + 1 : 0
                longest = max(longest, current)
            }
        }
        // Days after the last one folded, up to `end`, have no data: no streak runs through them.
        if folded < end { current = 0 }
        return Streaks(asOf: end, current: current, longest: longest)
    }

    /// The goal week containing `date`, by the user's week start.
    mutating func goalWeek(user: String, profile: Profile, containing date: CivilDate, _ txn: (any TableReader)?) throws -> GoalWeek {
        let start = StatsReadModel.weekStart(containing: date, weekStart: profile.weekStart)
        let end = start.adding(days: 6)
        let days = try goalDays(user: user, profile: profile, from: start, to: end, txn)
        let runs = try dataRuns(user: user, txn)
        let streakDay = runs.last.map { min($0.upperBound, end) } ?? end
        return GoalWeek(
            user: user, weekStart: start, days: days, daysMet: days.filter(\.met).count,
            steps: days.reduce(0) { $0 + $1.steps }, activeMinutes: days.reduce(0) { $0 + $1.activeMinutes },
            movingSeconds: days.reduce(0) { $0 + $1.movingSeconds }, streaks: try streaks(user: user, profile: profile, runs: runs, asOf: streakDay, txn))
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
        let runs = try dataRuns(user: user, txn)
        if !runs.isEmpty {
            var bestDay = 0
            var longest = 0
            for range in runs {
                let rows = try stats.period(user: user, from: range.lowerBound, to: range.upperBound, preferredSource: profile.preferredStepSource, txn).days
                let days = try goalDays(user: user, rows: rows, from: range.lowerBound, to: range.upperBound, txn)
                bestDay = max(bestDay, rows.map(\.steps).max() ?? 0)
                if !earned.contains(where: { $0.id == Milestone.steps10kDay.id }),
                   let index = rows.firstIndex(where: { $0.steps >= Milestone.steps10kDay.target }) {
                    earned.append(Collectible(.steps10kDay, position: rows[index].lastPosition, date: rows[index].date))
                }
                // The day before a run has no data, so no streak reaches across it.
                var run = 0
                for (index, day) in days.enumerated() {
                    run = day.met ? run + 1 : 0
                    longest = max(longest, run)
                    if run == Milestone.goalStreak7.target, !earned.contains(where: { $0.id == Milestone.goalStreak7.id }) {
                        let position = rows[(index - run + 1)...index].map(\.lastPosition).max() ?? 0
                        earned.append(Collectible(.goalStreak7, position: position, date: day.date))
                    }
                }
            }
            measures[Milestone.steps10kDay.id] = bestDay
            measures[Milestone.goalStreak7.id] = longest
        }
        return (earned.sorted { ($0.position, $0.id) < ($1.position, $1.id) }, measures)
    }
}
