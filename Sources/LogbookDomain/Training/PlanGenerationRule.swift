public import EventLog

/// What a generated plan is asked for (`POST /users/{user}/training/plans`): the target to train
/// for, the first day (default: the user's today), sessions per week and the long run's weekday.
public struct TrainingPlanRequest: Sendable, Hashable {
    public var targetId: String
    public var startDate: CivilDate?
    /// 3…6.
    public var daysPerWeek: Int
    /// ISO weekday of the long run, 1 = Monday … 7 = Sunday (default Sunday).
    public var longRunDay: Int?

    public init(targetId: String, startDate: CivilDate? = nil, daysPerWeek: Int, longRunDay: Int? = nil) {
        self.targetId = targetId
        self.startDate = startDate
        self.daysPerWeek = daysPerWeek
        self.longRunDay = longRunDay
    }
}

extension Decider {
    /// A generated plan (the Training article; ``PlanGenerator``, the Training article): from the target, the
    /// user's last four complete weeks of its activity type and the request, the plan's workouts
    /// as `plan.workout_planned` events, after `plan.workout_removed` events for the future
    /// workouts (on or after the user's today) of an earlier plan generated for the same target —
    /// all in one append. The generator runs only here: replay reads the events.
    mutating func generatePlan(user: String, _ request: TrainingPlanRequest) throws -> Decision {
        let local = try localNowOf(user)
        let today = local.localDate
        let profile = try registered(user)
        try Rules.id(request.targetId, "targetId")
        guard let target = try state.target(user: user, request.targetId) else { throw LogbookError.notFound(kind: "target", id: request.targetId) }
        guard (3...6).contains(request.daysPerWeek) else {
            throw LogbookError.invalidArgument(name: "daysPerWeek", reason: "must be 3 to 6, not \(request.daysPerWeek)")
        }
        if let day = request.longRunDay, !(1...7).contains(day) {
            throw LogbookError.invalidArgument(name: "longRunDay", reason: "must be an ISO weekday, 1 (Monday) to 7 (Sunday), not \(day)")
        }
        let start = request.startDate ?? today
        let weekStart: FirstWeekday = profile.weekStart == .sunday ? .sunday : .monday
        let historyFrom = DayNumbers.firstDayOfWeek(containing: start.daysSinceEpoch, weekStart: weekStart) - 7 * PlanGenerator.historyWeeks
        let history = try state.countedWorkouts(user: user, from: historyFrom, to: start.daysSinceEpoch - 1)
        let planRequest = PlanRequest(
            target: RaceTarget(activity: target.activityType, distanceMeters: target.distanceMeters, raceDate: Int(target.raceDate), goalSeconds: target.goalSeconds),
            startDate: start.daysSinceEpoch, today: today.daysSinceEpoch, daysPerWeek: request.daysPerWeek,
            longRunWeekday: request.longRunDay.map { $0 - 1 }, weekStart: weekStart,
            recentWeeks: WeekHistory.recentWeeks(of: history, activity: target.activityType, before: start.daysSinceEpoch, weekStart: weekStart))
        let plan: GeneratedPlan<ActivityType>
        do {
            plan = try PlanGenerator.generate(planRequest)
        } catch {
            throw rule(.planInvalid, "no plan for target \(request.targetId): \(error.description)")
        }
        let prefix = Self.generatedPrefix(request.targetId)
        var events: [(DomainEvent, occurredAt: Timestamp)] = []
        for (id, _) in try state.plannedWorkouts(user: user, from: today.daysSinceEpoch, to: Int(Int32.max)) where id.hasPrefix(prefix) {
            events.append((.planWorkoutRemoved(PlannedWorkoutReference(plannedId: id)), local))
        }
        for session in plan.sessions {
            let date = CivilDate(daysSinceEpoch: session.date)
            events.append((.planWorkoutPlanned(PlannedWorkout(
                plannedId: "\(prefix)\(date)", date: date, activityType: session.activity, kind: PlannedKind(session.kind),
                distanceMeters: session.distanceMeters, durationSeconds: session.durationSeconds, notes: session.notes)), local))
        }
        return Decision(events: events)
    }

    /// The id prefix of the workouts a plan generated for `targetId` names (`gen-` and 16 hex
    /// digits of the target id's SHA-256, so any target id fits the id limit); the day follows.
    static func generatedPrefix(_ targetId: String) -> String {
        "gen-" + DerivedIds.hex([targetId]).prefix(16) + "-"
    }
}

extension PlannedKind {
    init(_ kind: SessionKind) {
        switch kind {
        case .easy: self = .easy
        case .long: self = .long
        case .tempo: self = .tempo
        case .intervals: self = .intervals
        case .recovery: self = .recovery
        case .race: self = .race
        }
    }
}
