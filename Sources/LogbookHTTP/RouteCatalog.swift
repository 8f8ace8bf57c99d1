import HTTPTypes
import Hummingbird
package import Logbook
import Synchronization

/// What one route accepts and answers, recorded as it is registered: the contract that
/// `Schemas/openapi.json` documents (a test holds the two together), and the list of query
/// parameters the route takes (any other is refused with 400, so a typo never goes unnoticed).
public struct RouteDescriptor: Sendable, Hashable {
    public let method: String
    /// The path template relative to the mount point, e.g. `users/{user}/stats/weekly`.
    public let path: String
    public let summary: String
    /// The query parameters the route takes, from its ``RouteQuery`` (read models' reads add `asOf`
    /// and `minPosition`), as the API document lists them.
    package let queryParameters: [DocumentedQueryParameter]
    /// The names of ``queryParameters``.
    public var query: [String] { queryParameters.map(\.name) }
    /// The JSON Schema of the request body, relative to `Schemas/` (for commands: the event's data).
    public let requestBody: String?
    /// Whether the request body must be sent (false: an empty body means `{}`).
    public let requestBodyRequired: Bool
    /// Every status the route can answer with.
    public let statuses: [Int]
    /// The JSON body of each success status that has one (200, 201, 202), from the Swift type
    /// the handler encodes; refusals are always ``Problem``s.
    package let responses: [Int: JSONSchema]
    /// Who may call it: anyone, a signed-in caller (on one user's data: that user), or an
    /// administrator. It is the group the route was registered on, whose middleware checks it.
    public let access: RouteAccess
    /// For a read whose answers are cached: what changes them (nil: not said; a client asks again).
    package var changes: AnswerChanges? = nil
    /// True for a write that answers 201 through the command path (it reads `Idempotency-Key`
    /// and `If-Match`). The console's sign-in answers 201 with a session, and an administrator's
    /// `admin/…` routes that answer 201 (a webhook made) change the server's own state, not the
    /// log through a command: they read neither.
    package var isCommand: Bool { statuses.contains(201) && !path.hasPrefix("console/") && !path.hasPrefix("admin/") }

    /// A route is its method and path (one handler each).
    public static func == (lhs: RouteDescriptor, rhs: RouteDescriptor) -> Bool { lhs.method == rhs.method && lhs.path == rhs.path }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
    }
}

/// What changes a cached read's answers: the events of its cache's read models (and, for some,
/// the user's today). The API document publishes it, so a client's cache can follow the user's
/// events and ask again exactly when an answer can have changed.
package struct AnswerChanges: Sendable, Hashable {
    package let cache: CachedQuery
    /// The answer also moves with the user's today (the day is part of it unless a parameter fixes it).
    package let followsClock: Bool
}

/// Who may call a route: the group of routes it belongs to.
public enum RouteAccess: String, Sendable, Hashable {
    /// Anyone, without a token (`/health`, `/ready`, `/metrics`, the console's sign-in).
    case open
    /// A caller with a valid token; on a route on one user's data (`users/{user}…`), that user or
    /// an administrator.
    case signedIn = "signed-in"
    /// A caller whose token carries the administrator role.
    case administrator
}

/// The routes registered by one ``LogbookRoutes``.
final class RouteCatalog: Sendable {
    private let entries = Mutex<[RouteDescriptor]>([])

    var all: [RouteDescriptor] { entries.withLock { $0 } }

    func add(_ route: RouteDescriptor) { entries.withLock { $0.append(route) } }
}

/// Status sets of the common kinds of route.
enum Statuses {
    /// A read of one user's data (429: the user's uncached work is over its share; 503: a
    /// following server's read models did not reach minPosition in time).
    static let read = [200, 400, 401, 403, 404, 429, 503]
    /// A read answered by Logbook's queries: a read's, and 304 when If-None-Match names its ETag
    /// (``ConditionalReadMiddleware``).
    static let conditionalRead = [200, 304, 400, 401, 403, 404, 429, 503]
    /// A command: created, or already applied; refusals of every kind (415: a body that is not
    /// `application/json`; 503: the log is unavailable or read-only).
    static let command = [200, 201, 400, 401, 403, 404, 409, 413, 415, 422, 503]
    /// A command that may carry a workout file: a command's, and 429 when the user's import slot
    /// is taken (a full server answers 503).
    static let fileImport = [200, 201, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503]
    /// An administrator's route.
    static let admin = [200, 400, 401, 403, 503]
}

