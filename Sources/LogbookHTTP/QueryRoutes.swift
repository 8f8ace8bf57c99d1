import EventLog
import Foundation
import Hummingbird
import Logbook

/// The read side: every read model of one user, cached with exact invalidation, and each
/// answerable `asOf` a past log position or time.
struct QueryRoutes<Context: LogbookRouteContext> {
    let logbook: Logbook

    let catalog: RouteCatalog

    func register(on group: RouterGroup<Context>) {
        func read(
            _ path: String, _ summary: String, query: [String] = [], returns answer: JSONSchema? = nil,
            _ handler: @escaping @Sendable (Request, Context) async throws -> Response
        ) {
            group.route(.get, path, summary, query: query + ["asOf", "minPosition"], statuses: Statuses.read,
                        responses: answer.map { [200: $0] } ?? [:], catalog: catalog, use: handler)
        }
        func read<Answer: DocumentedSchema>(
            _ path: String, _ summary: String, query: [String] = [], returns: Answer.Type,
            _ handler: @escaping @Sendable (Request, Context) async throws -> Response
        ) {
            read(path, summary, query: query, returns: .reference(Answer.self), handler)
        }
        read("users/{user}/profile", "The user's profile", returns: Profile.self) { try await answer(.stats, $0, $1) { user, asOf in try await logbook.profile(user: user, asOf: asOf) } }
        read("users/{user}/stats/weekly", "Statistics of the week containing date", query: ["date"], returns: PeriodStats.self) { request, context in
            let date = try request.requiredQuery("date", queryDay, queryDate)
            return try await answer(.stats, request, context) { user, asOf in try await logbook.weeklyStats(user: user, containing: date, asOf: asOf) }
        }
        read("users/{user}/stats/weekly.svg", "The week's daily bars as an SVG chart", query: ["date", "metric"]) { try await weeklyChart($0, $1) }
        read("users/{user}/stats/period", "Statistics of every day from from to to", query: ["from", "to"], returns: PeriodStats.self) { request, context in
            let from = try request.requiredQuery("from", queryDay, queryDate)
            let to = try request.requiredQuery("to", queryDay, queryDate)
            return try await answer(.stats, request, context) { user, asOf in try await logbook.periodStats(user: user, from: from, to: to, asOf: asOf) }
        }
        read("users/{user}/goals/week", "Goal progress of the week containing date, with streaks", query: ["date"], returns: GoalWeek.self) { request, context in
            let date = try request.requiredQuery("date", queryDay, queryDate)
            return try await answer(.goals, request, context) { user, asOf in try await logbook.goalWeek(user: user, containing: date, asOf: asOf) }
        }
        read("users/{user}/goals/streaks", "Current and longest streaks as of a day", query: ["day"], returns: Streaks.self) { request, context in
            let day = try request.date("day")
            return try await answer(.goals, request, context) { user, asOf in try await logbook.streaks(user: user, asOfDay: day, asOf: asOf) }
        }
        read("users/{user}/places/deck", "Places not seen yet, in catalog order", query: ["limit"], returns: [PlaceView].self) { request, context in
            let limit = try request.limit(default: 20, maximum: 500)
            return try await answer(.places, request, context) { user, asOf in try await logbook.placesDeck(user: user, limit: limit, asOf: asOf) }
        }
        read("users/{user}/places/saved", "Saved places of a category, by name", query: ["category"], returns: [PlaceView].self) { request, context in
            let category = try category(request)
            return try await answer(.places, request, context) { user, asOf in try await logbook.savedPlaces(user: user, category: category, asOf: asOf) }
        }
        read("users/{user}/places/visited", "Visited places of a category, latest visit first", query: ["category"], returns: [PlaceView].self) { request, context in
            let category = try category(request)
            return try await answer(.places, request, context) { user, asOf in try await logbook.visitedPlaces(user: user, category: category, asOf: asOf) }
        }
        read("users/{user}/places/{placeId}", "One catalog place as the user sees it: status, visits, last visit, notes", returns: PlaceView.self) { request, context in
            let placeId = try context.path("placeId")
            return try await answer(.places, request, context) { user, asOf in try await logbook.place(user: user, placeId: placeId, asOf: asOf) }
        }
        read("users/{user}/activities", "Counted workouts, newest first, filtered and paged",
             query: ["type", "from", "to", "text", "limit", "cursor"], returns: ActivityPage.self) { request, context in
            let filter = ActivityFilter(
                type: try request.query("type", "an activity type") { ActivityType(rawValue: $0) },
                from: try request.date("from"), to: try request.date("to"), text: request.query("text"))
            let limit = try request.limit(default: 20, maximum: 500)
            let cursor = request.query("cursor")
            return try await answer(.activities, request, context) { user, asOf in
                try await logbook.activities(user: user, filter: filter, limit: limit, cursor: cursor, asOf: asOf)
            }
        }
        read("users/{user}/activities/{workoutId}", "One workout with its laps, splits in the user's units, climb, heart rate and speed", returns: ActivityDetail.self) { request, context in
            let workoutId = try context.path("workoutId")
            return try await answer(.activities, request, context) { user, asOf in try await logbook.activityDetail(user: user, workoutId: workoutId, asOf: asOf) }
        }
        read("users/{user}/activities/{workoutId}/route.geojson", "The recorded route as a GeoJSON Feature (LineString)") { try await route($0, $1) }
        read("users/{user}/activities/{workoutId}/chart.svg", "Pace, heart rate or elevation against distance, as SVG", query: ["metric"]) {
            try await activityChart($0, $1)
        }
        read("users/{user}/calendar", "The active days of a month", query: ["month"], returns: MonthCalendar.self) { request, context in
            let month = try request.requiredQuery("month", "a month (yyyy-mm) of the years 0002 to 9998") { queryDate($0 + "-01") }
            return try await answer(.activities, request, context) { user, asOf in
                try await logbook.calendar(user: user, year: month.year, month: month.month, asOf: asOf)
            }
        }
        read("users/{user}/insights", "Totals, pace and favorite type over the last days", query: ["days", "today"], returns: ActivityInsights.self) { request, context in
            let days = try request.query("days", "a number of days from 1 to 3660") { Int($0) } ?? 30
            let today = try request.date("today")
            // The window's first day must be a date the answer can write (year 1 or later).
            if let today, (1...3660).contains(days), today.adding(days: -days).year < 1 {
                throw Problem.badRequest("the window of \(days) days before \(today) begins before the year 1", field: "days")
            }
            // Without `today` the window moves with the clock: not a derivation of the log alone, so not cached.
            return try await answer(.activities, request, context, cacheable: today != nil) { user, asOf in
                try await logbook.insights(user: user, days: days, today: today, asOf: asOf)
            }
        }
        read("users/{user}/records", "Personal records per activity type: best paces over 1, 5 and 10 km, longest distance and time", returns: PersonalRecords.self) {
            try await answer(.records, $0, $1) { user, asOf in try await logbook.personalRecords(user: user, asOf: asOf) }
        }
        read("users/{user}/collectibles", "Milestones earned", returns: [Collectible].self) { try await answer(.collectibles, $0, $1) { user, asOf in try await logbook.collectibles(user: user, asOf: asOf) } }
        read("users/{user}/timeline", "The audit timeline, paged by cursor", query: ["types", "from", "to", "order", "limit", "cursor"], returns: TimelinePage.self) { request, context in
            let filter = try timelineFilter(request)
            let limit = try request.limit(default: 50, maximum: 500)
            let cursor = request.query("cursor")
            return try await answer(.timeline, request, context) { user, asOf in
                try await logbook.timeline(user: user, filter: filter, limit: limit, cursor: cursor, asOf: asOf)
            }
        }
    }

