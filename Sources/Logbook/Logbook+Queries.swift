public import EventLog
import LMDB

/// The query API: every read model, cached (with exact invalidation) unless asked as of a
/// past moment, in which case it is folded in memory from the log without touching live state.
extension Logbook {
    // MARK: Profile

    /// The user's profile.
    public func profile(user: String, asOf: AsOf? = nil) async throws -> Profile {
        try await query(.stats, user: user, parameters: "profile", asOf: asOf, cost: { _ in 256 }) { projections, txn in
            try Self.requireProfile(user, &projections, txn)
        }
    }

    // MARK: Stats

    /// Statistics of the week containing `date`, by the user's week start.
    public func weeklyStats(user: String, containing date: CivilDate, asOf: AsOf? = nil) async throws -> PeriodStats {
        try await query(.stats, user: user, parameters: "week \(date)", asOf: asOf, cost: Self.cost) { projections, txn in
            let profile = try Self.requireProfile(user, &projections, txn)
            let start = StatsReadModel.weekStart(containing: date, weekStart: profile.weekStart)
            return try projections.stats.period(
                user: user, from: start, to: start.adding(days: 6), preferredSource: profile.preferredStepSource, txn)
        }
    }

    /// Statistics of every day from `from` to `to` (at most 3 years).
    public func periodStats(user: String, from: CivilDate, to: CivilDate, asOf: AsOf? = nil) async throws -> PeriodStats {
        guard from <= to, to.daysSinceEpoch - from.daysSinceEpoch < 1100 else {
            throw LogbookError.invalidArgument(name: "to", reason: "the period must run forwards and span at most 3 years")
        }
        return try await query(.stats, user: user, parameters: "period \(from) \(to)", asOf: asOf, cost: Self.cost) { projections, txn in
            let profile = try Self.requireProfile(user, &projections, txn)
            return try projections.stats.period(user: user, from: from, to: to, preferredSource: profile.preferredStepSource, txn)
        }
    }

    /// Statistics of one calendar month.
    public func monthStats(user: String, year: Int, month: Int, asOf: AsOf? = nil) async throws -> PeriodStats {
        guard let first = CivilDate(year: year, month: month, day: 1) else {
            throw LogbookError.invalidArgument(name: "month", reason: "\(year)-\(month) is not a month")
        }
        return try await periodStats(user: user, from: first, to: first.adding(days: CivilDate.daysIn(month: month, year: year) - 1), asOf: asOf)
    }

    // MARK: Goals

    /// Goal progress of the week containing `date`, with streaks.
    public func goalWeek(user: String, containing date: CivilDate, asOf: AsOf? = nil) async throws -> GoalWeek {
        try await query(.goals, user: user, parameters: "week \(date)", asOf: asOf, cost: { _ in 2048 }) { projections, txn in
            let profile = try Self.requireProfile(user, &projections, txn)
            return try projections.goalWeek(user: user, profile: profile, containing: date, txn)
        }
    }

    /// Current and longest streaks of met days as of `day` (default: the last day with data).
    public func streaks(user: String, asOfDay day: CivilDate? = nil, asOf: AsOf? = nil) async throws -> Streaks {
        try await query(.goals, user: user, parameters: "streaks \(day.map(\.description) ?? "last")", asOf: asOf, cost: { _ in 128 }) { projections, txn in
            let profile = try Self.requireProfile(user, &projections, txn)
            return try projections.streaks(user: user, profile: profile, asOf: day, txn)
        }
    }

    // MARK: Places

    /// One catalog place as the user sees it: status (swiped left included), visits, last visit
    /// and the user's notes. Throws ``LogbookError/Code/notFound`` if the catalog has no such place.
    public func place(user: String, placeId: String, asOf: AsOf? = nil) async throws -> PlaceView {
        try await query(.places, user: user, parameters: "place \(placeId)", asOf: asOf, cost: { _ in 1024 }) { projections, txn in
            _ = try Self.requireProfile(user, &projections, txn)
            guard let view = try projections.places.place(user: user, placeId: placeId, txn) else {
                throw LogbookError.notFound(kind: "place", id: placeId)
            }
            return view
        }
    }

    /// Places the user has not seen yet, in catalog order.
    public func placesDeck(user: String, limit: Int = 20, asOf: AsOf? = nil) async throws -> [PlaceView] {
        try await query(.places, user: user, parameters: "deck \(limit)", asOf: asOf, cost: { 512 * $0.count + 64 }) { projections, txn in
            _ = try Self.requireProfile(user, &projections, txn)
            return try projections.places.deck(user: user, limit: max(0, limit), txn)
        }
    }

