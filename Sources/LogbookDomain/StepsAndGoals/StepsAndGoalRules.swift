import EventLog

/// The rules of step samples and daily goals.
extension Decider {
    /// `steps.recorded`: a registered user's valid samples.
    mutating func recordSteps(_ e: StepsRecorded, user: String?) throws -> Decision {
        let user = user ?? ""
        let profile = try registered(user)
        try Rules.samples(e.samples)
        return Decision(events: [(.stepsRecorded(e), Rules.local(now, try Rules.timeZone(profile.timeZone)))])
    }

    /// `goal.set`: steps and minutes within their ranges, for a day at most 10 weeks after the
    /// user's today.
    mutating func setGoal(_ e: GoalSet, user: String?) throws -> Decision {
        let user = user ?? ""
        let profile = try registered(user)
        try Rules.goal(steps: e.steps, minutes: e.activeMinutes)
        let zone = try Rules.timeZone(profile.timeZone)
        let today = Rules.local(now, zone).localDate
        let horizon = today.adding(days: 70)
        guard e.date <= horizon else {
            throw rule(.goalHorizon, "goals can be set at most 10 weeks ahead: \(e.date) is after \(horizon) (today is \(today) in \(profile.timeZone))")
        }
        return Decision(events: [(.goalSet(e), Rules.local(now, zone))])
    }

    /// `goal.cleared`: a registered user; the day goes back to the default goal.
    mutating func clearGoal(_ e: GoalCleared, user: String?) throws -> Decision {
        let user = user ?? ""
        let date = e.date
        let profile = try registered(user)
        return Decision(events: [(.goalCleared(GoalCleared(date: date)), Rules.local(now, try Rules.timeZone(profile.timeZone)))])
    }

    /// `goal.default_set`: steps and minutes within their ranges.
    mutating func setDefaultGoal(_ e: GoalDefaultSet, user: String?) throws -> Decision {
        let user = user ?? ""
        let profile = try registered(user)
        try Rules.goal(steps: e.steps, minutes: e.activeMinutes)
        return Decision(events: [(.goalDefaultSet(e), Rules.local(now, try Rules.timeZone(profile.timeZone)))])
    }
}
