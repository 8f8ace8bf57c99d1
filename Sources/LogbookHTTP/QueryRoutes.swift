import EventLog
import Foundation
import Hummingbird
import Logbook

/// The read side: every read model of one user, cached with exact invalidation, and each
/// answerable `asOf` a past log position or time.
struct QueryRoutes<Context: LogbookRouteContext> {
    let logbook: Logbook

    let catalog: RouteCatalog

    func register(on group: RouteGroup<Context>) {
        /// A read of one user's read model: its own query, then where it answers from (``ReadPoint``).
        /// `cache` is where its answers are kept, and what the API document publishes as the event
        /// types that change them; `followsClock`: the answer can also change with the user's today.
        func read<Query: RouteQuery>(
            _ path: String, _ summary: String, cache: CachedQuery, followsClock: Bool = false, query: Query.Type, returns answer: JSONSchema? = nil,
            _ handler: @escaping @Sendable (Request, Context, Query) async throws -> Response
        ) {
            group.route(.get, path, summary, query: Query.parameters + ReadPoint.parameters, statuses: Statuses.conditionalRead,
                        responses: answer.map { [200: $0] } ?? [:], changes: AnswerChanges(cache: cache, followsClock: followsClock), catalog: catalog) {
                request, context in
                let query = try Query(request)
                return try await DeclaredCache.$current.withValue(cache) { try await handler(request, context, query) }
            }
        }
        func read<Query: RouteQuery, Answer: DocumentedSchema>(
            _ path: String, _ summary: String, cache: CachedQuery, followsClock: Bool = false, query: Query.Type, returns: Answer.Type,
            _ handler: @escaping @Sendable (Request, Context, Query) async throws -> Response
        ) {
            read(path, summary, cache: cache, followsClock: followsClock, query: query, returns: .reference(Answer.self), handler)
        }
        func read<Answer: DocumentedSchema>(
            _ path: String, _ summary: String, cache: CachedQuery, returns: Answer.Type, _ handler: @escaping @Sendable (Request, Context) async throws -> Response
        ) {
            read(path, summary, cache: cache, query: NoQuery.self, returns: .reference(Answer.self)) { request, context, _ in try await handler(request, context) }
        }
        read("users/{user}/profile", "The user's profile", cache: .stats, returns: Profile.self) { try await answer($0, $1) { user, asOf in try await logbook.profile(user: user, asOf: asOf) } }
        read("users/{user}/stats/weekly", "Statistics of the week containing date", cache: .stats, query: WeekQuery.self, returns: PeriodStats.self) { request, context, query in
            try await answer(request, context) { user, asOf in try await logbook.weeklyStats(user: user, containing: query.date, asOf: asOf) }
        }
        read("users/{user}/stats/weekly.svg", "The week's daily bars as an SVG chart", cache: .stats, query: WeeklyChartQuery.self) { try await weeklyChart($0, $1, $2) }
        read("users/{user}/stats/period", "Statistics of every day from from to to", cache: .stats, query: PeriodQuery.self, returns: PeriodStats.self) { request, context, query in
            try await answer(request, context) { user, asOf in try await logbook.periodStats(user: user, from: query.from, to: query.to, asOf: asOf) }
        }
        read("users/{user}/stats/summary", "The stats tab: counted workouts per week, month or year, or over all time, with each bucket's bests", cache: .activities, followsClock: true, query: SummaryQuery.self, returns: StatsSummary.self) { request, context, query in
            // Without `to` the range ends on the user's today: the day is part of the cached answer's key.
            let today = query.to == nil ? "today \(try await trainingToday(request, context, nil))" : ""
            return try await answer(request, context, key: today) { user, asOf in
                try await logbook.statsSummary(user: user, period: query.period, from: query.from, to: query.to, type: query.type, asOf: asOf)
            }
        }
        read("users/{user}/stats/summary.svg", "The stats tab's bars, one per bucket, as an SVG chart", cache: .activities, followsClock: true, query: SummaryChartQuery.self) { try await summaryChart($0, $1, $2) }
        read("users/{user}/goals/week", "Goal progress of the week containing date, with streaks", cache: .goals, query: WeekQuery.self, returns: GoalWeek.self) { request, context, query in
            try await answer(request, context) { user, asOf in try await logbook.goalWeek(user: user, containing: query.date, asOf: asOf) }
        }
        read("users/{user}/goals/streaks", "Current and longest streaks as of a day", cache: .goals, query: StreaksQuery.self, returns: Streaks.self) { request, context, query in
            try await answer(request, context) { user, asOf in try await logbook.streaks(user: user, asOfDay: query.day, asOf: asOf) }
        }
        read("users/{user}/places/deck", "Places not seen yet, in catalog order (nearest first with near), narrowed by q, near and radius", cache: .places, query: DeckQuery.self, returns: [PlaceView].self) { request, context, query in
            try await answer(request, context) { user, asOf in try await logbook.placesDeck(user: user, limit: query.limit, search: query.search, asOf: asOf) }
        }
        read("users/{user}/places/saved", "Saved places of a category, by name (nearest first with near), narrowed by q, near and radius", cache: .places, query: PlaceCategoryQuery.self, returns: [PlaceView].self) { request, context, query in
            try await answer(request, context) { user, asOf in try await logbook.savedPlaces(user: user, category: query.category, search: query.search, asOf: asOf) }
        }
        read("users/{user}/places/visited", "Visited places of a category, latest visit first (nearest first with near), narrowed by q, near and radius", cache: .places, query: PlaceCategoryQuery.self, returns: [PlaceView].self) { request, context, query in
            try await answer(request, context) { user, asOf in try await logbook.visitedPlaces(user: user, category: query.category, search: query.search, asOf: asOf) }
        }
        read("users/{user}/places/rated", "The places the user rated, best first (more stars first, then by place id), a page at a time, with how many places got each number of stars",
             cache: .ratedPlaces, query: PageQuery.self, returns: RatedPlaces.self) { request, context, query in
            try await answer(request, context) { user, asOf in try await logbook.answer(.ratedPlaces(limit: query.limit, cursor: query.cursor), user: user, asOf: asOf) }
        }
        read("users/{user}/places/{placeId}", "One catalog place as the user sees it: status, visits, last visit, notes", cache: .places, returns: PlaceView.self) { request, context in
            let placeId = try context.path("placeId")
            return try await answer(request, context) { user, asOf in try await logbook.place(user: user, placeId: placeId, asOf: asOf) }
        }
        read("users/{user}/activities", "Counted workouts, newest first, filtered and paged", cache: .activities,
             query: ActivitiesQuery.self, returns: ActivityPage.self) { request, context, query in
            try await answer(request, context) { user, asOf in
                try await logbook.activities(user: user, filter: query.filter, limit: query.limit, cursor: query.cursor, asOf: asOf)
            }
        }
        read("users/{user}/activities/{workoutId}", "One workout with its laps, splits in the user's units, climb, heart rate and speed", cache: .activities, returns: ActivityDetail.self) { request, context in
            let workoutId = try context.path("workoutId")
            return try await answer(request, context) { user, asOf in try await logbook.activityDetail(user: user, workoutId: workoutId, asOf: asOf) }
        }
        group.route(.get, "users/{user}/workouts/current",
                    "The running or paused workout: elapsed and moving seconds so far by the server's clock, its pauses, its track so far "
                        + "(404 when none is running)", statuses: Statuses.conditionalRead, responses: [200: .reference(CurrentWorkout.self)], catalog: catalog) {
            request, context in
            guard let current = try await logbook.currentWorkout(user: try context.path("user")) else {
                throw Problem.notFound("no workout is running or paused")
            }
            return try JSONOutput.response(current)
        }
        read("users/{user}/activities/{workoutId}/route.geojson", "The recorded route as a GeoJSON Feature (LineString)", cache: .activities, query: NoQuery.self) {
            request, context, _ in try await route(request, context)
        }
        read("users/{user}/activities/{workoutId}/chart.svg", "Pace, speed, heart rate, elevation, cadence or power against distance or time, as SVG", cache: .activities, query: ActivityChartQuery.self) {
            try await activityChart($0, $1, $2)
        }
        read("users/{user}/calendar", "The active days of a month", cache: .activities, query: CalendarQuery.self, returns: MonthCalendar.self) { request, context, query in
            try await answer(request, context) { user, asOf in
                try await logbook.calendar(user: user, year: query.month.year, month: query.month.month, asOf: asOf)
            }
        }
        read("users/{user}/insights", "Totals, pace and favorite type over the last days", cache: .activities, followsClock: true, query: InsightsQuery.self, returns: ActivityInsights.self) { request, context, query in
            // Without `today` the window moves with the clock: not a derivation of the log alone, so not cached.
            try await answer(request, context, cacheable: query.today != nil) { user, asOf in
                try await logbook.insights(user: user, days: query.days, today: query.today, asOf: asOf)
            }
        }
        read("users/{user}/records", "Personal records per activity type: best paces over 1, 5 and 10 km, longest distance and time", cache: .records, returns: PersonalRecords.self) {
            try await answer($0, $1) { user, asOf in try await logbook.personalRecords(user: user, asOf: asOf) }
        }
        read("users/{user}/training/week", "The weekly training summary: plan against done, time in zones, load, acute, chronic, ACWR and the active target", cache: .trainingWeek, followsClock: true,
             query: TrainingWeekQuery.self, returns: TrainingWeek.self) { request, context, query in
            let today = try await trainingToday(request, context, query.today)
            return try await answer(request, context, key: "\(today)") { user, asOf in
                try await logbook.trainingWeek(user: user, containing: query.date, today: today, asOf: asOf)
            }
        }
        read("users/{user}/training/plan", "The planned workouts from from to to, each with its status and the workout that matched it", cache: .trainingPlan, followsClock: true,
             query: TrainingPlanQuery.self, returns: TrainingPlan.self) { request, context, query in
            let today = try await trainingToday(request, context, query.today)
            return try await answer(request, context, key: "\(today)") { user, asOf in
                try await logbook.trainingPlan(user: user, from: query.from, to: query.to, today: today, asOf: asOf)
            }
        }
        read("users/{user}/training/targets", "The user's training targets and the active one, with days to race and a predicted time", cache: .trainingTargets, followsClock: true,
             query: TrainingTargetsQuery.self, returns: TrainingTargets.self) { request, context, query in
            let today = try await trainingToday(request, context, query.today)
            return try await answer(request, context, key: "\(today)") { user, asOf in
                try await logbook.trainingTargets(user: user, today: today, asOf: asOf)
            }
        }
        read("users/{user}/training/load", "Daily training load with acute (7 days), chronic (28 days) and ACWR, from from to to", cache: .trainingLoad,
             query: PeriodQuery.self, returns: TrainingLoad.self) { request, context, query in
            try await answer(request, context) { user, asOf in
                try await logbook.trainingLoad(user: user, from: query.from, to: query.to, asOf: asOf)
            }
        }
        read("users/{user}/training/load.svg", "Daily training load with acute and chronic load, as an SVG chart", cache: .trainingLoad, query: PeriodQuery.self) {
            request, context, query in try await loadChart(request, context, query)
        }
        read("users/{user}/collectibles", "Milestones earned", cache: .collectibles, returns: [Collectible].self) { try await answer($0, $1) { user, asOf in try await logbook.collectibles(user: user, asOf: asOf) } }
        read("users/{user}/collectibles/progress", "Every milestone, earned or not, with the progress towards it and what earns it", cache: .collectibles,
             returns: [CollectibleProgress].self) { try await answer($0, $1) { user, asOf in try await logbook.collectibleProgress(user: user, asOf: asOf) } }
        read("users/{user}/timeline", "The audit timeline, paged by cursor", cache: .timeline, query: TimelineQuery.self, returns: TimelinePage.self) { request, context, query in
            try await answer(request, context) { user, asOf in
                try await logbook.timeline(user: user, filter: query.filter, limit: query.limit, cursor: query.cursor, asOf: asOf)
            }
        }
    }