/// A group of routes that one kind of caller may call (``RouteAccess``): the Hummingbird group
/// they are registered on carries the middleware that checks it, so a route is guarded by where it
/// is registered, not by a flag each route must remember. Every `admin/…` route belongs to the
/// administrators' group (registering one elsewhere stops the server from starting).
struct RouteGroup<Context: LogbookRouteContext> {
    let routes: RouterGroup<Context>
    let access: RouteAccess

    /// The open group: no token is asked for.
    static func open(_ routes: RouterGroup<Context>) -> RouteGroup {
        RouteGroup(routes: routes, access: .open)
    }

    /// The signed-in callers' group under `routes` (which must already authenticate).
    static func signedIn(_ routes: RouterGroup<Context>) -> RouteGroup {
        RouteGroup(routes: routes, access: .signedIn)
    }

    /// The administrators' group under `routes` (which must already authenticate): its
    /// middleware refuses, with 403, every caller whose token lacks the administrator role.
    static func administrators(_ routes: RouterGroup<Context>) -> RouteGroup {
        RouteGroup(routes: routes.group().add(middleware: AdministratorsOnly<Context>()), access: .administrator)
    }

    /// Registers `handler` at `method path`, records it in `catalog`, and refuses query
    /// parameters the route does not take. Who may call it is checked before anything of the
    /// request is read: by the group's middleware, and on a signed-in route on one user's data
    /// (`users/{user}…`), the caller must be that user or an administrator
    /// (``LogbookRouteContext/requireAccess(to:)``).
    func route(
        _ method: HTTPRequest.Method, _ path: String, _ summary: String, query: [DocumentedQueryParameter] = [], body: String? = nil,
        bodyRequired: Bool = true, statuses: [Int], responses: [Int: JSONSchema] = [:], changes: AnswerChanges? = nil, catalog: RouteCatalog,
        use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        precondition(access == .administrator || !(path == "admin" || path.hasPrefix("admin/")),
                     "\(method) \(path) is an administrators' route: register it on the administrators' group")
        // Any route refuses an unknown query parameter (400), a caller it is not for (403: also, on
        // a server without authentication, a request from off this machine) and can fail inside
        // (500); one that needs a token refuses a missing or bad one (401); one that reads a JSON
        // body refuses any other (415).
        let refusals = [400, 403, 500] + (access == .open ? [] : [401]) + (body == nil ? [] : [415])
        catalog.add(RouteDescriptor(
            method: method.rawValue, path: path, summary: summary, queryParameters: query, requestBody: body, requestBodyRequired: bodyRequired,
            statuses: Set(statuses + refusals).sorted(), responses: responses, access: access, changes: changes))
        let query = query.map(\.name)
        let accepted = Set(query)
        let onOneUser = access == .signedIn && (path == "users/{user}" || path.hasPrefix("users/{user}/"))
        routes.on(RouterPath(path), method: method, use: { request, context in
            if onOneUser { try context.requireAccess(to: context.path("user")) }
            for (name, _) in request.uri.queryParameters where !accepted.contains(String(name)) {
                throw Problem.badRequest(
                    "unknown query parameter \"\(name)\"" + (query.isEmpty ? "" : " (this route takes \(query.joined(separator: ", ")))"),
                    field: String(name))
            }
            return try await handler(request, context)
        })
    }
}

/// The administrators' group's guard: a caller whose token lacks the administrator role is
/// refused (403) before any route of the group runs.
struct AdministratorsOnly<Context: LogbookRouteContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try context.requireAdmin()
        return try await next(request, context)
    }
}

extension RouteGroup {
    /// Registers a route whose query is read into `Query` (refusing a wrong value with 400 naming
    /// it) before `handler` runs, and documented from it.
    func route<Query: RouteQuery>(
        _ method: HTTPRequest.Method, _ path: String, _ summary: String, query: Query.Type, statuses: [Int],
        responses: [Int: JSONSchema] = [:], catalog: RouteCatalog,
        use handler: @escaping @Sendable (Request, Context, Query) async throws -> Response
    ) {
        route(method, path, summary, query: Query.parameters, statuses: statuses, responses: responses, catalog: catalog) { request, context in
            try await handler(request, context, try Query(request))
        }
    }
}
