/// The events of the Server-Sent Events streams, as the API document describes each one.
///
/// OpenAPI 3.1 has no way to say what each event of a stream holds; contract tools read a
/// `text/event-stream` response's `schema` as the schema of one event (schemathesis does, as
/// OpenAPI 3.2 reads `itemSchema`), parsed into `{event, data, id, retry}` the way a browser's
/// EventSource parses it. Frames without data (the first `retry:`, the id-only frames that move a
/// filtered subscription's resume point) and comments (keep-alives, the notice that the token
/// expired) are no events.
enum EventStreams {
    /// One event of `GET /admin/overview/subscribe`: an overview, once a second.
    static var overview: JSONSchema {
        event("One event of the overview stream, once a second", name: .enumeration("Always overview", ["overview"]),
              data: .reference(ConsoleOverview.self), id: nil)
    }

    /// One event of the log's subscriptions: an event of the log, its position the event's id.
    static var log: JSONSchema {
        event("One event of the log: its position is the SSE id (send it as Last-Event-ID to resume after it)",
              name: .string("The event's type, e.g. workout.finished", minLength: 1),
              data: .file("events/envelope.schema.json"),
              id: .string("The event's log position", pattern: "^[1-9][0-9]*$"))
    }

    /// A parsed Server-Sent Event whose `event` field is `name` and whose data is one line of JSON
    /// valid against `data`.
    private static func event(_ description: String, name: JSONSchema, data: JSONSchema, id: JSONSchema?) -> JSONSchema {
        var required: [String: JSONSchema] = [
            "event": name,
            "data": JSONSchema([
                "type": .text("string"), "description": .text("One line of JSON"),
                "contentMediaType": .text("application/json"), "contentSchema": .schema(data),
            ]),
        ]
        if let id { required["id"] = id }
        return .object(description, required: required, optional: [
            "retry": .integer("How long a client waits before it reconnects, in milliseconds", minimum: 0),
        ])
    }
}