    /// Checks access, reads `asOf`, runs the query and encodes its answer. Live answers are
    /// encoded once and the bytes cached beside the answer (in `cache`, with the same exact
    /// invalidation), so a repeated query costs no JSON encoding; `asOf` answers are not cached.
    /// The encoding is the user's work as the query is: it runs on the query threads, charged to
    /// the user, so a user asking for large answers slows no one else's requests.
    private func answer<V: Encodable & Sendable>(
        _ request: Request, _ context: Context, cacheable: Bool = true, key: String = "",
        _ query: @escaping @Sendable (String, AsOf?) async throws -> V
    ) async throws -> Response {
        let cache = try DeclaredCache.required()
        let user = try context.path("user")
        let point = try ReadPoint(request)
        let asOf = point.asOf
        // Read-your-writes across servers: wait (bounded) until the read models hold that position.
        if let position = point.minPosition { try await logbook.catchUp(to: position) }
        let logbook = logbook
        @Sendable func encoded(_ asOf: AsOf?) async throws -> Data {
            let value = try await query(user, asOf)
            return try await logbook.work(for: user) { try JSONOutput.encoder.encode(value) }
        }
        if asOf != nil || !cacheable { return JSONOutput.response(bytes: try await encoded(asOf)) }
        let body = try await logbook.cachedDerivation(of: cache, user: user, key: "json \(request.uri) \(key)", bytes: { $0.count }) {
            try await encoded(nil)
        }
        return JSONOutput.response(bytes: body)
    }

