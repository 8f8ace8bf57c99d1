/// The kind of a planned workout (the `kind` field of `plan.workout_planned`).
package enum SessionKind: String, Sendable, Hashable, CaseIterable {
    case easy, long, tempo, intervals, recovery, race

    /// Hard days: the plan generator never puts two of these on consecutive days.
    package var isHard: Bool {
        switch self {
        case .long, .tempo, .intervals, .race: true
        case .easy, .recovery: false
        }
    }
}

/// One workout of a generated plan: what a `plan.workout_planned` event will carry (the command adds the ids).
package struct PlannedSession<Activity: Hashable & Sendable>: Hashable, Sendable {
    /// Local date (day number).
    package var date: Int
    package var kind: SessionKind
    package var activity: Activity
    package var distanceMeters: Int?
    package var durationSeconds: Int?
    package var notes: String?

    /// A session of every field.
    package init(date: Int, kind: SessionKind, activity: Activity, distanceMeters: Int?, durationSeconds: Int? = nil, notes: String? = nil) {
        self.date = date
        self.kind = kind
        self.activity = activity
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.notes = notes
    }
}

/// A target race (the fields of `target.set` the generator reads).
package struct RaceTarget<Activity: Hashable & Sendable>: Hashable, Sendable {
    package var activity: Activity
    package var distanceMeters: Int
    /// The race's local date (day number).
    package var raceDate: Int
    package var goalSeconds: Int?

    /// A target of every field.
    package init(activity: Activity, distanceMeters: Int, raceDate: Int, goalSeconds: Int? = nil) {
        self.activity = activity
        self.distanceMeters = distanceMeters
        self.raceDate = raceDate
        self.goalSeconds = goalSeconds
    }
}

/// One past week of the target's activity type: its total distance and its longest single workout.
package struct WeekHistory: Hashable, Sendable {
    package var totalMeters: Int
    package var longestMeters: Int

    /// A week of every field.
    package init(totalMeters: Int, longestMeters: Int) {
        self.totalMeters = totalMeters
        self.longestMeters = longestMeters
    }

    /// The four complete weeks before the week holding `startDate` (weeks starting on `weekStart`), oldest
    /// first, from the counted workouts of `activity`. A week without workouts is (0, 0).
    package static func recentWeeks<Activity>(
        of workouts: some Sequence<CountedWorkout<Activity>>, activity: Activity, before startDate: Int, weekStart: FirstWeekday
    ) -> [WeekHistory] {
        var weeks = [WeekHistory](repeating: WeekHistory(totalMeters: 0, longestMeters: 0), count: PlanGenerator.historyWeeks)
        guard DayNumbers.validRange.contains(startDate) else { return weeks }
        let first = DayNumbers.firstDayOfWeek(containing: startDate, weekStart: weekStart) - 7 * PlanGenerator.historyWeeks
        for workout in workouts where workout.activity == activity && workout.localDate >= first && workout.localDate < first + 7 * PlanGenerator.historyWeeks {
            let index = (workout.localDate - first) / 7
            let meters = max(workout.distanceMeters, 0)
            weeks[index].totalMeters = weeks[index].totalMeters.saturatingAdd(meters)
            weeks[index].longestMeters = max(weeks[index].longestMeters, meters)
        }
        return weeks
    }
}

/// Everything the plan generator reads. Same request, same plan.
package struct PlanRequest<Activity: Hashable & Sendable>: Hashable, Sendable {
    package var target: RaceTarget<Activity>
    /// The first day workouts may be planned on.
    package var startDate: Int
    /// The user's today (the command's clock in the user's time zone): the horizon counts from it.
    package var today: Int
    /// Sessions per week, 3…6.
    package var daysPerWeek: Int
    /// Weekday of the long run, 0 = Monday … 6 = Sunday; nil: Sunday.
    package var longRunWeekday: Int?
    package var weekStart: FirstWeekday
    /// The last four complete weeks before the start, oldest first (``WeekHistory/recentWeeks(of:activity:before:weekStart:)``).
    /// Missing weeks count as empty; only the last four entries are read.
    package var recentWeeks: [WeekHistory]

    /// A request of every field.
    package init(target: RaceTarget<Activity>, startDate: Int, today: Int, daysPerWeek: Int, longRunWeekday: Int? = nil,
                weekStart: FirstWeekday = .monday, recentWeeks: [WeekHistory] = []) {
        self.target = target
        self.startDate = startDate
        self.today = today
        self.daysPerWeek = daysPerWeek
        self.longRunWeekday = longRunWeekday
        self.weekStart = weekStart
        self.recentWeeks = recentWeeks
    }
}

