public import Foundation
public import Logbook

/// Writes the OpenAPI 3.1 document of the registered routes (`Schemas/openapi.json`, made by
/// `logbook openapi`): every path, its parameters, request body schema and statuses. The
/// document is canonical JSON (sorted keys), so a change in the routes shows as a diff.
public enum OpenAPIDocument {
    /// The document for `routes`, as mounted at the root, with response schemas inferred from
    /// `examples` (``ResponseExamples``; key `"METHOD path"`, or `"command"` for every command).
    public static func json(routes: [RouteDescriptor], examples: [String: [Data]] = [:], version: String = Logbook.version) throws -> String {
        var paths: [String: [String: Any]] = [:]
        var schemas: [String: Any] = ["Problem": problemSchema, "LogPage": logPageSchema, "Status": statusSchema]
        if let commands = examples["command"] { schemas["CommandResult"] = try SchemaInference.schema(of: commands) }
        for route in routes.sorted(by: { ($0.path, $0.method) < ($1.path, $1.method) }) {
            var response = responseSchemaName(route)
            if response == nil, let samples = examples["\(route.method) \(route.path)"] {
                let name = operationId(route).prefix(1).uppercased() + operationId(route).dropFirst() + "Response"
                schemas[name] = try SchemaInference.schema(of: samples)
                response = name
            }
            paths["/" + route.path, default: [:]][route.method.lowercased()] = operation(route, responseSchema: response)
        }
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "info": [
                "title": "Logbook",
                "version": version,
                "description": "Event-sourced fitness and places backend. Commands take the data of the event they ask for "
                    + "(Schemas/events); fields named in the path may be left out of the body. Idempotency-Key makes a retry "
                    + "answer the original and write nothing; If-Match pins the stream version. Every refusal is application/problem+json (RFC 9457).",
            ],
            "servers": [["url": "/"]],
            "security": [["bearer": [String]()]],
            "paths": paths,
            "components": [
                "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer", "bearerFormat": "JWT"]],
                "schemas": schemas,
            ],
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The component a route's success body is described by, when it is not inferred.
    private static func responseSchemaName(_ route: RouteDescriptor) -> String? {
        if route.statuses.contains(201) { return "CommandResult" }
        if ["streams/{stream}", "users/{user}/events", "log"].contains(route.path) { return "LogPage" }
        if ["health", "ready"].contains(route.path) { return "Status" }
        return nil
    }

    private static func operation(_ route: RouteDescriptor, responseSchema: String?) -> [String: Any] {
        var parameters: [[String: Any]] = pathParameters(route.path).map { name in
            ["name": name, "in": "path", "required": true, "schema": ["type": "string"], "description": pathDescriptions[name] ?? name]
        }
        for name in route.query {
            let (schema, description) = queryParameter(name, route: route.path)
            parameters.append(["name": name, "in": "query", "required": requiredQuery(name, route: route.path), "schema": schema,
                               "description": description])
        }
        let isCommand = route.statuses.contains(201)
        if isCommand {
            parameters.append(["name": "Idempotency-Key", "in": "header", "required": false, "schema": ["type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"],
                               "description": "The client's key for this request (a UUID is a good choice): a retry of the same request "
                                   + "answers the original status and body with Idempotent-Replayed: true and writes nothing (kept 24 h by "
                                   + "default); the same key with another method, path, query or body is 422 idempotency-conflict."])
            parameters.append(["name": "If-Match", "in": "header", "required": false, "schema": ["type": "string"],
                               "description": "The stream version the client expects (\"3\"); 409 with currentVersion if it moved."])
        }
        if route.path.hasSuffix("subscribe") {
            parameters.append(["name": "Last-Event-ID", "in": "header", "required": false, "schema": ["type": "string"],
                               "description": "Resume after this log position (the id of the last event received)."])
        }
        var responses: [String: Any] = [:]
        for status in route.statuses {
            responses[String(status)] = response(status, route: route, schema: responseSchema)
        }
        var operation: [String: Any] = [
            "operationId": operationId(route), "summary": route.summary, "parameters": parameters, "responses": responses,
        ]
        if ["health", "ready", "metrics"].contains(route.path) { operation["security"] = [[String: Any]]() }
        if let body = route.requestBody {
            var content: [String: Any] = ["application/json": ["schema": ["$ref": body]]]
            if route.path == "users/{user}/imports" {
                // Any other body is a workout file, its format detected from the bytes.
                for type in WorkoutFileUpload.mediaTypes {
                    content[type] = ["schema": ["type": "string", "format": "binary"]]
                }
            }
            operation["requestBody"] = ["required": true, "content": content]
        }
        return operation
    }

    /// The `{name}` captures of a path template.
    public static func pathParameters(_ path: String) -> [String] {
        path.split(separator: "/").compactMap { component in
            component.hasPrefix("{") && component.hasSuffix("}") ? String(component.dropFirst().dropLast()) : nil
        }
    }

    private static func operationId(_ route: RouteDescriptor) -> String {
        let words = route.path.split(whereSeparator: { "/{}.-".contains($0) }).filter { !$0.isEmpty }
        return route.method.lowercased() + words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func response(_ status: Int, route: RouteDescriptor, schema: String?) -> [String: Any] {
        switch status {
        case 200, 201:
            let description = status == 201 ? "Created: the command's events were appended (ETag: the stream version)"
                : route.statuses.contains(201) ? "Already applied (an idempotent retry or a repeated import): nothing written" : "OK"
            let type = route.path.hasSuffix(".svg") ? "image/svg+xml" : route.path.hasSuffix(".geojson") ? "application/geo+json"
                : route.path.hasSuffix("subscribe") ? "text/event-stream"
                : route.path == "admin/rebuild" ? "application/x-ndjson" : route.path == "metrics" ? "text/plain" : "application/json"
            let body: [String: Any] = type == "application/geo+json" ? ["type": "object", "description": "a GeoJSON Feature whose geometry is a LineString"]
                : type != "application/json" ? ["type": "string"]
                : schema.map { ["$ref": "#/components/schemas/\($0)"] } ?? ["type": ["object", "array"]]
            return ["description": description, "content": [type: ["schema": body]]]
        default:
            return ["description": problemDescriptions[status] ?? "Refused", "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]]]
        }
    }

    private static func requiredQuery(_ name: String, route: String) -> Bool {
        switch (name, route) {
        case ("date", _), ("category", _), ("month", _): true
        case ("from", "users/{user}/stats/period"), ("to", "users/{user}/stats/period"): true
        default: false
        }
    }

    private static func queryParameter(_ name: String, route: String) -> ([String: Any], String) {
        let date: [String: Any] = ["type": "string", "format": "date"]
        let time: [String: Any] = ["type": "string", "format": "date-time"]
        switch name {
        case "asOf": return (["type": "string"], "Answer as of a log position (123 or position:123) or an RFC 3339 time")
        case "minPosition":
            return (["type": "integer", "minimum": 0],
                    "Answer only once the read models hold this log position (a write's X-Logbook-Position, made on any server); 503 with Retry-After if they do not within the configured wait. Also the X-Logbook-Min-Position header")
        case "date": return (date, "A day of the week asked for (yyyy-mm-dd)")
        case "day": return (date, "The day the streaks are computed as of (default: the last day with data)")
        case "today": return (date, "The last day of the window (default: today in the user's time zone)")
        case "from" where route.hasSuffix("timeline"): return (time, "Only events that occurred at or after this time")
        case "to" where route.hasSuffix("timeline"): return (time, "Only events that occurred before this time")
        case "from" where route == "users/{user}/activities": return (date, "Only workouts started on or after this local day")
        case "to" where route == "users/{user}/activities": return (date, "Only workouts started on or before this local day")
        case "from" where route == "users/{user}/stats/period": return (date, "First day")
        case "to" where route == "users/{user}/stats/period": return (date, "Last day (at most 3 years after from)")
        case "from": return (["type": "integer", "minimum": 0], "Start at this version (streams) or position (logs), inclusive")
        case "after": return (["type": "integer", "minimum": 0], "Start after this log position (Last-Event-ID takes precedence)")
        case "direction": return (["type": "string", "enum": ["forward", "backward"]], "Reading direction")
        case "limit" where route.hasSuffix("subscribe"): return (["type": "integer", "minimum": 1], "End the stream after this many events")
        case "limit": return (["type": "integer", "minimum": 1], "Page size")
        case "cursor": return (["type": "string"], "The nextCursor of the previous page")
        case "types": return (["type": "string"], "Comma-separated event types")
        case "prefix": return (["type": "string"], "Only streams whose id starts with this")
        case "category": return (["type": "string", "enum": ["restaurant", "activity"]], "Place category")
        case "metric": return (["type": "string", "enum": ["distance", "time"]], "What the bars show (default distance)")
        case "type": return (["type": "string", "enum": ["run", "walk", "ride", "swim", "hike", "strength", "yoga", "other"]], "Activity type")
        case "text": return (["type": "string"], "Text to find in title or notes")
        case "order": return (["type": "string", "enum": ["newest", "oldest"]], "Order (default newest first)")
        case "month": return (["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"], "The month (yyyy-mm)")
        case "days": return (["type": "integer", "minimum": 1, "maximum": 3660], "Days in the window (default 30)")
        case "projections": return (["type": "string"], "Comma-separated projections (default: all)")
        case "name" where route == "admin/backup":
            return (["type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"],
                    "The backup's directory under the server's backup directory (default backup-<UTC time>, e.g. backup-20261123T110704Z)")
        default: return (["type": "string"], name)
        }
    }

    private static let pathDescriptions = [
        "user": "The user id (a token's sub)", "workoutId": "The workout id", "date": "The local day (yyyy-mm-dd)",
        "placeId": "The place id", "stream": "The stream id, e.g. goals-u-1000",
    ]

    private static let problemDescriptions = [
        400: "Malformed JSON, a wrong type, an unknown field or event type, an invalid id or parameter",
        401: "Missing, malformed, expired or wrongly signed bearer token",
        403: "The token is another user's, or lacks the administrator role",
        404: "No such user, workout, place or stream",
        409: "Version conflict (with currentVersion), or an event id another event has",
        413: "The body is larger than the configured limit",
        422: "A domain rule refused the command (rule names it), or an Idempotency-Key was used for another request",
        503: "Not ready: a read model is rebuilding",
    ]

    /// A page of the log in the wire form (`Schemas/events/envelope.schema.json` per event).
    private static var logPageSchema: [String: Any] {[
        "type": "object",
        "required": ["events"],
        "properties": [
            "events": ["type": "array", "items": ["$ref": "events/envelope.schema.json"]],
            "nextVersion": ["type": ["integer", "null"], "description": "streams: the version to read next"],
            "nextPosition": ["type": ["integer", "null"], "description": "a user's events: the position to read next"],
            "scannedThrough": ["type": ["integer", "null"], "description": "the whole log: the last position examined"],
            "reachedEnd": ["type": "boolean"],
        ],
    ]}

    private static var statusSchema: [String: Any] {[
        "type": "object", "required": ["status"],
        "properties": ["status": ["type": "string", "enum": ["ok", "ready"]], "head": ["type": "integer"]],
    ]}

    private static var problemSchema: [String: Any] {[
        "type": "object",
        "required": ["type", "title", "status", "detail"],
        "properties": [
            "type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"], "detail": ["type": "string"],
            "instance": ["type": "string"], "field": ["type": "string"], "rule": ["type": "string"], "currentVersion": ["type": "integer"],
        ],
    ]}
}