    /// The day a training answer is judged as of: the query's, else the user's today by the clock
    /// (access is checked first, so a stranger learns nothing of the user's time zone).
    private func trainingToday(_ request: Request, _ context: Context, _ given: CivilDate?) async throws -> CivilDate {
        if let given { return given }
        return try await logbook.today(user: try context.path("user"), asOf: try ReadPoint(request).asOf)
    }

    /// The route as GeoJSON (404 when the workout has no positions).
    private func route(_ request: Request, _ context: Context) async throws -> Response {
        let workoutId = try context.path("workoutId")
        return try await derived(request, context, contentType: "application/geo+json") { logbook, user, asOf in
            let (record, track) = try await logbook.activityTrack(user: user, workoutId: workoutId, asOf: asOf)
            let json = try await logbook.work(for: user) { track.flatMap { TrackAnalysis.geoJSON($0, workoutId: workoutId, activityType: record.activityType) } }
            guard let json else { throw Problem.notFound("workout \(workoutId) has no recorded route") }
            return Data(json.utf8)
        }
    }

    /// A chart of the workout's track: pace (default), speed, heartRate, elevation, cadence or
    /// power against distance (default) or time.
    private func activityChart(_ request: Request, _ context: Context, _ query: ActivityChartQuery) async throws -> Response {
        let workoutId = try context.path("workoutId")
        let (metric, axis) = (query.metric, query.axis)
        return try await derived(request, context, contentType: "image/svg+xml") { logbook, user, asOf in
            let (_, track) = try await logbook.activityTrack(user: user, workoutId: workoutId, asOf: asOf)
            let profile = try await logbook.profile(user: user, asOf: asOf)
            return try await logbook.work(for: user) {
                Data(ActivityChart(points: track.map(TrackAnalysis.points) ?? [], metric: metric, axis: axis, units: profile.units).svg.utf8)
            }
        }
    }