    /// Places the user saved (swiped right) in a category, by name.
    public func savedPlaces(user: String, category: PlaceCategory, asOf: AsOf? = nil) async throws -> [PlaceView] {
        try await query(.places, user: user, parameters: "saved \(category.rawValue)", asOf: asOf, cost: { 512 * $0.count + 64 }) { projections, txn in
            _ = try Self.requireProfile(user, &projections, txn)
            return try projections.places.saved(user: user, category: category, txn)
        }
    }

    /// Places the user visited in a category, most recent visit first.
    public func visitedPlaces(user: String, category: PlaceCategory, asOf: AsOf? = nil) async throws -> [PlaceView] {
        try await query(.places, user: user, parameters: "visited \(category.rawValue)", asOf: asOf, cost: { 512 * $0.count + 64 }) { projections, txn in
            _ = try Self.requireProfile(user, &projections, txn)
            return try projections.places.visited(user: user, category: category, txn)
        }
    }

    // MARK: Activities

    /// The user's counted workouts, newest first, filtered and paged.
    public func activities(
        user: String, filter: ActivityFilter = .init(), limit: Int = 20, cursor: String? = nil, asOf: AsOf? = nil
    ) async throws -> ActivityPage {
        let parameters = "list \(filter.type?.rawValue ?? "-") \(filter.from.map(\.description) ?? "-") \(filter.to.map(\.description) ?? "-") \(filter.text ?? "") \(limit) \(cursor ?? "")"
        return try await query(.activities, user: user, parameters: parameters, asOf: asOf, cost: { 512 * $0.activities.count + 64 }) { projections, txn in
            _ = try Self.requireProfile(user, &projections, txn)
            return try projections.activities.page(user: user, filter: filter, limit: min(max(1, limit), 500), cursor: cursor, txn)
        }
    }

    /// One workout with its laps.
    public func activity(user: String, workoutId: String, asOf: AsOf? = nil) async throws -> ActivityRecord {
        try await query(.activities, user: user, parameters: "detail \(workoutId)", asOf: asOf, cost: { _ in 1024 }) { projections, txn in
            guard let record = try projections.activities.workouts.get(WorkoutKey(workoutId), txn), record.user == user,
                  record.status != .deleted
            else { throw LogbookError.notFound(kind: "workout", id: workoutId) }
            return record
        }
    }

    /// A workout with its recorded track (every part, in order; nil when none was recorded).
    public func activityTrack(user: String, workoutId: String, asOf: AsOf? = nil) async throws -> (activity: ActivityRecord, track: TrackSamples?) {
        let answer = try await query(.activities, user: user, parameters: "track \(workoutId)", asOf: asOf, cost: { 64 + 40 * ($0.track?.points ?? 0) }) { projections, txn in
            guard let record = try projections.activities.workouts.get(WorkoutKey(workoutId), txn), record.user == user,
                  record.status != .deleted
            else { throw LogbookError.notFound(kind: "workout", id: workoutId) }
            let parts = try projections.activities.tracks.records(in: TrackPartKey(workoutId, .min)...TrackPartKey(workoutId, .max), txn)
            return ActivityWithTrack(activity: record, track: parts.isEmpty ? nil : TrackSamples.joined(parts.map(\.1.samples)))
        }
        return (answer.activity, answer.track)
    }

    /// A workout as the activity screen shows it: laps, splits in the user's units, climb, heart
    /// rate and speed from its track.
    public func activityDetail(user: String, workoutId: String, asOf: AsOf? = nil) async throws -> ActivityDetail {
        let (record, track) = try await activityTrack(user: user, workoutId: workoutId, asOf: asOf)
        let profile = try await profile(user: user, asOf: asOf)
        return ActivityDetail(record: record, track: track, units: profile.units)
    }

    /// The active days of a month.
    public func calendar(user: String, year: Int, month: Int, asOf: AsOf? = nil) async throws -> MonthCalendar {
        guard CivilDate(year: year, month: month, day: 1) != nil else {
            throw LogbookError.invalidArgument(name: "month", reason: "\(year)-\(month) is not a month")
        }
        return try await query(.activities, user: user, parameters: "calendar \(year)-\(month)", asOf: asOf, cost: { 64 * $0.activeDays.count + 64 }) { projections, txn in
            _ = try Self.requireProfile(user, &projections, txn)
            return try projections.activities.calendar(user: user, year: year, month: month, txn)
        }
    }

