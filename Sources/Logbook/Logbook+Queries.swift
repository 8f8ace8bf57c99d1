public import EventLog
import LMDB
import LogbookStorage

/// The query API: every read model, cached (with exact invalidation) unless asked as of a
/// past moment, in which case it is folded in memory from the log without touching live state.
extension Logbook {
    // MARK: Profile

    /// The user's profile.
    public func profile(user: String, asOf: AsOf? = nil) async throws -> Profile {
        try await query(.stats, user: user, parameters: "profile", asOf: asOf, cost: { _ in 256 }) { projections, txn in
            try projections.requireProfile(user, txn)
        }
    }

    // MARK: Stats

    /// Statistics of the week containing `date`, by the user's week start.
    public func weeklyStats(user: String, containing date: CivilDate, asOf: AsOf? = nil) async throws -> PeriodStats {
        try await query(.stats, user: user, parameters: "week \(date)", asOf: asOf, cost: Self.cost) { projections, txn in
            try projections.weeklyStats(user: user, containing: date, txn)
        }
    }

    /// Statistics of every day from `from` to `to` (at most 3 years).
    public func periodStats(user: String, from: CivilDate, to: CivilDate, asOf: AsOf? = nil) async throws -> PeriodStats {
        try Self.checkPeriod(from, to)
        return try await query(.stats, user: user, parameters: "period \(from) \(to)", asOf: asOf, cost: Self.cost) { projections, txn in
            try projections.periodStats(user: user, from: from, to: to, txn)
        }
    }

    /// Statistics of one calendar month.
    public func monthStats(user: String, year: Int, month: Int, asOf: AsOf? = nil) async throws -> PeriodStats {
        guard let first = CivilDate(year: year, month: month, day: 1) else {
            throw LogbookError.invalidArgument(name: "month", reason: "\(year)-\(month) is not a month")
        }
        return try await periodStats(user: user, from: first, to: first.adding(days: CivilDate.daysIn(month: month, year: year) - 1), asOf: asOf)
    }

    /// The stats tab: counted workouts (of `type`, if given) per week, month or year, or over all
    /// time, with each bucket's bests; every bucket holding a day of `from` … `to` is present.
    /// `to` defaults to the user's today, `from` to the 12 buckets ending with `to`'s (`all`: the
    /// first day with a workout). At most 100 years.
    public func statsSummary(
        user: String, period: SummaryPeriod, from: CivilDate? = nil, to: CivilDate? = nil, type: ActivityType? = nil,
        asOf: AsOf? = nil
    ) async throws -> StatsSummary {
        let end = try await userToday(user, to, asOf)
        let parameters = "summary \(period.rawValue) \(from.map(\.description) ?? "-") \(end) \(type?.rawValue ?? "-")"
        return try await query(.activities, user: user, parameters: parameters, asOf: asOf, cost: { 320 * ($0.buckets.count + 1) + 256 }) { projections, txn in
            try projections.statsSummary(user: user, period: period, from: from, to: end, type: type, txn)
        }
    }

    // MARK: Goals

    /// Goal progress of the week containing `date`, with streaks.
    public func goalWeek(user: String, containing date: CivilDate, asOf: AsOf? = nil) async throws -> GoalWeek {
        try await query(.goals, user: user, parameters: "week \(date)", asOf: asOf, cost: { _ in 2048 }) { projections, txn in
            try projections.goalWeek(user: user, containing: date, txn)
        }
    }

    /// Current and longest streaks of met days as of `day` (default: the last day with data).
    public func streaks(user: String, asOfDay day: CivilDate? = nil, asOf: AsOf? = nil) async throws -> Streaks {
        try await query(.goals, user: user, parameters: "streaks \(day.map(\.description) ?? "last")", asOf: asOf, cost: { _ in 128 }) { projections, txn in
            try projections.streaks(user: user, asOf: day, txn)
        }
    }

    // MARK: Places

    /// One catalog place as the user sees it: status (swiped left included), visits, last visit
    /// and the user's notes. Throws ``LogbookError/Code/notFound`` if the catalog has no such place.
    public func place(user: String, placeId: String, asOf: AsOf? = nil) async throws -> PlaceView {
        try await query(.places, user: user, parameters: "place \(placeId)", asOf: asOf, cost: { _ in 1024 }) { projections, txn in
            try projections.place(user: user, placeId: placeId, txn)
        }
    }

