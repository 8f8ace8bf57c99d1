public import Hummingbird
public import Logbook
public import Logging
public import ServiceLifecycle

/// Closes the Logbook when the service group shuts down. Registered before the HTTP server, it
/// stops after the server has drained its in-flight requests, so every acknowledged append is
/// committed before the log closes.
public struct LogbookService: Service {
    public let logbook: Logbook

    /// A service that closes `logbook` at graceful shutdown.
    public init(logbook: Logbook) { self.logbook = logbook }

    /// Waits for graceful shutdown, then closes the Logbook (committing whatever is queued).
    public func run() async throws {
        try? await gracefulShutdown()
        await logbook.close()
    }
}

/// The standalone server: Logbook's routes at the root of a Hummingbird application.
public enum LogbookServer {
    /// A router holding every Logbook route, with ``LogbookRequestContext``.
    public static func router(
        logbook: Logbook, configuration: HTTPConfiguration, metrics: LogbookMetrics?, logger: Logger
    ) async throws -> Router<LogbookRequestContext> {
        try await routerAndRoutes(logbook: logbook, configuration: configuration, metrics: metrics, logger: logger).router
    }

    /// The router and the routes behind it (their jobs and webhooks, for whoever runs them).
    package static func routerAndRoutes(
        logbook: Logbook, configuration: HTTPConfiguration, metrics: LogbookMetrics?, logger: Logger
    ) async throws -> (router: Router<LogbookRequestContext>, routes: LogbookRoutes<LogbookRequestContext>) {
        let router = Router(context: LogbookRequestContext.self)
        // Around the router's own answers too: a path or method no route matches is a problem.
        router.add(middleware: ProblemMiddleware<LogbookRequestContext>())
        let routes = try await LogbookRoutes<LogbookRequestContext>(
            logbook: logbook, configuration: configuration, metrics: metrics, logger: logger)
        routes.register(on: router.group())
        return (router, routes)
    }

    /// An application serving `logbook` on `host:port` (a loopback address only, without
    /// authentication) that delivers its webhooks, and ends its
    /// administrative jobs, stops its webhooks and closes it on graceful shutdown
    /// (SIGTERM or SIGINT with `runService()`). `onServerRunning` hears the bound port (useful
    /// with port 0).
    public static func application(
        logbook: Logbook, configuration: HTTPConfiguration, metrics: LogbookMetrics? = LogbookMetrics(),
        host: String = "127.0.0.1", port: Int = 8080, logger: Logger = Logger(label: "logbook"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        if configuration.allowUnauthenticated, configuration.jwtSecret?.isEmpty ?? true, !Loopback.isLoopback(host) {
            throw LogbookError.invalidArgument(
                name: "host", reason: "without authentication every caller is an administrator: listen on a loopback address (127.0.0.1, ::1, localhost), not \(host)")
        }
        let (router, routes) = try await routerAndRoutes(logbook: logbook, configuration: configuration, metrics: metrics, logger: logger)
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "Logbook"),
            // Shutdown runs backwards: the server drains, the jobs end, webhooks stop, then the Logbook closes.
            services: routes.services(logger: logger),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
