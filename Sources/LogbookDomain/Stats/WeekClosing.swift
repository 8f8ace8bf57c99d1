package import EventLog
package import Foundation

/// When a user's week is closed (`stats.week_closed`, and `training.week_closed` when it had
/// planned workouts) and under which ids: the week is the last
/// one, by the user's week start, whose seventh day has passed in their time zone; the id is
/// derived from the user and the week's first day, so closing it again (a restart, a second
/// server) writes nothing.
package enum WeekClosing {
    /// How many ended weeks back the closer looks: a server down longer than this closes only
    /// the last ones.
    package static let weeksBack = 4

    /// The first day of each of the last `count` weeks of a user with `profile` that have ended
    /// by `now`, oldest first (empty when their time zone is not one this system knows).
    package static func endedWeeks(now: Timestamp, profile: Profile, count: Int = weeksBack) -> [CivilDate] {
        guard let zone = TimeZone(identifier: profile.timeZone) else { return [] }
        let today = Rules.local(now, zone).localDate
        let current = StatsReadModel.weekStart(containing: today, weekStart: profile.weekStart)
        return (1...max(count, 1)).reversed().map { current.adding(days: -7 * $0) }
    }

    /// The id of the user's `stats.week_closed` or `training.week_closed` (`type`) for the week
    /// starting `weekStart`.
    package static func eventId(_ type: EventType, user: String, weekStart: CivilDate) -> UUID {
        DerivedIds.uuid([type.rawValue, user, weekStart.description])
    }
}

extension ProfilesReadModel {
    /// Every registered user's profile, ordered by the user's bytes.
    mutating func all(_ txn: (any TableReader)?) throws -> [(user: String, profile: Profile)] {
        try users.records(withPrefix: [], txn).map { ($0.user, $1) }
    }
}

extension ReadModelSet {
    /// Every registered user's profile, ordered by the user's bytes.
    package mutating func allProfiles(_ txn: (any TableReader)?) throws -> [(user: String, profile: Profile)] {
        try profiles.all(txn)
    }
}