    /// Places the user has not seen yet, in catalog order.
    public func placesDeck(user: String, limit: Int = 20, search: PlaceSearch = .init(), asOf: AsOf? = nil) async throws -> [PlaceView] {
        try await query(.places, user: user, parameters: "deck \(limit) \(search)", asOf: asOf, cost: { 512 * $0.count + 64 }) { [index = catalogIndex.pinned()] projections, txn in
            try projections.placesDeck(user: user, limit: limit, search: search, index: txn == nil ? nil : index, txn)
        }
    }

    /// Places the user saved (swiped right) in a category, by name (narrowed by `search`).
    public func savedPlaces(user: String, category: PlaceCategory, search: PlaceSearch = .init(), asOf: AsOf? = nil) async throws -> [PlaceView] {
        try await query(.places, user: user, parameters: "saved \(category.rawValue) \(search)", asOf: asOf, cost: { 512 * $0.count + 64 }) { [index = catalogIndex.pinned()] projections, txn in
            try projections.savedPlaces(user: user, category: category, search: search, index: txn == nil ? nil : index, txn)
        }
    }

    /// Places the user visited in a category, most recent visit first (narrowed by `search`).
    public func visitedPlaces(user: String, category: PlaceCategory, search: PlaceSearch = .init(), asOf: AsOf? = nil) async throws -> [PlaceView] {
        try await query(.places, user: user, parameters: "visited \(category.rawValue) \(search)", asOf: asOf, cost: { 512 * $0.count + 64 }) { [index = catalogIndex.pinned()] projections, txn in
            try projections.visitedPlaces(user: user, category: category, search: search, index: txn == nil ? nil : index, txn)
        }
    }

    // MARK: Activities

    /// The user's counted workouts, newest first, filtered and paged.
    public func activities(
        user: String, filter: ActivityFilter = .init(), limit: Int = 20, cursor: String? = nil, asOf: AsOf? = nil
    ) async throws -> ActivityPage {
        let parameters = "list \(filter.type?.rawValue ?? "-") \(filter.from.map(\.description) ?? "-") \(filter.to.map(\.description) ?? "-") \(filter.text ?? "") \(limit) \(cursor ?? "")"
        return try await query(.activities, user: user, parameters: parameters, asOf: asOf, cost: { 512 * $0.activities.count + 64 }) { projections, txn in
            try projections.activityPage(user: user, filter: filter, limit: limit, cursor: cursor, txn)
        }
    }

    /// One workout with its laps.
    public func activity(user: String, workoutId: String, asOf: AsOf? = nil) async throws -> ActivityRecord {
        try await query(.activities, user: user, parameters: "detail \(workoutId)", asOf: asOf, cost: { _ in 1024 }) { projections, txn in
            try projections.activity(user: user, workoutId: workoutId, txn)
        }
    }

    /// A workout with its recorded track (every part, in order; nil when none was recorded).
    public func activityTrack(user: String, workoutId: String, asOf: AsOf? = nil) async throws -> (activity: ActivityRecord, track: TrackSamples?) {
        let answer = try await query(.activities, user: user, parameters: "track \(workoutId)", asOf: asOf, cost: { 64 + 40 * ($0.track?.points ?? 0) }) { projections, txn in
            try projections.activityWithTrack(user: user, workoutId: workoutId, txn)
        }
        return (answer.activity, answer.track)
    }

    /// A workout as the activity screen shows it: laps, splits in the user's units, climb, heart
    /// rate and speed from its track.
    public func activityDetail(user: String, workoutId: String, asOf: AsOf? = nil) async throws -> ActivityDetail {
        let (record, track) = try await activityTrack(user: user, workoutId: workoutId, asOf: asOf)
        let profile = try await profile(user: user, asOf: asOf)
        let intensity = try await workoutIntensity(user: user, workoutId: workoutId, asOf: asOf)
        return ActivityDetail(record: record, track: track, units: profile.units, intensity: intensity)
    }

    /// The user's running or paused workout with its times so far, measured at the clock's now
    /// (so never cached); nil when none is running. An unknown user is a 404.
    public func currentWorkout(user: String) async throws -> CurrentWorkout? {
        _ = try await profile(user: user)
        let now = configuration.clock.now()
        return try read { projections, txn in
            // Measured at `now`: the answer can change at any moment, so the moment is part of its version.
            AnswerTrail.record(CachedQuery.activities.name, "current \(now.rfc3339)", version: try projections.answerVersion(.activities, user: user, txn))
            return try projections.currentWorkout(user: user, now: now, txn)
        }
    }