    /// A non-JSON answer computed from the route's read models, cached like the JSON ones
    /// (`render` draws on the query threads, through ``Logbook/work(for:admitted:_:)``).
    private func derived(
        _ request: Request, _ context: Context, contentType: String, key: String = "",
        _ render: @escaping @Sendable (Logbook, String, AsOf?) async throws -> Data
    ) async throws -> Response {
        let user = try context.path("user")
        let point = try ReadPoint(request)
        let asOf = point.asOf
        if let position = point.minPosition { try await logbook.catchUp(to: position) }
        let logbook = logbook
        let body = asOf == nil
            ? try await logbook.cachedDerivation(of: try DeclaredCache.required(), user: user, key: "\(contentType) \(request.uri) \(key)", bytes: { $0.count }) {
                try await render(logbook, user, nil)
            }
            : try await render(logbook, user, asOf)
        return JSONOutput.response(bytes: body, contentType: contentType)
    }

    /// The week's daily bars as SVG: distance (default) or moving time.
    /// The load chart: the same answer as `training/load`, drawn; cached as its JSON is.
    private func loadChart(_ request: Request, _ context: Context, _ query: PeriodQuery) async throws -> Response {
        let user = try context.path("user")
        let point = try ReadPoint(request)
        let asOf = point.asOf
        if let position = point.minPosition { try await logbook.catchUp(to: position) }
        let logbook = logbook
        let render: @Sendable () async throws -> Data = {
            let load = try await logbook.trainingLoad(user: user, from: query.from, to: query.to, asOf: asOf)
            return try await logbook.work(for: user) { Data(TrainingLoadChart(load: load).svg.utf8) }
        }
        let svg = asOf == nil
            ? try await logbook.cachedDerivation(of: try DeclaredCache.required(), user: user, key: "svg \(request.uri)", bytes: { $0.count }, compute: render)
            : try await render()
        return JSONOutput.response(bytes: svg, contentType: "image/svg+xml")
    }

