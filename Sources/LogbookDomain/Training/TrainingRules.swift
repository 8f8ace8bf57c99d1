public import EventLog

extension Rules {
    /// Heart-rate settings (the Training article): a maximum of 100–240 bpm, a resting rate of 25–120 bpm,
    /// and, when both are known after the change, the resting rate below the maximum.
    static func heartRates(_ e: UserProfileUpdated, profile: Profile) throws(LogbookError) {
        if let rate = e.maxHeartRate.newValue, !HeartRateZones.maxHeartRateRange.contains(rate) {
            throw .ruleViolation(rule: .heartRateInvalid, message: "maxHeartRate \(rate) is not within 100–240 bpm")
        }
        if let rate = e.restingHeartRate.newValue, !HeartRateZones.restingHeartRateRange.contains(rate) {
            throw .ruleViolation(rule: .heartRateInvalid, message: "restingHeartRate \(rate) is not within 25–120 bpm")
        }
        var max = profile.maxHeartRate
        var rest = profile.restingHeartRate
        e.maxHeartRate.apply(to: &max)
        e.restingHeartRate.apply(to: &rest)
        if let max, let rest, rest >= max {
            throw .ruleViolation(rule: .heartRateInvalid, message: "restingHeartRate \(rest) must be below maxHeartRate \(max)")
        }
    }

    /// How far ahead a race may be: two years (730 days) after the user's today.
    static let targetHorizonDays = 730
    /// How far ahead a workout may be planned: 26 weeks after the user's today.
    static let planHorizonDays = 182

    /// A planned workout's own rules: a distance or a duration, each positive and in range, the
    /// date at most 26 weeks after `today`, notes within their limit.
    static func plannedWorkout(_ e: PlannedWorkout, today: CivilDate) throws(LogbookError) {
        try id(e.plannedId, "plannedId")
        guard e.distanceMeters != nil || e.durationSeconds != nil else {
            throw .ruleViolation(rule: .planInvalid, message: "a planned workout has a distanceMeters or a durationSeconds")
        }
        if let distance = e.distanceMeters, !(1...1_000_000).contains(distance) {
            throw .ruleViolation(rule: .planInvalid, message: "distanceMeters \(distance) is not within 1–1,000,000")
        }
        if let duration = e.durationSeconds, !(1...86_400).contains(duration) {
            throw .ruleViolation(rule: .planInvalid, message: "durationSeconds \(duration) is not within 1–86,400")
        }
        let horizon = today.adding(days: planHorizonDays)
        guard e.date <= horizon else {
            throw .ruleViolation(rule: .planInvalid, message: "workouts can be planned at most 26 weeks ahead: \(e.date) is after \(horizon) (today is \(today))")
        }
        if let notes = e.notes { try text(notes, "notes", required: true, limit: 2000) }
    }
}

/// The rules of targets and plans (the commands decided through ``Command/record(user:_:)``).
extension Decider {
    /// The command's clock in the user's time zone: when the event occurs, and the user's today.
    mutating func localNowOf(_ user: String) throws -> Timestamp {
        let profile = try registered(user)
        return Rules.local(now, try Rules.timeZone(profile.timeZone))
    }

    /// `target.set`: a race after the user's today and at most two years ahead.
    mutating func setTarget(_ e: TargetSet, user: String?) throws -> Decision {
        let user = user ?? ""
        let local = try localNowOf(user)
        let today = local.localDate
        try Rules.id(e.targetId, "targetId")
        try Rules.text(e.name, "name", required: true)
        guard e.raceDate > today else {
            throw rule(.targetInvalid, "the race date \(e.raceDate) is not after the user's today (\(today))")
        }
        let horizon = today.adding(days: Rules.targetHorizonDays)
        guard e.raceDate <= horizon else {
            throw rule(.targetInvalid, "a race may be at most two years ahead: \(e.raceDate) is after \(horizon)")
        }
        guard (1...1_000_000).contains(e.distanceMeters) else {
            throw rule(.targetInvalid, "distanceMeters \(e.distanceMeters) is not within 1–1,000,000")
        }
        if let goal = e.goalSeconds, !(1...604_800).contains(goal) {
            throw rule(.targetInvalid, "goalSeconds \(goal) is not within 1–604,800")
        }
        return Decision(events: [(.targetSet(e), local)])
    }

    /// `target.cleared`: the target exists.
    mutating func clearTarget(_ e: TargetCleared, user: String?) throws -> Decision {
        let user = user ?? ""
        let local = try localNowOf(user)
        try Rules.id(e.targetId, "targetId")
        guard try state.target(user: user, e.targetId) != nil else { throw LogbookError.notFound(kind: "target", id: e.targetId) }
        return Decision(events: [(.targetCleared(e), local)])
    }