    /// The active days of a month.
    public func calendar(user: String, year: Int, month: Int, asOf: AsOf? = nil) async throws -> MonthCalendar {
        guard CivilDate(year: year, month: month, day: 1) != nil else {
            throw LogbookError.invalidArgument(name: "month", reason: "\(year)-\(month) is not a month")
        }
        return try await query(.activities, user: user, parameters: "calendar \(year)-\(month)", asOf: asOf, cost: { 64 * $0.activeDays.count + 64 }) { projections, txn in
            try projections.calendar(user: user, year: year, month: month, txn)
        }
    }

    /// Insights over the `days` days ending `today` (default: today in the user's time zone).
    public func insights(user: String, days: Int = 30, today: CivilDate? = nil, asOf: AsOf? = nil) async throws -> ActivityInsights {
        guard (1...3660).contains(days) else { throw LogbookError.invalidArgument(name: "days", reason: "1 to 3,660 days") }
        let end = try await userToday(user, today, asOf)
        return try await query(.activities, user: user, parameters: "insights \(days) \(end)", asOf: asOf, cost: { _ in 512 }) { projections, txn in
            try projections.insights(user: user, days: days, today: end, txn)
        }
    }

    // MARK: Records

    /// The user's personal records: for each activity type, the best average pace over workouts
    /// of at least 1, 5 and 10 km, the longest distance and the longest moving time, each with
    /// the workout and the date that set it (the first to reach the value holds it).
    public func personalRecords(user: String, asOf: AsOf? = nil) async throws -> PersonalRecords {
        try await query(.records, user: user, parameters: "all", asOf: asOf, cost: { 256 * $0.activityTypes.count + 64 }) { projections, txn in
            try projections.personalRecords(user: user, txn)
        }
    }

    // MARK: Timeline and collectibles

    /// A page of the user's audit timeline.
    public func timeline(
        user: String, filter: TimelineFilter = .init(), limit: Int = 50, cursor: String? = nil, asOf: AsOf? = nil
    ) async throws -> TimelinePage {
        let limit = min(max(1, limit), 500)
        let types = filter.types.map { $0.map(\.rawValue).sorted().joined(separator: ",") } ?? "*"
        let parameters = "\(types) \(filter.from?.rfc3339 ?? "-") \(filter.to?.rfc3339 ?? "-") \(filter.newestFirst) \(limit) \(cursor ?? "")"
        if let asOf {
            let end = try await position(asOf)
            return try await asOfAnswer(CachedQuery.timeline.name, user: user, parameters, end) {
                try await timelinePage(user: user, filter: filter, limit: limit, cursor: cursor, through: end)
            }
        }
        return try await cache.value(QueryCache.Key(query: .timeline, user: user, parameters: parameters), bytes: { 200 * $0.entries.count + 64 }) {
            // The page reads the log only as far as the timeline had folded in the snapshot the
            // version comes from, so the version names exactly the state the page shows.
            let (version, folded) = try self.readModels.environment.read { txn in
                var projections = try self.readModels.projectionSet(txn)
                return (try projections.answerVersion(.timeline, user: user, LMDBTableReader(txn)),
                        try self.readModels.checkpoint(.timeline, txn)?.position ?? 0)
            }
            AnswerTrail.record(CachedQuery.timeline.name, parameters, version: version)
            return try await self.timelinePage(user: user, filter: filter, limit: limit, cursor: cursor, through: folded)
        }
    }

    /// The milestones the user has earned.
    public func collectibles(user: String, asOf: AsOf? = nil) async throws -> [Collectible] {
        try await query(.collectibles, user: user, parameters: "all", asOf: asOf, cost: { 128 * $0.count + 64 }) { projections, txn in
            try projections.collectibles(user: user, txn)
        }
    }

    /// Every milestone, earned or not, with the user's progress towards it (62 of 100 km) and
    /// what earns it, in the order a medals screen lists them.
    public func collectibleProgress(user: String, asOf: AsOf? = nil) async throws -> [CollectibleProgress] {
        try await query(.collectibles, user: user, parameters: "progress", asOf: asOf, cost: { 192 * $0.count + 64 }) { projections, txn in
            try projections.collectibleProgress(user: user, profile: try projections.requireProfile(user, txn), txn)
        }
    }

