import EventLog
import Logbook

/// The path, query and header parameters of each route, with the constraints the handlers
/// enforce (a request outside them is refused with 400 naming the parameter), for the OpenAPI
/// document. Query parameters come from the route's ``RouteQuery`` (the same definitions that
/// read them); path parameters and headers are described here.
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
        for parameter in route.queryParameters {
            parameters.append(Parameter(name: parameter.name, location: .query, required: parameter.required, schema: parameter.schema,
                                        description: parameter.description))
        }
        if route.isCommand {
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
        // The log's subscriptions resume; the overview's stream has nothing to resume.
        if route.path.hasSuffix("subscribe"), route.path != "admin/overview/subscribe" {
            parameters.append(Parameter(
                name: "Last-Event-ID", location: .header, required: false,
                schema: .string("A log position", pattern: #"^[ \t]*[0-9]{1,19}[ \t]*$"#),
                description: "Resume after this log position (the id of the last event received); takes precedence over after."))
        }
        if route.statuses.contains(304) {
            parameters.append(Parameter(
                name: "If-None-Match", location: .header, required: false,
                schema: .string("Entity tags, comma-separated (an earlier answer's ETag), or *"),
                description: "304 Not Modified, with no body, when the answer's ETag is among them. The ETag is derived from the log "
                    + "positions the answer depends on: it changes exactly when the answer can (an append for this user of a type "
                    + "the answer reads, a catalog change for places, a new day for answers judged by the user's today)."))
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

    private static func path(_ name: String) -> (JSONSchema, String) {
        switch name {
        case "user": (id, "The user id (a token's sub)")
        case "workoutId": (id, "The workout id")
        case "placeId": (id, "The place id")
        case "targetId": (id, "The training target id (the user's own)")
        case "plannedId": (id, "The planned workout id")
        case "date": (date, "The local day (yyyy-mm-dd)")
        case "stream": (.string("A stream id"), "The stream id, e.g. goals-u-1000 (404 if there is none)")
        case "job": (.string("A job id"), "The job id (X-Logbook-Job of the request that started it; 404 if there is none)")
        case "webhook": (.string("A webhook id"), "The webhook id (wh- and 16 hex digits, as POST /admin/webhooks answered it)")
        case "deadLetter": (.string("A dead letter id"), "The dead letter id (dl-<first>-<last>, as the webhook's deadLetters list it)")
        default: (.string(name), name)
        }
    }
}
