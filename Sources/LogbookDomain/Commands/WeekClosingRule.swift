import EventLog

extension Decider {
    /// `stats.week_closed`: a registered user's week, `weekStart` the first day of one of their
    /// weeks (by their profile's week start) and `weekEnd` its seventh, that has ended in their
    /// time zone by now. The totals are the closer's record of the stats read model; the rule
    /// does not recompute them.
    mutating func closeWeek(_ e: StatsWeekClosed, user: String?) throws -> Decision {
        let user = user ?? ""
        let profile = try registered(user)
        guard StatsReadModel.weekStart(containing: e.weekStart, weekStart: profile.weekStart) == e.weekStart else {
            throw LogbookError.invalidArgument(name: "weekStart", reason: "\(e.weekStart) is not the first day of one of \(user)'s weeks")
        }
        guard e.weekEnd == e.weekStart.adding(days: 6) else {
            throw LogbookError.invalidArgument(name: "weekEnd", reason: "must be the week's seventh day, \(e.weekStart.adding(days: 6))")
        }
        let local = Rules.local(now, try Rules.timeZone(profile.timeZone))
        guard e.weekEnd < local.localDate else {
            throw LogbookError.invalidArgument(name: "weekEnd", reason: "the week has not ended yet in \(profile.timeZone) (today is \(local.localDate) there)")
        }
        return Decision(events: [(.statsWeekClosed(e), local)])
    }
}