    /// The stats tab's bars as SVG, cached as the summary's JSON is.
    private func summaryChart(_ request: Request, _ context: Context, _ query: SummaryChartQuery) async throws -> Response {
        // Without a `to` the answer follows the user's today: the key names the day it was drawn for.
        let today = query.summary.to == nil ? "today \(try await trainingToday(request, context, nil))" : ""
        return try await derived(request, context, contentType: "image/svg+xml", key: today) { logbook, user, asOf in
            let q = query.summary
            let summary = try await logbook.statsSummary(user: user, period: q.period, from: q.from, to: q.to, type: q.type, asOf: asOf)
            let profile = try await logbook.profile(user: user, asOf: asOf)
            return try await logbook.work(for: user) { Data(SummaryChart(summary: summary, metric: query.metric, units: profile.units).svg.utf8) }
        }
    }

    private func weeklyChart(_ request: Request, _ context: Context, _ query: WeeklyChartQuery) async throws -> Response {
        let date = query.date
        let metric = query.metric
        let user = try context.path("user")
        let point = try ReadPoint(request)
        let asOf = point.asOf
        if let position = point.minPosition { try await logbook.catchUp(to: position) }
        let logbook = logbook
        let render: @Sendable () async throws -> Data = {
            let stats = try await logbook.weeklyStats(user: user, containing: date, asOf: asOf)
            let profile = try await logbook.profile(user: user, asOf: asOf)
            return try await logbook.work(for: user) { Data(WeeklyChart(stats: stats, metric: metric, units: profile.units).svg.utf8) }
        }
        let svg = asOf == nil
            ? try await logbook.cachedDerivation(of: try DeclaredCache.required(), user: user, key: "svg \(request.uri)", bytes: { $0.count }, compute: render)
            : try await render()
        return JSONOutput.response(bytes: svg, contentType: "image/svg+xml")
    }
}

/// The cache a read route declared when it was registered: its handler's answers are kept there,
/// so the API document's list of what changes them and the cache's invalidation are one declaration.
enum DeclaredCache {
    @TaskLocal static var current: CachedQuery?

    static func required() throws -> CachedQuery {
        guard let current else { throw Problem.internalFailure(cause: "a read route answered without the cache it declared") }
        return current
    }
}
