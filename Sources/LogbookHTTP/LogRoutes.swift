import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import Logbook

/// The log itself, in the JSON wire form (the WireForm article, in Logbook's documentation): one
/// stream, one user's events, the whole log (administrators), and a live subscription as
/// Server-Sent Events whose ids are log positions, so `Last-Event-ID` resumes exactly after the
/// last event seen.
struct LogRoutes<Context: LogbookRouteContext> {
    let logbook: Logbook
    /// How long an idle subscription waits before sending a keep-alive comment.
    let keepAlive: Duration
    /// The subscriptions being streamed, for `/metrics`.
    let live: LiveSubscriptions

    let catalog: RouteCatalog

    /// The stream and user routes on `group`, the whole log's on `administrators`.
    func register(on group: RouteGroup<Context>, administrators: RouteGroup<Context>) {
        group.route(.get, "streams/{stream}", "A stream's events (a user may read streams holding only their events)",
                    query: StreamPageQuery.self, statuses: Statuses.read, responses: [200: LogPages.stream], catalog: catalog) {
            try await stream($0, $1, $2.page)
        }
        group.route(.get, "users/{user}/events", "The user's events in log order", query: LogPageQuery.self,
                    statuses: Statuses.read, responses: [200: LogPages.user], catalog: catalog) { try await userEvents($0, $1, $2) }
        administrators.route(.get, "log", "The whole log, filtered (administrators)", query: WholeLogQuery.self,
                             statuses: Statuses.admin, responses: [200: LogPages.log], catalog: catalog) { try await wholeLog($0, $1, $2) }
        administrators.route(.get, "log/subscribe", "Live subscription as Server-Sent Events, resuming after Last-Event-ID (administrators)",
                             query: SubscriptionQuery.self, statuses: Statuses.admin + [429], catalog: catalog) { _, context, query in
            try await subscribe(query, subject: nil, caller: context.identity?.user ?? "", until: context.identity?.expires)
        }
        group.route(.get, "users/{user}/events/subscribe", "The user's own events live as Server-Sent Events, resuming after Last-Event-ID",
                    query: UserSubscriptionQuery.self, statuses: Statuses.read, catalog: catalog) { _, context, query in
            let user = try context.path("user")
            // The cap is the caller's (an administrator's tool following users counts against itself).
            return try await subscribe(query.subscription, subject: user, caller: context.identity?.user ?? user, until: context.identity?.expires)
        }
    }

    /// A stream's events; a user may read a stream whose first event is theirs (or the shared
    /// catalog's), and only pages whose every event is. To a user, a stream of someone else's is
    /// answered exactly as a stream that does not exist: the answer never tells whether it does.
    private func stream(_ request: Request, _ context: Context, _ query: LogPageQuery) async throws -> Response {
        let stream = try context.path("stream")
        guard let identity = context.identity else { throw Problem.unauthorized("a bearer token is required") }
        let (direction, from, limit) = (query.direction, query.from, query.limit)
        let missing = Problem.notFound("no stream \"\(stream)\"")
        func readable(_ event: RecordedEvent) -> Bool { identity.isAdmin || event.subject.map(identity.isUser) ?? true }
        guard try await logbook.log.streamVersion(stream) != nil else { throw missing }
        if !identity.isAdmin {
            guard let first = try await logbook.log.readStream(stream, from: 0, direction: .forward, limit: 1).first, readable(first) else {
                throw missing
            }
        }
        let events = try await logbook.log.readStream(stream, from: from, direction: direction, limit: limit)
        guard events.allSatisfy(readable) else { throw missing }
        let next: String
        if let last = events.last {
            next = direction == .forward ? "\(last.streamVersion + 1)" : (last.streamVersion == 0 ? "null" : "\(last.streamVersion - 1)")
        } else {
            next = "null"
        }
        return try await page(events, for: identity.user, extra: "\"nextVersion\":\(next)")
    }

    /// One user's events in log order, through the subject index.
    private func userEvents(_ request: Request, _ context: Context, _ query: LogPageQuery) async throws -> Response {
        let user = try context.path("user")
        let (direction, from, limit) = (query.direction, query.from, query.limit)
        let events = try await logbook.log.readSubject(user, from: Position(from), direction: direction, limit: limit)
        return try await page(events, for: user, extra: "\"nextPosition\":\(nextPosition(events, direction))")
    }