    /// Checks access, reads `asOf`, runs the query and encodes its answer. Live answers are
    /// encoded once and the bytes cached beside the answer (in `cache`, with the same exact
    /// invalidation), so a repeated query costs no JSON encoding; `asOf` answers are not cached.
    private func answer<V: Encodable & Sendable>(
        _ cache: CachedQuery, _ request: Request, _ context: Context, cacheable: Bool = true,
        _ query: @escaping @Sendable (String, AsOf?) async throws -> V
    ) async throws -> Response {
        let user = try context.path("user")
        let asOf = try request.asOf()
        // Read-your-writes across servers: wait (bounded) until the read models hold that position.
        if let position = try request.minPosition() { try await logbook.catchUp(to: position) }
        if asOf != nil || !cacheable { return try JSONOutput.response(try await query(user, asOf)) }
        let body = try await logbook.cachedDerivation(of: cache, user: user, key: "json \(request.uri)", bytes: { $0.count }) {
            try JSONOutput.encoder.encode(try await query(user, nil))
        }
        return JSONOutput.response(bytes: body)
    }

    private func category(_ request: Request) throws -> PlaceCategory {
        try request.requiredQuery("category", "restaurant or activity") { PlaceCategory(rawValue: $0) }
    }

    private func timelineFilter(_ request: Request) throws -> TimelineFilter {
        var filter = TimelineFilter()
        filter.types = try request.eventTypes()
        filter.from = try request.query("from", "an RFC 3339 time") { try? Timestamp(parsing: $0) }
        filter.to = try request.query("to", "an RFC 3339 time") { try? Timestamp(parsing: $0) }
        if let order = request.query("order") {
            guard order == "newest" || order == "oldest" else { throw Problem.badRequest("order must be newest or oldest", field: "order") }
            filter.newestFirst = order == "newest"
        }
        return filter
    }

