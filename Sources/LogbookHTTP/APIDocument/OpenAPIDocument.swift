import Foundation
public import Logbook

/// Writes the OpenAPI 3.1 document of the registered routes (`Schemas/openapi.json`, made by
/// `logbook openapi`): every path, its parameters with the constraints the code enforces
/// (``RequestParameters``), request body schemas, and for every status its answer: success
/// bodies from the Swift types the handlers encode (``DocumentedSchema``), refusals as
/// ``Problem``. The document is canonical JSON (sorted keys), so a change shows as a diff.
public enum OpenAPIDocument {
    /// The document for `routes`, as mounted at the root.
    public static func json(routes: [RouteDescriptor], version: String = Logbook.version) throws -> String {
        var paths: [String: [String: Any]] = [:]
        var components: [String: Any] = [:]
        _ = JSONSchema.reference(Problem.self).jsonObject(components: &components)
        for route in routes.sorted(by: { ($0.path, $0.method) < ($1.path, $1.method) }) {
            paths["/" + route.path, default: [:]][route.method.lowercased()] = operation(route, components: &components)
        }
        // The references to Schemas/ files become components of this document.
        let bundled = try SchemaBundling.bundle(paths: paths, components: components)
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "info": [
                "title": "Logbook",
                "version": version,
                "description": "Event-sourced fitness and places backend. Commands take the data of the event they ask for "
                    + "(components <Type>Data, the schemas of Schemas/events; <Type>Request where the path or the server fills a field in, "
                    + "Schemas/requests). Idempotency-Key makes a retry "
                    + "answer the original and write nothing; If-Match pins the stream version. Every refusal is application/problem+json "
                    + "(RFC 9457): 400 names the field, 422 the domain rule.",
            ],
            "servers": [["url": "/"]],
            "x-logbook-caches": caches(routes),
            "security": [["bearer": [String]()]],
            "paths": bundled.paths,
            "components": [
                "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer", "bearerFormat": "JWT"]],
                "schemas": bundled.components,
            ],
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The caches the reads answer from, each with the event types whose appends for a user change
    /// that user's answers, and whether changes shared by every user (the places catalog) do too.
    private static func caches(_ routes: [RouteDescriptor]) -> [String: Any] {
        var caches: [String: Any] = [:]
        for cache in Set(routes.compactMap(\.changes?.cache)) {
            caches[cache.name] = ["eventTypes": cache.eventTypeNames, "sharedChanges": cache.changesWithSharedData]
        }
        return caches
    }

    /// The `{name}` captures of a path template.
    public static func pathParameters(_ path: String) -> [String] {
        path.split(separator: "/").compactMap { component in
            component.hasPrefix("{") && component.hasSuffix("}") ? String(component.dropFirst().dropLast()) : nil
        }
    }

    private static func operation(_ route: RouteDescriptor, components: inout [String: Any]) -> [String: Any] {
        var parameters: [[String: Any]] = []
        for parameter in RequestParameters.all(of: route) {
            var entry: [String: Any] = [
                "name": parameter.name, "in": parameter.location.rawValue, "required": parameter.required,
                "schema": parameter.schema.jsonObject(components: &components),
            ]
            entry["description"] = parameter.description
            parameters.append(entry)
        }
        var responses: [String: Any] = [:]
        for status in route.statuses {
            responses[String(status)] = response(status, route: route, components: &components)
        }
        var operation: [String: Any] = [
            "operationId": operationId(route), "summary": route.summary, "parameters": parameters, "responses": responses,
        ]
        // Who may call it, for readers and for the test that walks every operation with every kind of token.
        operation["x-logbook-access"] = route.access.rawValue
        // What changes a cached read's answers (the cache's entry in x-logbook-caches), for clients' caches.
        if let changes = route.changes {
            operation["x-logbook-cache"] = changes.cache.name
            if changes.followsClock { operation["x-logbook-follows-clock"] = true }
        }
        if route.access == .open { operation["security"] = [[String: Any]]() }
        if let body = route.requestBody {
            var content: [String: Any] = ["application/json": ["schema": ["$ref": body]]]
            if route.path == "catalog/places/import" {
                content = Self.catalogImportContent(place: body)
            } else if route.path == "users/{user}/imports" {
                // Any other body is a workout file, its format detected from the bytes.
                for type in WorkoutFileUpload.mediaTypes {
                    content[type] = ["schema": ["type": "string", "format": "binary"]]
                }
            }
            let types = route.path == "users/{user}/imports"
                ? "; a workout file may also be sent as application/fit, application/x-fit, application/tcx+xml or text/xml. "
                    + "Multipart and form bodies are not read"
                : route.path == "catalog/places/import" ? "; NDJSON may also be sent as application/ndjson, application/jsonl or application/x-jsonlines"
                : ""
            operation["requestBody"] = [
                "required": route.requestBodyRequired, "content": content,
                "description": (route.requestBodyRequired ? "At most the server's body limit (413 beyond it)" : "Optional: an empty body is {}")
                    + ". Sent with one of these Content-Types, never text/plain (415)" + types,
            ]
        }
        return operation
    }

    /// A catalog import's forms: NDJSON lines of `place` objects, a GeoJSON collection of points,
    /// or (`application/json`) one place.
    private static func catalogImportContent(place: String) -> [String: Any] {
        let point: [String: Any] = [
            "type": "object", "required": ["type", "coordinates"],
            "properties": ["type": ["const": "Point"],
                           "coordinates": ["type": "array", "minItems": 2, "maxItems": 3, "items": ["type": "number"],
                                           "description": "[longitude, latitude] in degrees (an altitude is ignored)"]],
        ]
        let feature: [String: Any] = [
            "type": "object", "required": ["type", "geometry"],
            "properties": ["type": ["const": "Feature"], "id": ["type": "string", "description": "The place id when properties name none"],
                           "geometry": point,
                           "properties": ["type": "object", "description": "The place's fields but latitude and longitude (\(place))"]],
        ]
        let collection: [String: Any] = [
            "type": "object", "required": ["type", "features"],
            "properties": ["type": ["const": "FeatureCollection"], "features": ["type": "array", "items": feature, "maxItems": 10_000]],
        ]
        return [
            "application/json": ["schema": ["$ref": place]],
            "application/geo+json": ["schema": collection],
            "application/x-ndjson": ["schema": ["type": "string", "description": "One place.added object (\(place)) per line"]],
        ]
    }

    private static func operationId(_ route: RouteDescriptor) -> String {
        let words = route.path.split(whereSeparator: { "/{}.-".contains($0) }).filter { !$0.isEmpty }
        return route.method.lowercased() + words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func response(_ status: Int, route: RouteDescriptor, components: inout [String: Any]) -> [String: Any] {
        guard route.statuses.contains(304), status == 200 || status == 304 else { return plainResponse(status, route: route, components: &components) }
        let headers: [String: Any] = [
            "ETag": ["description": "The answer's entity tag, derived from the log positions it depends on (send it in If-None-Match)",
                     "schema": ["type": "string"]],
            "Cache-Control": ["description": "private, no-cache", "schema": ["type": "string"]],
        ]
        if status == 304 { return ["description": "Not modified: If-None-Match names the answer's ETag (no body)", "headers": headers] }
        var answer = plainResponse(status, route: route, components: &components)
        answer["headers"] = headers
        return answer
    }

    private static func plainResponse(_ status: Int, route: RouteDescriptor, components: inout [String: Any]) -> [String: Any] {
        if let schema = route.responses[status] {
            let object = schema.jsonObject(components: &components)
            let description = object["description"] as? String ?? (status == 202 ? "Accepted" : "OK")
            return ["description": description, "content": ["application/json": ["schema": object]]]
        }
        if status == 204 { return ["description": "Done: no body"] }
        if (200..<300).contains(status) {
            let (type, schema): (String, [String: Any]) =
                route.path.hasSuffix(".svg") ? ("image/svg+xml", ["type": "string", "description": "An SVG document"])
                : route.path.hasSuffix(".geojson")
                ? ("application/geo+json", GeoJSON.feature.jsonObject(components: &components))
                // An event stream's schema is one event's (EventStreams).
                : route.path == "admin/overview/subscribe" ? ("text/event-stream", EventStreams.overview.jsonObject(components: &components))
                : route.path.hasSuffix("subscribe") ? ("text/event-stream", EventStreams.log.jsonObject(components: &components))
                : route.path == "admin/rebuild"
                ? ("application/x-ndjson", ["type": "string", "description": "One JSON object per line: progress, then {\"digests\":…} or {\"error\":…}"])
                : route.path == "metrics" ? ("text/plain", ["type": "string", "description": "Prometheus text exposition format 0.0.4"])
                : ("application/json", ["type": "object"])
            return ["description": "OK", "content": [type: ["schema": schema]]]
        }
        var description = problemDescriptions[status] ?? "Refused"
        if status == 503, route.isCommand {
            description = route.statuses.contains(429) ? commandUnavailable + "; or the server runs as many imports as allowed (Retry-After)" : commandUnavailable
        }
        if status == 403 {
            let foreign = "on a server without authentication (development), the request's Host is not a loopback name or another site sent it (Origin, Sec-Fetch-Site)"
            description = switch route.access {
            case .administrator: "The token lacks the administrator role; or, " + foreign
            case .signedIn: "The token does not give access to this user's data; or, " + foreign
            case .open: "Refused: " + foreign
            }
        }
        if status == 422, let rules = CommandRuleCatalog.rules(of: route.path, method: route.method), !rules.isEmpty {
            description += ". Rules this command can break (`rule`): " + rules.map { $0.rawValue }.joined(separator: ", ")
        }
        return [
            "description": description,
            "content": ["application/problem+json": ["schema": JSONSchema.reference(Problem.self).jsonObject(components: &components)]],
        ]
    }

    /// What 503 means on a write: a committed write is never answered 503.
    private static let commandUnavailable = "The log is unavailable (its database is down or not answering): nothing was written — unless "
        + "the detail says a commit's outcome is unknown; send it again with the same Idempotency-Key (Retry-After). A write that was "
        + "committed answers its result even when this server's read models are still behind (name its lastPosition as minPosition "
        + "on a later read)"

    private static let problemDescriptions = [
        400: "Malformed JSON, a wrong type, an unknown field or event type, an invalid id or parameter (field names it)",
        401: "Missing, malformed, expired or wrongly signed bearer token, a subject that is not a user id, or a missing audience or issuer",
        404: "No such user, workout, place, stream or job",
        409: "Version conflict (with currentVersion), an event id another event has, or a job that is no longer running",
        413: "The body is larger than the configured limit, or a file exceeds one of the reader's stated limits (detail names it)",
        415: "The body's Content-Type is not one the operation reads (field: Content-Type); a JSON body must be sent as application/json",
        422: "A domain rule refused the command (rule names it), or an Idempotency-Key was used for another request",
        429: "Too much at once for this user: as many imports running, live subscriptions open or uncached queries waiting as allowed, or their query CPU budget used up for now (Retry-After says when to ask again)",
        500: "An internal error (correlationId names it in the server's log; its own text stays there); for a job, the job failed (detail says why)",
        503: "Not ready: a read model is rebuilding or behind the allowed lag, the log's storage is unavailable (correlationId), or the server runs as many imports as allowed (Retry-After)",
    ]
}