    /// Insights over the `days` days ending `today` (default: today in the user's time zone).
    public func insights(user: String, days: Int = 30, today: CivilDate? = nil, asOf: AsOf? = nil) async throws -> ActivityInsights {
        guard (1...3660).contains(days) else { throw LogbookError.invalidArgument(name: "days", reason: "1 to 3,660 days") }
        var day = today
        if day == nil {
            let zone = try Rules.timeZone(try await profile(user: user, asOf: asOf).timeZone)
            day = Rules.local(configuration.clock.now(), zone).localDate
        }
        let end = day!
        return try await query(.activities, user: user, parameters: "insights \(days) \(end)", asOf: asOf, cost: { _ in 512 }) { projections, txn in
            _ = try Self.requireProfile(user, &projections, txn)
            return try projections.activities.insights(user: user, days: days, today: end, txn)
        }
    }

    // MARK: Timeline and collectibles

    /// A page of the user's audit timeline.
    public func timeline(
        user: String, filter: TimelineFilter = .init(), limit: Int = 50, cursor: String? = nil, asOf: AsOf? = nil
    ) async throws -> TimelinePage {
        let limit = min(max(1, limit), 500)
        if let asOf {
            let end = try await position(asOf)
            return try await timelinePage(user: user, filter: filter, limit: limit, cursor: cursor, through: end)
        }
        let types = filter.types.map { $0.map(\.rawValue).sorted().joined(separator: ",") } ?? "*"
        let parameters = "\(types) \(filter.from?.rfc3339 ?? "-") \(filter.to?.rfc3339 ?? "-") \(filter.newestFirst) \(limit) \(cursor ?? "")"
        return try await cache.value(QueryCache.Key(query: .timeline, user: user, parameters: parameters), bytes: { 200 * $0.entries.count + 64 }) {
            try await self.timelinePage(user: user, filter: filter, limit: limit, cursor: cursor, through: nil)
        }
    }

    /// The milestones the user has earned.
    public func collectibles(user: String, asOf: AsOf? = nil) async throws -> [Collectible] {
        try await query(.collectibles, user: user, parameters: "all", asOf: asOf, cost: { 128 * $0.count + 64 }) { projections, txn in
            let profile = try Self.requireProfile(user, &projections, txn)
            return try projections.collectibles(user: user, profile: profile, txn)
        }
    }

    /// Caches something derived from one user's answers — a rendering such as an HTTP response
    /// body — under the same exact invalidation as `query`'s own entries: `compute` runs on a
    /// miss (shared by identical concurrent calls) and its result is served until an append
    /// touches what `query` depends on. Read-your-writes holds as for the answers themselves.
    public func cachedDerivation<V: Sendable>(
        of query: CachedQuery, user: String, key: String, bytes: @escaping @Sendable (V) -> Int,
        compute: @escaping @Sendable () async throws -> V
    ) async throws -> V {
        try await cache.value(QueryCache.Key(query: query, user: user, parameters: "derived " + key), bytes: bytes, compute: compute)
    }

    /// Entries, bytes, hits, misses and the last invalidating position of every query cache.
    public func cacheStatus() -> [CacheStatus] { cache.status() }

    // MARK: Plumbing

    private static func cost(_ stats: PeriodStats) -> Int { 96 * stats.days.count + 256 }

    static func requireProfile(_ user: String, _ projections: inout ReadModelSet, _ txn: ReadTransaction?) throws -> Profile {
        guard let profile = try projections.profiles.profile(user, txn) else { throw LogbookError.notFound(kind: "user", id: user) }
        return profile
    }

    /// Answers from the cache (or computes and caches), or — as of a past moment — from the
    /// read models folded in memory.
    func query<V: Sendable>(
        _ cached: CachedQuery, user: String, parameters: String, asOf: AsOf?, cost: @escaping @Sendable (V) -> Int,
        _ body: @escaping @Sendable (inout ReadModelSet, ReadTransaction?) throws -> V
    ) async throws -> V {
        if let asOf {
            var projections = try await projections(user: user, asOf: try await position(asOf))
            return try body(&projections, nil)
        }
        return try await cache.value(QueryCache.Key(query: cached, user: user, parameters: parameters), bytes: cost) {
            try self.read { projections, txn in try body(&projections, txn) }
        }
    }
}

/// A workout and its whole track, as one cached answer.
struct ActivityWithTrack: Sendable {
    var activity: ActivityRecord
    var track: TrackSamples?
}
