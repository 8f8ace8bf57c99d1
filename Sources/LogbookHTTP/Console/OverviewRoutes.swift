import Foundation
import HTTPTypes
import Hummingbird
import Logbook
import LogbookInput
import ServiceLifecycle

/// The console's overview (administrators): `GET /admin/overview` answers one
/// ``ConsoleOverview``; `GET /admin/overview/subscribe` streams one a second as Server-Sent
/// Events (`event: overview`) until the client leaves, its token expires, the server shuts down
/// or (`?limit=N`) N overviews were sent.
struct OverviewRoutes<Context: LogbookRouteContext> {
    let sampler: OverviewSampler
    let catalog: RouteCatalog

    func register(on group: RouteGroup<Context>) {
        group.route(.get, "admin/overview", "The log's head, append rate, commit latency, storage, events by type and every read model (with stall detection), and the samples of the last minutes",
                    statuses: Statuses.admin, responses: [200: .reference(ConsoleOverview.self)], catalog: catalog) { _, _ in
            try JSONOutput.response(try await sampler.overview())
        }
        group.route(.get, "admin/overview/subscribe", "The overview once a second as Server-Sent Events (event: overview, data: a ConsoleOverview)",
                    query: OverviewStreamQuery.self, statuses: Statuses.admin, catalog: catalog) { _, context, query in
            stream(until: context.identity?.expires, limit: query.limit)
        }
    }

    private func stream(until expires: Date?, limit: UInt64?) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let sampler = sampler
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            var sent: UInt64 = 0
            while !Task.isCancelled {
                if let expires, expires.timeIntervalSinceNow <= 0 {
                    try await writer.write(ByteBuffer(string: ": the token has expired; reconnect with a new one\n\n"))
                    break
                }
                let overview = try JSONOutput.encoder.encode(try await sampler.overview())
                var frame = ByteBuffer(string: "event: overview\ndata: ")
                frame.writeBytes(overview)
                frame.writeString("\n\n")
                try await writer.write(frame)
                sent += 1
                if let limit, sent >= limit { break }
                do {
                    try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
                } catch {
                    break
                }
            }
            try await writer.finish(nil)
        })
    }
}

/// `GET /admin/overview/subscribe`'s query: after how many overviews the stream ends.
struct OverviewStreamQuery: RouteQuery {
    static let limit = QueryParameter<UInt64>(
        "limit", .integer("A number of overviews", minimum: 1, maximum: Int.max), "End the stream after this many overviews (default: never)",
        expected: "a positive number of overviews", read: { QueryValues.decimalPosition($0).flatMap { $0 > 0 ? $0 : nil } })
    static var parameters: [DocumentedQueryParameter] { [limit.documented] }
    let limit: UInt64?

    init(_ request: Request) throws { limit = try Self.limit.value(in: request) }
}
