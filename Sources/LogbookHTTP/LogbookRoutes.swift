import EventLog
import Foundation
public import Hummingbird
public import Logbook
public import Logging
public import LogbookWebhooks

/// Logbook's HTTP API as routes a Hummingbird application mounts, at its root or under a
/// prefix of its own (`LogbookRoutes(…).register(on: router.group("logbook"))`). The context
/// type is the host's, as long as it can hold an ``Identity``.
///
/// `/health`, `/ready`, `/metrics`, the console's files and its sign-in (`POST /console/sessions`)
/// are open; everything else needs a bearer token (see ``HTTPConfiguration``), and the
/// administrators' routes a token with the administrator role. Every refusal is `application/problem+json`. `Schemas/openapi.json`
/// documents every route.
public struct LogbookRoutes<Context: LogbookRouteContext>: Sendable {
    public let logbook: Logbook
    public let configuration: HTTPConfiguration
    public let metrics: LogbookMetrics?
    /// The administrative jobs (rebuilds, verifications) the routes start: run it as a service
    /// of the host's group, so shutdown cancels them and waits for them.
    public let jobs: AdminJobs
    /// The webhooks the admin routes manage. Someone must run it (``WebhookService``, as
    /// ``LogbookServer/application(logbook:configuration:metrics:host:port:logger:onServerRunning:)`` does)
    /// for them to deliver; until then making one answers 409.
    public let webhooks: WebhookDispatcher
    /// This server, as the servers sharing its log know it.
    public let server: ServerIdentity
    /// Samples the log and the read models for the console's overview and for stall detection
    /// (`logbook_projection_stalled` in `/metrics`).
    public let overview: OverviewSampler
    let keys: TokenKeys?
    private let catalog = RouteCatalog()
    /// The file imports running, bounded by ``HTTPConfiguration/fileImports``.
    private let importSlots: ImportSlots

    /// Every route registered so far (by ``register(on:)``), with its query parameters and statuses.
    public var routes: [RouteDescriptor] { catalog.all }

    /// Fails if no JWT secret is configured and unauthenticated development mode is not asked for.
    public init(logbook: Logbook, configuration: HTTPConfiguration, metrics: LogbookMetrics? = nil, logger: Logger = Logger(label: "logbook.http")) async throws {
        self.logbook = logbook
        self.configuration = configuration
        self.metrics = metrics
        self.jobs = AdminJobs(logbook: logbook, logger: logger)
        let server = configuration.server ?? .local(startedAt: logbook.configuration.clock.now().instant)
        self.server = server
        self.webhooks = WebhookDispatcher(logbook: logbook, policy: configuration.webhooks, server: server, logger: logger)
        self.importSlots = ImportSlots(limits: configuration.fileImports)
        self.overview = OverviewSampler(logbook: logbook, server: server, deliversWebhooks: configuration.deliversWebhooks)
        if let secret = configuration.jwtSecret, !secret.isEmpty {
            if let weakness = TokenSecret.weakness(secret) { throw LogbookError.invalidArgument(name: "jwtSecret", reason: weakness) }
            keys = await TokenKeys(secret: secret)
        } else if configuration.allowUnauthenticated {
            keys = nil
            logger.warning("""
                !!! AUTHENTICATION IS OFF: every caller is an administrator. \
                This is for local development only; never expose this server. !!!
                """)
        } else {
            throw LogbookError.invalidArgument(
                name: "jwtSecret", reason: "set a JWT secret (LOGBOOK_JWT_SECRET) or explicitly allow unauthenticated development mode")
        }
    }

