public import EventLog
import Foundation

extension Logbook {
    /// Closes each registered user's last ended week (their time zone, their week start) that has
    /// no `stats.week_closed` yet: appends one with the week's totals — workouts, distance, moving
    /// time (one activity however many devices recorded it) and steps — as the stats read model
    /// holds them at that moment. A week that ended before the user registered is not closed.
    ///
    /// The event's id is derived from the user and the week, so a second call, a restart or a
    /// second server closing the same week writes nothing. `closed` remembers the weeks this
    /// caller has seen closed (so a steady caller reads each user's log once a week); pass the
    /// same dictionary each time. Returns the weeks it closed now.
    ///
    /// Deterministic where it matters: the totals are stored in the event, so replay, rebuilds and
    /// exports carry the same bytes whenever they run; only *when* a week is closed depends on the
    /// clock (`now`, default the Logbook's), and then the totals are those of the log up to it.
    @discardableResult
    public func closeEndedWeeks(now: Timestamp? = nil, closed: inout [String: CivilDate]) async throws -> [CommandResult] {
        let now = now ?? configuration.clock.now()
        let users = try read { projections, txn in try projections.allProfiles(txn) }
        var written: [CommandResult] = []
        for (user, profile) in users {
            guard let week = WeekClosing.lastEndedWeek(now: now, profile: profile), closed[user] != week.start else { continue }
            let id = WeekClosing.eventId(user: user, weekStart: week.start)
            if try await log.location(ofEvent: id) != nil {
                closed[user] = week.start
                continue
            }
            // Not for a week that ended before the user registered (their first event).
            guard let registered = try await log.readStream("user-\(user)", from: 0, direction: .forward, limit: 1).first,
                  let zone = TimeZone(identifier: profile.timeZone)
            else { continue }
            let registeredOn = Timestamp(
                microsecondsSinceEpoch: registered.envelope.recordedAt.instant,
                utcOffsetSeconds: Int32(zone.secondsFromGMT(for: registered.envelope.recordedAt.date))).localDate
            guard registeredOn <= week.end else {
                closed[user] = week.start
                continue
            }
            let stats = try await weeklyStats(user: user, containing: week.start)
            let event = StatsWeekClosed(
                weekStart: week.start, weekEnd: week.end, workouts: stats.totals.workouts, distanceMeters: stats.totals.distanceMeters,
                movingSeconds: stats.totals.movingSeconds, steps: stats.steps)
            do {
                let result = try await execute(.record(user: user, .statsWeekClosed(event)), context: CommandContext(now: now, eventId: id))
                if !result.alreadyApplied { written.append(result) }
                closed[user] = week.start
            } catch let error as LogbookError where error.rule == .userErased || error.rule == .userNotRegistered {
                // Erased (or gone) meanwhile: nothing to tell anyone.
                closed[user] = week.start
            }
        }
        return written
    }

    /// ``closeEndedWeeks(now:closed:)`` with nothing remembered.
    @discardableResult
    public func closeEndedWeeks(now: Timestamp? = nil) async throws -> [CommandResult] {
        var closed: [String: CivilDate] = [:]
        return try await closeEndedWeeks(now: now, closed: &closed)
    }
}
