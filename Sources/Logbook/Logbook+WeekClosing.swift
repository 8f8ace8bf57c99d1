public import EventLog
import Foundation

/// What one pass of the week closer did.
public struct WeekClosingReport: Sendable {
    /// The weeks it closed: one `stats.week_closed` each, and one `training.week_closed` for each
    /// week that had planned workouts.
    public var closed: [CommandResult] = []
    /// The users it could not close a week of, and why; tried again on the next pass.
    public var failed: [(user: String, error: String)] = []
}

extension Logbook {
    /// Closes each registered user's ended weeks (their time zone, their week start; the last
    /// ``WeekClosing/weeksBack`` at most) that have no `stats.week_closed` yet: appends one to the
    /// user's stats stream with the week's totals — workouts, distance, moving time (one activity
    /// however many devices recorded it) and steps — as the stats read model holds them at that
    /// moment. A week with planned workouts also gets a `training.week_closed` in the training
    /// stream: sessions planned, completed, partly done, missed and unplanned, planned and done
    /// distance, moving time, compliance, and acute and chronic load on its last day, as the
    /// training read models hold them. A week that ended before the user registered is not closed.
    ///
    /// The event's id is derived from the user and the week, so a second call, a restart or a
    /// second server closing the same week writes nothing. `closed` remembers the last week this
    /// caller has seen closed per user (so a steady caller reads each user's log once a week);
    /// pass the same dictionary each time. One user's failure does not stop the others: it is
    /// reported, and tried again on the next pass.
    ///
    /// Deterministic where it matters: the totals are stored in the event, so replay, rebuilds and
    /// exports carry the same bytes whenever they run; only *when* a week is closed depends on the
    /// clock (`now`, default the Logbook's), and then the totals are those of the log up to it.
    /// A user who changes their week start gets weeks that overlap the ones closed before.
    @discardableResult
    public func closeEndedWeeks(now: Timestamp? = nil, closed: inout [String: CivilDate]) async throws -> WeekClosingReport {
        let now = now ?? configuration.clock.now()
        let users = try read { projections, txn in try projections.allProfiles(txn) }
        var report = WeekClosingReport()
        for (user, profile) in users {
            let weeks = WeekClosing.endedWeeks(now: now, profile: profile)
            guard let last = weeks.last, closed[user] != last else { continue }
            // Erased, and still in the live profiles until the read models built without them
            // switch in: nothing to close.
            if try isErased(user) {
                closed[user] = last
                continue
            }
            do {
                for week in weeks where closed[user].map({ $0 < week }) ?? true {
                    report.closed += try await closeWeek(user: user, profile: profile, week: week, now: now)
                    closed[user] = week
                }
            } catch let error as LogbookError where error.rule == .userErased || error.rule == .userNotRegistered || (try? isErased(user)) == true {
                closed[user] = last  // erased (or gone) meanwhile: nothing to tell anyone
            } catch {
                report.failed.append((user, "\(error)"))
            }
        }
        return report
    }

    /// ``closeEndedWeeks(now:closed:)`` with nothing remembered.
    @discardableResult
    public func closeEndedWeeks(now: Timestamp? = nil) async throws -> WeekClosingReport {
        var closed: [String: CivilDate] = [:]
        return try await closeEndedWeeks(now: now, closed: &closed)
    }

    /// Closes `user`'s week starting `week` — `stats.week_closed`, and `training.week_closed` when
    /// the week had planned workouts — unless each is closed already or the week ended before they
    /// registered; the results of the appends that wrote something.
    private func closeWeek(user: String, profile: Profile, week: CivilDate, now: Timestamp) async throws -> [CommandResult] {
        // Not for a week that ended before the user registered (their first event).
        guard let registered = try await log.readStream("user-\(user)", from: 0, direction: .forward, limit: 1).first,
              let zone = TimeZone(identifier: profile.timeZone)
        else { return [] }
        let registeredOn = Rules.local(registered.envelope.recordedAt, zone).localDate
        guard registeredOn <= week.adding(days: 6) else { return [] }
        var results: [CommandResult] = []
        if let result = try await closeOnce(.statsWeekClosed, user: user, week: week, now: now, with: {
            let stats = try await weeklyStats(user: user, containing: week)
            return .statsWeekClosed(StatsWeekClosed(
                weekStart: week, weekEnd: week.adding(days: 6), workouts: stats.totals.workouts, distanceMeters: stats.totals.distanceMeters,
                movingSeconds: stats.totals.movingSeconds, steps: stats.steps))
        }) { results.append(result) }
        if let result = try await closeOnce(.trainingWeekClosed, user: user, week: week, now: now, with: {
            let training = try await trainingWeek(user: user, containing: week, today: Rules.local(now, zone).localDate)
            guard training.plannedSessions > 0 else { return nil }
            return .trainingWeekClosed(TrainingWeekClosed(
                weekStart: week, weekEnd: week.adding(days: 6), plannedSessions: training.plannedSessions, completed: training.completed,
                partial: training.partial, missed: training.missed, extraSessions: training.extra.count,
                plannedDistanceMeters: training.plannedDistanceMeters, doneDistanceMeters: training.doneDistanceMeters,
                doneMovingSeconds: training.doneMovingSeconds, compliancePercent: training.compliancePercent,
                acuteLoad: training.load.acute, chronicLoad: training.load.chronic28))
        }) { results.append(result) }
        return results
    }

    /// Appends the `type` event `summary` gives for `user`'s week starting `week`, under the id
    /// derived from the type, the user and the week, unless it is in the log already or `summary`
    /// gives none; the append's result when it wrote something.
    private func closeOnce(
        _ type: EventType, user: String, week: CivilDate, now: Timestamp, with summary: () async throws -> DomainEvent?
    ) async throws -> CommandResult? {
        let id = WeekClosing.eventId(type, user: user, weekStart: week)
        guard try await log.location(ofEvent: id) == nil else { return nil }
        // The totals are stored for good: never taken from read models a rebuild holds a part of.
        let reads = Set(CachedQuery.stats.readModels + CachedQuery.trainingWeek.readModels)
        let before = control.snapshot
        let summarized = try await summary()
        guard control.stayedLive(reads, since: before) else {
            throw LogbookError.notCaughtUp(
                position: try await log.headPosition().rawValue,
                reason: "a rebuild held read models the week's totals come from; the week is closed on a later pass")
        }
        guard let event = summarized else { return nil }
        let result = try await execute(.record(user: user, event), context: CommandContext(now: now, eventId: id))
        return result.alreadyApplied ? nil : result
    }
}
