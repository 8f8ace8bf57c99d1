import EventLog
import Logbook

/// The path, query and header parameters of each route, with the constraints the handlers
/// enforce (a request outside them is refused with 400 naming the parameter), for the OpenAPI
/// document. Keyed by name; where one name means different things on different routes
/// (`from`, `limit`, `metric`) the route decides.
enum RequestParameters {
    enum Location: String { case path, query, header }

    struct Parameter {
        let name: String
        let location: Location
        let required: Bool
        let schema: JSONSchema
        let description: String
    }

    /// Every parameter of `route`: path captures, query parameters, then headers.
    static func all(of route: RouteDescriptor) -> [Parameter] {
        var parameters = OpenAPIDocument.pathParameters(route.path).map { name in
            let (schema, description) = path(name)
            return Parameter(name: name, location: .path, required: true, schema: schema, description: description)
        }
        for name in route.query {
            let (schema, description) = query(name, route: route.path)
            parameters.append(Parameter(name: name, location: .query, required: requiredQuery(name, route: route.path), schema: schema,
                                        description: description))
        }
        if route.statuses.contains(201) {
            parameters.append(Parameter(
                name: "Idempotency-Key", location: .header, required: false,
                schema: .string("1 to 255 visible ASCII characters", pattern: "^[!-~]{1,255}$", minLength: 1, maxLength: 255),
                description: "The client's key for this request (a UUID is a good choice): a retry of the same request answers the "
                    + "original status and body with Idempotent-Replayed: true and writes nothing (kept 24 h by default); the same key "
                    + "with another method, path, query or body is 422 idempotency-conflict."
                    + (route.path == "users/{user}/imports" ? " A workout file upload is idempotent by its content: the key is checked, not needed." : "")))
            parameters.append(Parameter(
                name: "If-Match", location: .header, required: false,
                schema: .string("A stream version, as an entity tag (\"3\", W/\"3\") or a bare number", pattern: #"^[ \t]*(W/)?("[0-9]{1,19}"|[0-9]{1,19})[ \t]*$"#),
                description: "The stream version the client expects; 409 with currentVersion if it moved."))
        }
        if route.path.hasSuffix("subscribe") {
            parameters.append(Parameter(
                name: "Last-Event-ID", location: .header, required: false,
                schema: .string("A log position", pattern: #"^[ \t]*[0-9]{1,19}[ \t]*$"#),
                description: "Resume after this log position (the id of the last event received); takes precedence over after."))
        }
        if route.query.contains("minPosition") {
            parameters.append(Parameter(
                name: "X-Logbook-Min-Position", location: .header, required: false,
                schema: .string("A log position", pattern: "^[0-9]{1,19}$"),
                description: "The header form of minPosition (both are checked when both are sent; the query parameter wins)."))
        }
        return parameters
    }

    /// A user, workout or place id, as the domain checks ids: 1 to 128 bytes, no spaces or control characters.
    static var id: JSONSchema {
        .string("1 to 128 bytes of UTF-8, no spaces or control characters", pattern: #"^[^\u0000-\u0020\u007f]+$"#, minLength: 1, maxLength: 128)
    }

    /// A local day.
    static var date: JSONSchema { .date("A local day (yyyy-mm-dd), years 0002 to 9998") }

    /// An RFC 3339 time with its offset, at most microseconds, as the log's timestamps are parsed.
    static var time: JSONSchema {
        // No `format: date-time`: the log also takes a space between day and time, which that format refuses.
        .string("An RFC 3339 time with a UTC offset, at most microsecond precision ('T', 't' or a space before the time)",
                pattern: JSONSchema.timePattern)
    }

    /// A log position or stream version.
    static var position: JSONSchema { .integer("A log position or stream version", minimum: 0, maximum: Int.max) }

    /// A comma-separated list of the given names, none empty.
    static func list(_ description: String, of names: [String]) -> JSONSchema {
        let alternatives = "(" + names.map { $0.replacingOccurrences(of: ".", with: "\\.") }.joined(separator: "|") + ")"
        return .string(description, pattern: "^\(alternatives)(,\(alternatives))*$")
    }

    private static func path(_ name: String) -> (JSONSchema, String) {
        switch name {
        case "user": (id, "The user id (a token's sub)")
        case "workoutId": (id, "The workout id")
        case "placeId": (id, "The place id")
        case "date": (date, "The local day (yyyy-mm-dd)")
        case "stream": (.string("A stream id"), "The stream id, e.g. goals-u-1000 (404 if there is none)")
        case "job": (.string("A job id"), "The job id (X-Logbook-Job of the request that started it; 404 if there is none)")
        default: (.string(name), name)
        }
    }

    private static func requiredQuery(_ name: String, route: String) -> Bool {
        switch (name, route) {
        case ("date", _), ("category", _), ("month", _): true
        case ("from", "users/{user}/stats/period"), ("to", "users/{user}/stats/period"): true
        default: false
        }
    }

    private static func query(_ name: String, route: String) -> (JSONSchema, String) {
        let pageLimit = route.hasPrefix("users/{user}/") && !route.hasSuffix("events") ? 500 : 1000
        switch name {
        case "asOf":
            return (.oneOf("A log position (123 or position:123) or an RFC 3339 time", [
                .string("A log position", pattern: "^(position:)?[0-9]{1,19}$"), time,
            ]), "Answer as of a log position or a time (not cached)")
        case "minPosition":
            return (.integer("A log position", minimum: 0, maximum: Int.max),
                    "Answer only once the read models hold this log position (a write's X-Logbook-Position, made on any server); 503 with "
                        + "Retry-After if they do not within the configured wait. Also the X-Logbook-Min-Position header")
        case "date": return (date, "A day of the week asked for (years 0002 to 9998)")
        case "day": return (date, "The day the streaks are computed as of (default: the last day with data)")
        case "today": return (date, "The last day of the window (default: today in the user's time zone)")
        case "from" where route.hasSuffix("timeline"): return (time, "Only events that occurred at or after this time")
        case "to" where route.hasSuffix("timeline"): return (time, "Only events that occurred at or before this time")
        case "from" where route == "users/{user}/activities": return (date, "Only workouts started on or after this local day")
        case "to" where route == "users/{user}/activities": return (date, "Only workouts started on or before this local day")
        case "from" where route == "users/{user}/stats/period": return (date, "First day")
        case "to" where route == "users/{user}/stats/period":
            return (date, "Last day: not before from, and less than 1,100 days after it (else 400 naming to)")
        case "from" where route == "streams/{stream}":
            return (position, "Start at this stream version, inclusive (default: the first, or the last reading backward)")
        case "from": return (position, "Start at this log position, inclusive (default: the first, or the last reading backward)")
        case "after": return (position, "Start after this log position (Last-Event-ID takes precedence)")
        case "direction": return (.enumeration("Reading direction", ["forward", "backward"]), "Reading direction (default forward)")
        case "limit" where route.hasSuffix("subscribe"):
            return (.integer("A number of events", minimum: 1, maximum: Int.max), "End the stream after this many events (default: never)")
        case "limit": return (.integer("A page size", minimum: 1, maximum: pageLimit), "Page size")
        case "cursor": return (.string("An opaque cursor"), "The nextCursor of the previous page")
        case "types": return (list("Comma-separated event types", of: EventType.allCases.map(\.rawValue)), "Only events of these types")
        case "prefix": return (.string("A stream id prefix"), "Only streams whose id starts with this")
        case "category": return (.enumeration("Place category", PlaceCategory.self), "Place category")
        case "metric" where route.hasSuffix("weekly.svg"):
            return (.enumeration("What the bars show", WeeklyChart.Metric.self), "What the bars show (default distance)")
        case "metric": return (.enumeration("What the chart shows", ActivityChart.Metric.self), "What the chart shows (default pace)")
        case "type": return (.enumeration("Activity type", ActivityType.self), "Only workouts of this type")
        case "text": return (.string("Text to find"), "Only workouts whose title or notes contain this (case-insensitive)")
        case "order": return (.enumeration("Order", ["newest", "oldest"]), "Order (default newest first)")
        case "month": return (.string("A month (yyyy-mm)", pattern: "^[0-9]{4}-(0[1-9]|1[0-2])$"), "The month")
        case "days": return (.integer("A number of days", minimum: 1, maximum: 3660), "Days in the window (default 30)")
        case "projections":
            return (list("Comma-separated projection names", of: ProjectionKind.allCases.map(\.rawValue)), "Projections to rebuild (default: all)")
        case "wait":
            return (.enumeration("true or false", ["true", "false"]), "false: answer 202 with the job at once instead of waiting for its end")
        case "name" where route == "admin/backup":
            return (.string("1 to 100 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit",
                            pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"),
                    "The backup's directory under the server's backup directory (default backup-<UTC time>, e.g. backup-20261123T110704Z)")
        default: return (.string(name), name)
        }
    }
}