    // MARK: Declared queries

    /// The answer to `query` for `user`: cached with exact invalidation, or as of a past moment
    /// folded in memory, like every other query. A read model declares its queries beside it as
    /// ``ReadQuery`` values (`.ratedPlaces(limit:cursor:)`), so a new one needs no method here.
    public func answer<Answer: Sendable>(_ query: ReadQuery<Answer>, user: String, asOf: AsOf? = nil) async throws -> Answer {
        try await self.query(query.cached, user: user, parameters: query.name + " " + query.parameters, asOf: asOf, cost: query.cost) { projections, txn in
            try query.read(&projections, user, txn)
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
        try refuseErased(user)
        return try await cache.value(QueryCache.Key(query: query, user: user, parameters: "derived " + key), bytes: bytes, compute: compute)
    }

    /// Entries, bytes, hits, misses and the last invalidating position of every query cache.
    public func cacheStatus() -> [CacheStatus] { cache.status() }

    // MARK: Plumbing

    private static func cost(_ stats: PeriodStats) -> Int { 96 * stats.days.count + 256 }

    /// Computes an answer as of `end` and notes it in the task's ``AnswerTrail``. The log is
    /// append-only, so such an answer changes only when its user's key is destroyed (their events
    /// then read as erased): the step names whether the key was there. The key is looked at before
    /// and after `compute`, and an answer during which it was destroyed — part of it may have read
    /// the user's data, part not — is computed again (once: a key is destroyed once).
    func asOfAnswer<V>(
        _ query: String, user: String, _ parameters: String, _ end: UInt64, _ compute: () async throws -> V
    ) async throws -> V {
        // A shared log's keys are known once loaded: loaded first, so both looks see the same.
        try await payloads.prepare([user], creating: false)
        var erased = try isErased(user)
        while true {
            let answer = try await compute()
            let after = try isErased(user)
            if after == erased {
                AnswerTrail.record("as-of " + query, parameters + " erased \(erased)", version: end)
                return answer
            }
            erased = after
        }
    }

    /// Refuses `user` as no one if their key was destroyed: the live read models hold an erased
    /// user until the read models built again without them switch in.
    private func refuseErased(_ user: String) throws(LogbookError) {
        if try isErased(user) { throw LogbookError.notFound(kind: "user", id: user) }
    }

    /// A period of days a query reads: forwards, and at most 3 years.
    static func checkPeriod(_ from: CivilDate, _ to: CivilDate) throws {
        guard from <= to, to.daysSinceEpoch - from.daysSinceEpoch < 1100 else {
            throw LogbookError.invalidArgument(name: "to", reason: "the period must run forwards and span at most 3 years")
        }
    }

    /// Answers from the cache (or computes and caches), or — as of a past moment — from the
    /// read models folded in memory. Either way the answer's version goes into the task's
    /// ``AnswerTrail``: read in the answer's own snapshot, or the as-of position.
    func query<V: Sendable>(
        _ cached: CachedQuery, user: String, parameters: String, asOf: AsOf?, cost: @escaping @Sendable (V) -> Int,
        _ body: @escaping @Sendable (inout ReadModelSet, (any TableReader)?) throws -> V
    ) async throws -> V {
        // Heard erased from a shared log, before this server's rebuild without them: no one.
        if payloads.shared?.entry(for: user)?.isErased == true { throw LogbookError.notFound(kind: "user", id: user) }
        if let asOf {
            let end = try await position(asOf)
            return try await asOfAnswer(cached.name, user: user, parameters, end) {
                let folded = try await projections(user: user, asOf: end)
                // The fold was admitted: its answer is not refused after it.
                return try await queryWork.run(user: user, continuing: true) {
                    var projections = folded
                    return try body(&projections, nil)
                }
            }
        }
        try refuseErased(user)
        return try await cache.value(QueryCache.Key(query: cached, user: user, parameters: parameters), bytes: cost) {
            // Off the request-serving pool, within the user's share of the query threads.
            try await self.queryWork.run(user: user) {
                try self.read { projections, txn in
                    AnswerTrail.record(cached.name, parameters, version: try projections.answerVersion(cached, user: user, txn))
                    return try body(&projections, txn)
                }
            }
        }
    }
}