    /// The route as GeoJSON (404 when the workout has no positions).
    private func route(_ request: Request, _ context: Context) async throws -> Response {
        let workoutId = try context.path("workoutId")
        return try await derived(request, context, contentType: "application/geo+json") { logbook, user, asOf in
            let (record, track) = try await logbook.activityTrack(user: user, workoutId: workoutId, asOf: asOf)
            guard let track, let json = TrackAnalysis.geoJSON(track, workoutId: workoutId, activityType: record.activityType) else {
                throw Problem.notFound("workout \(workoutId) has no recorded route")
            }
            return Data(json.utf8)
        }
    }

    /// A chart of the workout's track: pace (default), heartRate or elevation against distance.
    private func activityChart(_ request: Request, _ context: Context) async throws -> Response {
        let workoutId = try context.path("workoutId")
        let metric = try request.query("metric", "pace, heartRate or elevation") { ActivityChart.Metric(rawValue: $0) } ?? .pace
        return try await derived(request, context, contentType: "image/svg+xml") { logbook, user, asOf in
            let (_, track) = try await logbook.activityTrack(user: user, workoutId: workoutId, asOf: asOf)
            let profile = try await logbook.profile(user: user, asOf: asOf)
            let points = track.map(TrackAnalysis.points) ?? []
            return Data(ActivityChart(points: points, metric: metric, units: profile.units).svg.utf8)
        }
    }

    /// A non-JSON answer computed from the activities read model, cached like the JSON ones.
    private func derived(
        _ request: Request, _ context: Context, contentType: String,
        _ render: @escaping @Sendable (Logbook, String, AsOf?) async throws -> Data
    ) async throws -> Response {
        let user = try context.path("user")
        let asOf = try request.asOf()
        if let position = try request.minPosition() { try await logbook.catchUp(to: position) }
        let logbook = logbook
        let body = asOf == nil
            ? try await logbook.cachedDerivation(of: .activities, user: user, key: "\(contentType) \(request.uri)", bytes: { $0.count }) {
                try await render(logbook, user, nil)
            }
            : try await render(logbook, user, asOf)
        return JSONOutput.response(bytes: body, contentType: contentType)
    }

    /// The week's daily bars as SVG: distance (default) or moving time.
    private func weeklyChart(_ request: Request, _ context: Context) async throws -> Response {
        let date = try request.requiredQuery("date", queryDay, queryDate)
        let metric = try request.query("metric", "distance or time") { WeeklyChart.Metric(rawValue: $0) } ?? .distance
        let user = try context.path("user")
        let asOf = try request.asOf()
        if let position = try request.minPosition() { try await logbook.catchUp(to: position) }
        let logbook = logbook
        let render: @Sendable () async throws -> Data = {
            let stats = try await logbook.weeklyStats(user: user, containing: date, asOf: asOf)
            let profile = try await logbook.profile(user: user, asOf: asOf)
            return Data(WeeklyChart(stats: stats, metric: metric, units: profile.units).svg.utf8)
        }
        let svg = asOf == nil
            ? try await logbook.cachedDerivation(of: .stats, user: user, key: "svg \(request.uri)", bytes: { $0.count }, compute: render)
            : try await render()
        return JSONOutput.response(bytes: svg, contentType: "image/svg+xml")
    }
}
