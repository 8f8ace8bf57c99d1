import EventLog
import Hummingbird
import Logbook
import LogbookInput

/// Where every read of a read model answers from: `asOf` a past position or time, and
/// `minPosition` (or its header) a position the answer must reflect. Every read route takes these
/// besides its own query.
struct ReadPoint: RouteQuery {
    static let asOfParameter = QueryParameter<AsOf>(
        "asOf", .oneOf("A log position (123 or position:123) or an RFC 3339 time", [
            .string("A log position", pattern: "^(position:)?[0-9]{1,19}$"),
            .requestTime,
        ]), "Answer as of a log position or a time (not cached)", expected: "a log position or an RFC 3339 time",
        read: { try QueryValues.asOf($0) })
    static let minPositionParameter = QueryParameter<UInt64>(
        "minPosition", .integer("A log position", minimum: 0, maximum: Int.max),
        "Answer only once the read models hold this log position (a write's X-Logbook-Position, made on any server); 503 with "
            + "Retry-After if they do not within the configured wait. Also the X-Logbook-Min-Position header",
        expected: "a log position (0 to 2^63 − 1)", read: { QueryValues.decimalPosition($0) })
    static var parameters: [DocumentedQueryParameter] { [asOfParameter.documented, minPositionParameter.documented] }

    let asOf: AsOf?
    let minPosition: Position?

    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        asOf = try Self.asOfParameter.value(in: parameters)
        // Both forms are checked when both are sent; the query's wins.
        var position: UInt64?
        if let text = request.headers[.logbookMinPosition] {
            guard let value = QueryValues.decimalPosition(text) else {
                throw Problem.badRequest("X-Logbook-Min-Position must be a log position (0 to 2^63 − 1), not \"\(text.prefix(40))\"",
                                         field: "X-Logbook-Min-Position")
            }
            position = value
        }
        if let value = try Self.minPositionParameter.value(in: parameters) { position = value }
        minPosition = position.map { Position($0) }
    }
}

/// `date`: a day of the week asked for (weekly statistics, the goal week).
struct WeekQuery: RouteQuery {
    static let date = QueryParameter<CivilDate>.day("date", required: true, "A day of the week asked for (years 0002 to 9998)")
    static var parameters: [DocumentedQueryParameter] { [date.documented] }
    let date: CivilDate
    init(_ request: Request) throws { date = try Self.date.requiredValue(in: request) }
}

/// The weekly chart: the week, and what its bars show.
struct WeeklyChartQuery: RouteQuery {
    static let metric = QueryParameter<WeeklyChart.Metric>.choice(
        "metric", WeeklyChart.Metric.self, "What the bars show", "What the bars show (default distance)")
    static var parameters: [DocumentedQueryParameter] { [WeekQuery.date.documented, metric.documented] }
    let date: CivilDate
    let metric: WeeklyChart.Metric
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        date = try WeekQuery.date.requiredValue(in: parameters)
        metric = try Self.metric.value(in: parameters) ?? .distance
    }
}

/// Statistics of every day from `from` to `to`.
struct PeriodQuery: RouteQuery {
    static let from = QueryParameter<CivilDate>.day("from", required: true, "First day")
    static let to = QueryParameter<CivilDate>.day("to", required: true, "Last day: not before from, and less than 1,100 days after it (else 400 naming to)")
    static var parameters: [DocumentedQueryParameter] { [from.documented, to.documented] }
    let from: CivilDate
    let to: CivilDate
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        from = try Self.from.requiredValue(in: parameters)
        to = try Self.to.requiredValue(in: parameters)
    }
}

/// The stats tab: `period`, the range (`from`, `to`) and the activity `type`.
struct SummaryQuery: RouteQuery {
    static let period = QueryParameter<SummaryPeriod>.choice(
        "period", SummaryPeriod.self, "How the range is cut", "week (the user's weeks), month, year, or all (one bucket)", required: true)
    static let from = QueryParameter<CivilDate>.day(
        "from", "First day: its bucket is the first (default: the 12 buckets ending with to's; for all, the first day with a workout)")
    static let to = QueryParameter<CivilDate>.day(
        "to", "Last day: its bucket is the last (default: the user's today); not before from, and less than 36,525 days after it (else 400)")
    static var parameters: [DocumentedQueryParameter] { [period.documented, from.documented, to.documented, ActivitiesQuery.type.documented] }
    let period: SummaryPeriod
    let from: CivilDate?
    let to: CivilDate?
    let type: ActivityType?
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        period = try Self.period.requiredValue(in: parameters)
        from = try Self.from.value(in: parameters)
        to = try Self.to.value(in: parameters)
        type = try ActivitiesQuery.type.value(in: parameters)
    }
}