/// One calendar week of a generated plan (weeks start on the request's `weekStart`).
package struct PlanWeek: Hashable, Sendable {
    /// What the week is for.
    package enum Phase: String, Sendable, Hashable, CaseIterable {
        /// Volume grows (at most 10% over the previous build week).
        case build
        /// Every fourth week: about 75% of the week before, no quality session.
        case easy
        /// Volume falls towards the race.
        case taper
        /// The week holding the race.
        case race
    }

    package var firstDay: Int
    package var phase: Phase
    /// The week's volume target, meters (a whole week, before days outside the plan are left out).
    package var targetMeters: Int
    /// The distance of the week's planned sessions, the race excluded.
    package var plannedMeters: Int

    /// A week of every field.
    package init(firstDay: Int, phase: Phase, targetMeters: Int, plannedMeters: Int) {
        self.firstDay = firstDay
        self.phase = phase
        self.targetMeters = targetMeters
        self.plannedMeters = plannedMeters
    }
}

/// A generated plan: its sessions in date order, and its weeks.
package struct GeneratedPlan<Activity: Hashable & Sendable>: Hashable, Sendable {
    /// ``PlanGenerator/version`` of the generator that made it.
    package var version: Int
    /// Sessions by date (one per day at most), the race last when ``reachesRace``.
    package var sessions: [PlannedSession<Activity>]
    /// The weeks from the start's week through the last week with a plannable day.
    package var weeks: [PlanWeek]
    /// False when the race is beyond the horizon (``PlanGenerator/horizonDays`` after today): the plan then
    /// holds only the workouts up to the horizon, and is continued by generating again later.
    package var reachesRace: Bool
}

/// Why a plan cannot be generated: every case names the input and the limit it breaks.
package enum PlanGenerationError: Error, Hashable, Sendable, CustomStringConvertible {
    case daysPerWeekOutOfRange(Int)
    case longRunWeekdayOutOfRange(Int)
    case distanceOutOfRange(Int)
    case goalSecondsOutOfRange(Int)
    /// A day (today, start or race) outside ``DayNumbers/validRange``.
    case dayOutOfRange(Int)
    case startBeforeToday(start: Int, today: Int)
    case startBeyondHorizon(start: Int, lastDay: Int)
    case raceBeforeStart(race: Int, start: Int)
    case raceTooFarAhead(race: Int, lastDay: Int)

    package var description: String {
        switch self {
        case .daysPerWeekOutOfRange(let days): "days per week must be 3…6, not \(days)"
        case .longRunWeekdayOutOfRange(let day): "the long-run weekday must be 0 (Monday)…6 (Sunday), not \(day)"
        case .distanceOutOfRange(let meters): "the target distance must be 1,000…1,000,000 m, not \(meters)"
        case .goalSecondsOutOfRange(let seconds): "the goal time must be 1…1,000,000 s, not \(seconds)"
        case .dayOutOfRange(let day): "day \(day) is outside the years 1…9999"
        case .startBeforeToday(let start, let today): "the plan cannot start (day \(start)) before today (day \(today))"
        case .startBeyondHorizon(let start, let lastDay): "the plan cannot start (day \(start)) after the planning horizon (day \(lastDay))"
        case .raceBeforeStart(let race, let start): "the race (day \(race)) is before the plan's start (day \(start))"
        case .raceTooFarAhead(let race, let lastDay): "the race (day \(race)) is more than two years ahead (last day \(lastDay))"
        }
    }
}