    /// Adds every route (and the middleware they need) to `group`, in three groups by who may
    /// call them (``RouteAccess``): open, signed-in, administrators.
    public func register(on group: RouterGroup<Context>) {
        var base = group.group()
            .add(middleware: ObservabilityMiddleware<Context>(metrics: metrics))
            .add(middleware: ProblemMiddleware<Context>())
        // Without authentication every caller is an administrator: serve this machine's own clients only.
        if keys == nil { base = base.add(middleware: DevelopmentModeGuard<Context>()) }
        let open = RouteGroup<Context>.open(base)
        let live = LiveSubscriptions(maxPerCaller: configuration.maxSubscriptionsPerCaller)
        HealthRoutes<Context>(
            logbook: logbook, metrics: metrics, live: live, webhooks: webhooks, overview: overview, catalog: catalog, maxLag: configuration.maxReadyLag,
            maxLagSeconds: configuration.maxReadyLagSeconds
        ).register(on: open)
        ConsoleRoutes<Context>().register(on: base)
        ConsoleSessionRoutes<Context>(logbook: logbook, keys: keys, configuration: configuration, catalog: catalog).register(on: open)
        let authenticated = base.group().add(middleware: AuthenticationMiddleware<Context>(
            keys: keys, adminRole: configuration.adminRole, audience: configuration.jwtAudience, issuer: configuration.jwtIssuer))
            .add(middleware: ConditionalReadMiddleware<Context>())
        let reads = CallerReadGate(maxInFlight: configuration.maxReadsInFlightPerCaller, maxWaiting: configuration.maxReadsWaitingPerCaller)
        let signedIn = RouteGroup<Context>.signedIn(authenticated.group().add(middleware: CallerReadGateMiddleware<Context>(gate: reads)))
        let administrators = RouteGroup<Context>.administrators(authenticated)
        CommandRoutes<Context>(
            logbook: logbook, maxBodyBytes: configuration.maxBodyBytes, maxImportBytes: configuration.maxImportBytes,
            importSlots: importSlots, catalog: catalog).register(on: signedIn, administrators: administrators)
        QueryRoutes<Context>(logbook: logbook, catalog: catalog).register(on: signedIn)
        LogRoutes<Context>(logbook: logbook, keepAlive: configuration.sseKeepAlive, live: live, catalog: catalog)
            .register(on: signedIn, administrators: administrators)
        AdminRoutes<Context>(logbook: logbook, jobs: jobs, backupDirectory: configuration.backupDirectory, catalog: catalog).register(on: administrators)
        WebhookRoutes<Context>(webhooks: webhooks, maxBodyBytes: configuration.maxBodyBytes, catalog: catalog).register(on: administrators)
        OverviewRoutes<Context>(sampler: overview, catalog: catalog).register(on: administrators)
    }
}

/// `/health` (the process answers), `/ready` (the log is open and every read model is live),
/// `/metrics` (Prometheus text format).
struct HealthRoutes<Context: LogbookRouteContext> {
    let logbook: Logbook
    let metrics: LogbookMetrics?
    let live: LiveSubscriptions
    let webhooks: WebhookDispatcher
    let overview: OverviewSampler
    let catalog: RouteCatalog
    var maxLag: UInt64?
    var maxLagSeconds: Double?

    static var health: JSONSchema {
        .component("Health") { .object("The process answers", required: ["status": .enumeration("Always ok", ["ok"])]) }
    }

    static var ready: JSONSchema {
        .component("Ready") {
            .object("Every read model is live and within the allowed lag", required: [
                "status": .enumeration("Always ready", ["ready"]), "head": .count("The log's head position"),
            ])
        }
    }

    func register(on group: RouteGroup<Context>) {
        group.route(.get, "health", "The process answers", statuses: [200], responses: [200: Self.health], catalog: catalog) { _, _ in
            JSONOutput.response(bytes: Data("{\"status\":\"ok\"}".utf8))
        }
        group.route(.get, "ready", "Ready: every read model is live (503 while one rebuilds)", statuses: [200, 503], responses: [200: Self.ready],
                    catalog: catalog) { _, _ in
            let status = try await logbook.projectionStatus()
            let notLive = status.filter { $0.rebuilding }.map(\.projection.rawValue)
            guard notLive.isEmpty else {
                throw Problem(.serviceUnavailable, type: "/problems/not-ready", title: "Not ready",
                              detail: "rebuilding: \(notLive.joined(separator: ", "))")
            }
            let lag = status.map(\.lag).max() ?? 0
            if let maxLag, lag > maxLag {
                throw Problem(.serviceUnavailable, type: "/problems/not-ready", title: "Not ready",
                              detail: "the read models are \(lag) events behind the log, more than the \(maxLag) allowed")
            }
            let lagSeconds = status.map(\.lagSeconds).max() ?? 0
            if let maxLagSeconds, lagSeconds > maxLagSeconds {
                throw Problem(.serviceUnavailable, type: "/problems/not-ready", title: "Not ready",
                              detail: "the read models' oldest unfolded event is \(lagSeconds) s old, more than the \(maxLagSeconds) s allowed")
            }
            return JSONOutput.response(bytes: Data("{\"status\":\"ready\",\"head\":\(status.first?.head ?? 0)}".utf8))
        }
        if let metrics {
            group.route(.get, "metrics", "Prometheus metrics (text exposition format)", statuses: [200], catalog: catalog) { _, _ in
                JSONOutput.response(bytes: Data(await metrics.exposition(of: logbook, subscriptions: live, webhooks: webhooks, overview: overview)), contentType: "text/plain; version=0.0.4")
            }
        }
    }
}