/// The stats tab's chart: the summary's query and the `metric` its bars show.
struct SummaryChartQuery: RouteQuery {
    static let metric = QueryParameter<SummaryChart.Metric>.choice(
        "metric", SummaryChart.Metric.self, "What the bars show", "What the bars show (default distance)")
    static var parameters: [DocumentedQueryParameter] { SummaryQuery.parameters + [metric.documented] }
    let summary: SummaryQuery
    let metric: SummaryChart.Metric
    init(_ request: Request) throws {
        summary = try SummaryQuery(request)
        metric = try Self.metric.value(in: request) ?? .distance
    }
}

/// `day`: the day streaks are computed as of.
struct StreaksQuery: RouteQuery {
    static let day = QueryParameter<CivilDate>.day("day", "The day the streaks are computed as of (default: the last day with data)")
    static var parameters: [DocumentedQueryParameter] { [day.documented] }
    let day: CivilDate?
    init(_ request: Request) throws { day = try Self.day.value(in: request) }
}

/// A page of the places deck.
struct DeckQuery: RouteQuery {
    static let limit = QueryParameter<Int>.limit(maximum: 500)
    static var parameters: [DocumentedQueryParameter] { [limit.documented] + PlaceSearchQuery.parameters }
    let limit: Int
    let search: PlaceSearch
    init(_ request: Request) throws {
        limit = try Self.limit.value(in: request) ?? 20
        search = try PlaceSearchQuery.search(in: request)
    }
}

/// Saved or visited places of one category.
struct PlaceCategoryQuery: RouteQuery {
    static let category = QueryParameter<PlaceCategory>.choice("category", PlaceCategory.self, "Place category", "Place category",
                                                               required: true)
    static var parameters: [DocumentedQueryParameter] { [category.documented] + PlaceSearchQuery.parameters }
    let category: PlaceCategory
    let search: PlaceSearch
    init(_ request: Request) throws {
        category = try Self.category.requiredValue(in: request)
        search = try PlaceSearchQuery.search(in: request)
    }
}

/// The search every places list takes: text, and a point with a radius.
enum PlaceSearchQuery {
    static let text = QueryParameter<String>(
        "q", .string("Text to find", minLength: 1, maxLength: PlaceSearch.maxTextLength),
        "Only places whose name, subcategory or address holds this, compared case- and accent-insensitively (one fixed folding: see PlaceSearch)",
        expected: "a text of 1 to \(PlaceSearch.maxTextLength) characters", read: QueryValues.searchText)
    static let near = QueryParameter<(latitude: Double, longitude: Double)>(
        "near", .string("A point: latitude,longitude in degrees", pattern: "^-?[0-9]+(\\.[0-9]+)?,-?[0-9]+(\\.[0-9]+)?$"),
        "Only places within radius of this point (latitude,longitude), nearest first, each with its distanceMeters",
        expected: "latitude,longitude in degrees (-90…90, -180…180)", read: QueryValues.point)
    static let radius = QueryParameter<Double>(
        "radius", .number("Metres", minimum: 1, maximum: PlaceSearch.maxRadiusMeters),
        "Metres from near a place may be (default 5,000; only with near)",
        expected: "metres from 1 to \(Int(PlaceSearch.maxRadiusMeters))",
        read: QueryValues.radius)
    static var parameters: [DocumentedQueryParameter] { [text.documented, near.documented, radius.documented] }

    static func search(in request: Request) throws -> PlaceSearch {
        try QueryValues.placeSearch(text: try text.value(in: request), near: try near.value(in: request), radius: try radius.value(in: request))
    }
}

/// The activity list: filters and a page.
struct ActivitiesQuery: RouteQuery {
    static let type = QueryParameter<ActivityType>.choice("type", ActivityType.self, "Activity type", "Only workouts of this type",
                                                          expected: "an activity type")
    static let from = QueryParameter<CivilDate>.day("from", "Only workouts started on or after this local day")
    static let to = QueryParameter<CivilDate>.day("to", "Only workouts started on or before this local day")
    static let text = QueryParameter<String>("text", .string("Text to find"), "Only workouts whose title or notes contain this (case-insensitive)",
                                             expected: "a text", read: { $0 })
    static let limit = QueryParameter<Int>.limit(maximum: 500)
    static let cursor = QueryParameter<String>("cursor", .string("An opaque cursor"), "The nextCursor of the previous page",
                                               expected: "a cursor of a previous page", read: { $0 })
    static var parameters: [DocumentedQueryParameter] {
        [type.documented, from.documented, to.documented, text.documented, limit.documented, cursor.documented]
    }
    let filter: ActivityFilter
    let limit: Int
    let cursor: String?
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        filter = ActivityFilter(type: try Self.type.value(in: parameters), from: try Self.from.value(in: parameters),
                                to: try Self.to.value(in: parameters), text: try Self.text.value(in: parameters))
        limit = try Self.limit.value(in: parameters) ?? 20
        cursor = try Self.cursor.value(in: parameters)
    }
}