    /// The whole log, filtered by event types and stream prefix (administrators).
    private func wholeLog(_ request: Request, _ context: Context, _ query: WholeLogQuery) async throws -> Response {
        let (direction, from, limit) = (query.page.direction, query.page.from, query.page.limit)
        let result = try await logbook.log.readAll(from: Position(from), direction: direction, limit: limit, filter: query.filter)
        let scanned = result.scannedThrough.map { "\($0.rawValue)" } ?? "null"
        // An administrator's page is charged to them but never refused (the route answers no 429).
        return try await page(result.events, for: context.identity?.user ?? "", refusable: false, extra: "\"scannedThrough\":\(scanned),\"reachedEnd\":\(result.reachedEnd)")
    }

    private func nextPosition(_ events: [RecordedEvent], _ direction: ReadDirection) -> String {
        guard let last = events.last?.position.rawValue else { return "null" }
        return direction == .forward ? "\(last + 1)" : (last <= 1 ? "null" : "\(last - 1)")
    }

    /// A page of events as JSON. Opening and encoding a page is the caller's work: it runs on
    /// the query threads, in `caller`'s turn and charged to their budget; `refusable`, it is
    /// refused with 429 once the budget is spent.
    private func page(_ events: [RecordedEvent], for caller: String, refusable: Bool = true, extra: String) async throws -> Response {
        try await logbook.loadKeys(opening: events)
        let logbook = logbook
        let body = try await logbook.work(for: caller, admitted: !refusable) {
            var body = Array("{\"events\":[".utf8)
            for (index, event) in events.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                try WireEvent(event, of: logbook).appendJSON(to: &body)
            }
            body += "],\(extra)}".utf8
            return Data(body)
        }
        return JSONOutput.response(bytes: body)
    }

    /// Server-Sent Events from the position after `Last-Event-ID` (or `?after=`), catching up
    /// from the log and continuing live. Each event's SSE id is its position; for filtered
    /// subscriptions an id-only frame moves the client's resume point past what was scanned.
    /// With `?limit=N` the stream ends after N events (for clients that read in batches); with
    /// `?linger=M` it ends once M milliseconds pass without an event after its last one, or at its
    /// first keep-alive if it sent none (a long poll, for transports that hand over a response only
    /// once it ends). With a
    /// `subject`, only that user's events are sent (the others move the resume point). The stream
    /// ends when the caller's token expires (`until`). A caller (the user subscribed to, or the
    /// administrator) holds at most ``LiveSubscriptions/maxPerCaller`` at once: each catches up
    /// from the log on its own, so more are refused with 429.
    private func subscribe(_ query: SubscriptionQuery, subject: String?, caller: String, until expires: Date?) async throws -> Response {
        guard let slot = live.reserve(for: caller) else {
            var problem = Problem(.tooManyRequests, type: "/problems/too-many-subscriptions", title: "Too many subscriptions",
                                  detail: "\(caller) already holds \(live.maxPerCaller) event streams, as many as allowed: close one first")
            problem.retryAfterSeconds = 5
            throw problem
        }
        let after = query.after
        var chosen = query.filter
        chosen.subject = subject
        let filter = chosen
        let limit = query.limit
        let linger = query.linger
        let logbook = logbook
        let keepAlive = keepAlive
        let live = live
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // Held while the stream runs; given back when the body ends or is dropped.
            withExtendedLifetime(slot) {}
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            try await SSEPump(
                logbook: logbook, after: after, filter: filter, keepAlive: keepAlive, limit: limit, linger: linger, live: live, expires: expires, caller: caller).run(into: &writer)
            try await writer.finish(nil)
        })
    }
}

/// The schemas of the log's pages (written by hand in ``LogRoutes``, without a Codable type).
enum LogPages {
    private static var events: JSONSchema {
        .array("The events, in Logbook's JSON wire form", of: .file("events/envelope.schema.json"))
    }

    static let stream = JSONSchema.component("StreamPage") {
        .object("A page of one stream's events", required: [
            "events": events,
            "nextVersion": JSONSchema.count("The stream version to read next (null: nothing before the first, reading backward)").orNull,
        ])
    }

    static let user = JSONSchema.component("UserEventsPage") {
        .object("A page of one user's events, in log order", required: [
            "events": events,
            "nextPosition": JSONSchema.count("The log position to read next as from (null: the page was empty, or nothing is before it)").orNull,
        ])
    }

    static let log = JSONSchema.component("LogPage") {
        .object("A page of the whole log, filtered", required: [
            "events": events,
            "scannedThrough": JSONSchema.count("The last log position examined (read on from the next one); null if none was").orNull,
            "reachedEnd": .boolean("Whether the scan reached the end of the log in its direction"),
        ])
    }
}