    /// `plan.workout_planned`: a new id and a valid planned workout.
    mutating func planWorkout(_ e: PlannedWorkout, user: String?) throws -> Decision {
        let user = user ?? ""
        let local = try localNowOf(user)
        try Rules.plannedWorkout(e, today: local.localDate)
        guard !e.plannedId.hasPrefix("gen-") else {
            throw rule(.planInvalid, "planned workout ids starting gen- are given by plan generation; choose another")
        }
        guard try state.plannedWorkout(user: user, e.plannedId) == nil else {
            throw rule(.planInvalid, "planned workout \(e.plannedId) is already in the plan: change it instead")
        }
        return Decision(events: [(.planWorkoutPlanned(e), local)])
    }

    /// `plan.workout_changed`: the planned workout exists; the change is a whole valid planned workout.
    mutating func changePlannedWorkout(_ e: PlannedWorkout, user: String?) throws -> Decision {
        let user = user ?? ""
        let local = try localNowOf(user)
        try Rules.id(e.plannedId, "plannedId")
        guard try state.plannedWorkout(user: user, e.plannedId) != nil else { throw LogbookError.notFound(kind: "planned workout", id: e.plannedId) }
        try Rules.plannedWorkout(e, today: local.localDate)
        return Decision(events: [(.planWorkoutChanged(e), local)])
    }

    /// `plan.workout_removed`: the planned workout exists.
    mutating func removePlannedWorkout(_ e: PlannedWorkoutReference, user: String?) throws -> Decision {
        let user = user ?? ""
        let local = try localNowOf(user)
        try Rules.id(e.plannedId, "plannedId")
        guard try state.plannedWorkout(user: user, e.plannedId) != nil else { throw LogbookError.notFound(kind: "planned workout", id: e.plannedId) }
        return Decision(events: [(.planWorkoutRemoved(e), local)])
    }
}

/// Some fields of a planned workout, to change (`PATCH …/planned-workouts/{plannedId}`): each
/// given field replaces the planned one, the others stay; distance, duration and notes may also
/// be cleared (the result must still have a distance or a duration).
public struct PlannedWorkoutChanges: Sendable, Hashable {
    public var date: CivilDate?
    public var activityType: ActivityType?
    public var kind: PlannedKind?
    public var distanceMeters: OptionalChange<Int>
    public var durationSeconds: OptionalChange<Int>
    public var notes: OptionalChange<String>

    public init(
        date: CivilDate? = nil, activityType: ActivityType? = nil, kind: PlannedKind? = nil, distanceMeters: OptionalChange<Int> = .unchanged,
        durationSeconds: OptionalChange<Int> = .unchanged, notes: OptionalChange<String> = .unchanged
    ) {
        self.date = date
        self.activityType = activityType
        self.kind = kind
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.notes = notes
    }

    /// Whether any field is given.
    public var isEmpty: Bool {
        self == PlannedWorkoutChanges()
    }

    /// `planned` with these changes.
    public func applied(to planned: PlannedWorkout) -> PlannedWorkout {
        var result = planned
        if let date { result.date = date }
        if let activityType { result.activityType = activityType }
        if let kind { result.kind = kind }
        distanceMeters.apply(to: &result.distanceMeters)
        durationSeconds.apply(to: &result.durationSeconds)
        notes.apply(to: &result.notes)
        return result
    }
}

extension Decider {
    /// A partial change of a planned workout: the planned workout exists, something changes, and
    /// the result is a valid planned workout.
    mutating func changePlannedWorkout(user: String, plannedId: String, _ changes: PlannedWorkoutChanges) throws -> Decision {
        let local = try localNowOf(user)
        try Rules.id(plannedId, "plannedId")
        guard let record = try state.plannedWorkout(user: user, plannedId) else { throw LogbookError.notFound(kind: "planned workout", id: plannedId) }
        guard !changes.isEmpty else { throw LogbookError.invalidArgument(name: "body", reason: "names no field to change") }
        let changed = changes.applied(to: record.plannedWorkout(id: plannedId))
        try Rules.plannedWorkout(changed, today: local.localDate)
        return Decision(events: [(.planWorkoutChanged(changed), local)])
    }
}

extension PlannedRecord {
    /// The planned workout this record keeps, with its id.
    func plannedWorkout(id: String) -> PlannedWorkout {
        PlannedWorkout(
            plannedId: id, date: CivilDate(daysSinceEpoch: Int(date)), activityType: activityType, kind: kind, distanceMeters: distanceMeters,
            durationSeconds: durationSeconds, notes: notes)
    }
}
