import EventLog

extension Decider {
    /// `stats.week_closed`: a registered user's week, `weekStart` the first day of one of their
    /// weeks (by their profile's week start) and `weekEnd` its seventh, that has ended in their
    /// time zone by now. The totals are the closer's record of the stats read model; the rule
    /// does not recompute them.
    mutating func closeWeek(_ e: StatsWeekClosed, user: String?) throws -> Decision {
        Decision(events: [(.statsWeekClosed(e), try endedWeek(from: e.weekStart, to: e.weekEnd, user: user ?? ""))])
    }

    /// `training.week_closed`: the same week rule as `stats.week_closed`; the summary is the
    /// closer's record of the training read models, and it cannot report more sessions done or
    /// missed than were planned.
    mutating func closeTrainingWeek(_ e: TrainingWeekClosed, user: String?) throws -> Decision {
        let local = try endedWeek(from: e.weekStart, to: e.weekEnd, user: user ?? "")
        // Counts are never negative, so each subtraction stays in range once the one before held.
        guard e.completed <= e.plannedSessions, e.partial <= e.plannedSessions - e.completed,
              e.missed <= e.plannedSessions - e.completed - e.partial
        else {
            throw LogbookError.invalidArgument(
                name: "plannedSessions", reason: "completed, partial and missed sessions add up to more than the \(e.plannedSessions) planned")
        }
        if let percent = e.compliancePercent, percent > 100 {
            throw LogbookError.invalidArgument(name: "compliancePercent", reason: "must be at most 100, not \(percent)")
        }
        return Decision(events: [(.trainingWeekClosed(e), local)])
    }

    /// The user's local time now, once `weekStart`…`weekEnd` is one of their weeks (by their
    /// profile's week start) that has ended in their time zone.
    private mutating func endedWeek(from weekStart: CivilDate, to weekEnd: CivilDate, user: String) throws -> Timestamp {
        let profile = try registered(user)
        guard StatsReadModel.weekStart(containing: weekStart, weekStart: profile.weekStart) == weekStart else {
            throw LogbookError.invalidArgument(name: "weekStart", reason: "\(weekStart) is not the first day of one of \(user)'s weeks")
        }
        guard weekEnd == weekStart.adding(days: 6) else {
            throw LogbookError.invalidArgument(name: "weekEnd", reason: "must be the week's seventh day, \(weekStart.adding(days: 6))")
        }
        let local = Rules.local(now, try Rules.timeZone(profile.timeZone))
        guard weekEnd < local.localDate else {
            throw LogbookError.invalidArgument(name: "weekEnd", reason: "the week has not ended yet in \(profile.timeZone) (today is \(local.localDate) there)")
        }
        return local
    }
}