extension Problem: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("An RFC 9457 problem: why the request was refused", required: [
            "type": .string("A URI reference naming the kind of problem, e.g. /problems/rule/goal_horizon"),
            "title": .string("A short summary of the kind of problem"),
            "status": .integer("The HTTP status", minimum: 400, maximum: 599),
            "detail": .string("What was wrong with this request"),
            "instance": .string("The request's path"),
        ], optional: [
            "field": .string("The request field that was wrong (a body field, query parameter or header)"),
            "rule": .enumeration("The domain rule that was broken (422)", DomainRule.allCases.map(\.rawValue)),
            "currentVersion": .count("The stream's version now (409 version conflicts)"),
            "correlationId": .string("For a failure of the server (5xx): the id its log records the failure under (the request's X-Request-Id)"),
        ])
    }
}

/// The GeoJSON a recorded route is answered as.
enum GeoJSON {
    static let feature = JSONSchema.component("RouteFeature") {
        .object("A GeoJSON Feature (RFC 7946) whose geometry is the route as a LineString", required: [
            "type": .enumeration("Always Feature", ["Feature"]),
            "geometry": .object("The route", required: [
                "type": .enumeration("Always LineString", ["LineString"]),
                "coordinates": .array("Positions: [longitude, latitude] or [longitude, latitude, elevation in metres]",
                                      of: .array("One position", of: .number("Degrees, or metres for the elevation"))),
            ]),
            "properties": .object("What the route is of", required: [
                "workoutId": .string("The workout id (quotes, backslashes and control characters written as _)"),
                "activityType": .enumeration("The workout's activity type", ActivityType.self),
                "points": .count("Positions in the route"),
            ]),
        ])
    }
}