/// A page of a list and nothing else: its size and where the previous page ended.
struct PageQuery: RouteQuery {
    static let limit = QueryParameter<Int>.limit(maximum: 500)
    static var parameters: [DocumentedQueryParameter] { [limit.documented, ActivitiesQuery.cursor.documented] }
    let limit: Int
    let cursor: String?
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        limit = try Self.limit.value(in: parameters) ?? 20
        cursor = try ActivitiesQuery.cursor.value(in: parameters)
    }
}

/// The activity chart: what it shows, against what.
struct ActivityChartQuery: RouteQuery {
    static let metric = QueryParameter<ActivityChart.Metric>.choice(
        "metric", ActivityChart.Metric.self, "What the chart shows", "What the chart shows (default pace)")
    static let axis = QueryParameter<ActivityChart.Axis>.choice(
        "x", ActivityChart.Axis.self, "What the horizontal axis measures", "What the horizontal axis measures (default distance)")
    static var parameters: [DocumentedQueryParameter] { [metric.documented, axis.documented] }
    let metric: ActivityChart.Metric
    let axis: ActivityChart.Axis
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        metric = try Self.metric.value(in: parameters) ?? .pace
        axis = try Self.axis.value(in: parameters) ?? .distance
    }
}

/// The calendar: one month.
struct CalendarQuery: RouteQuery {
    static let month = QueryParameter<CivilDate>(
        "month", required: true, .string("A month (yyyy-mm)", pattern: "^[0-9]{4}-(0[1-9]|1[0-2])$"), "The month",
        expected: "a month (yyyy-mm) of the years 0002 to 9998", read: { QueryValues.month($0) })
    static var parameters: [DocumentedQueryParameter] { [month.documented] }
    /// The month's first day.
    let month: CivilDate
    init(_ request: Request) throws { month = try Self.month.requiredValue(in: request) }
}

/// Insights: the window of days and its last day.
struct InsightsQuery: RouteQuery {
    static let days = QueryParameter<Int>("days", .integer("A number of days", minimum: 1, maximum: 3660), "Days in the window (default 30)",
                                          expected: "a number of days from 1 to 3660", read: { Int($0) })
    static let today = QueryParameter<CivilDate>.day("today", "The last day of the window (default: today in the user's time zone)")
    static var parameters: [DocumentedQueryParameter] { [days.documented, today.documented] }
    let days: Int
    let today: CivilDate?
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        days = try Self.days.value(in: parameters) ?? 30
        today = try Self.today.value(in: parameters)
        // The window's first day must be a date the answer can write (year 1 or later).
        if let today, (1...3660).contains(days), today.adding(days: -days).year < 1 {
            throw Problem.badRequest("the window of \(days) days before \(today) begins before the year 1", field: "days")
        }
    }
}

/// The timeline: filters and a page.
struct TimelineQuery: RouteQuery {
    static let from = QueryParameter<Timestamp>.time("from", "Only events that occurred at or after this time")
    static let to = QueryParameter<Timestamp>.time("to", "Only events that occurred at or before this time")
    static let order = QueryParameter<TimelineOrder>.choice("order", TimelineOrder.self, "Order", "Order (default newest first)")
    static let limit = QueryParameter<Int>.limit(maximum: 500)
    static var parameters: [DocumentedQueryParameter] {
        [SharedQueryParameters.eventTypes.documented, from.documented, to.documented, order.documented, limit.documented,
         ActivitiesQuery.cursor.documented]
    }
    let filter: TimelineFilter
    let limit: Int
    let cursor: String?
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        var filter = TimelineFilter()
        filter.types = try SharedQueryParameters.eventTypes.value(in: parameters)
        filter.from = try Self.from.value(in: parameters)
        filter.to = try Self.to.value(in: parameters)
        if let order = try Self.order.value(in: parameters) { filter.newestFirst = order == .newest }
        self.filter = filter
        limit = try Self.limit.value(in: parameters) ?? 50
        cursor = try ActivitiesQuery.cursor.value(in: parameters)
    }
}

/// The timeline's two orders.
enum TimelineOrder: String, Sendable, CaseIterable {
    case newest, oldest
}
