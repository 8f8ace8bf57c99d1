import ArgumentParser
import EventLog
import Foundation
import Hummingbird
import Logbook
import LogbookHTTP
import WorkoutImport
import Logging
import EventLogPostgres

/// How the server listens and authenticates; shared by `serve` and `demo`.
struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port).")
    var port = 8080

    @OptionGroup var tokens: TokenSecretOptions

    @Flag(name: .customLong("insecure-no-auth"), help: "Serve without authentication, on a loopback address only (development: every caller is an admin).")
    var insecureNoAuth = false

    @Option(help: "durable (fsync per commit), relaxed (no meta-page sync) or nosync.")
    var durability: DurabilityArgument = .durable

    @Option(name: .customLong("max-body-bytes"), help: "Largest request body accepted.")
    var maxBodyBytes = 1 << 20

    @Option(name: .customLong("max-import-bytes"), help: "Largest workout file POST /users/{user}/imports accepts (streamed to a temporary file).")
    var maxImportBytes = 512 << 20

    @Option(name: .customLong("max-imports"), help: "Workout-file uploads imported at once by this server (more: 503).")
    var maxImports = FileImportLimits().maxConcurrent

    @Option(name: .customLong("max-imports-per-user"), help: "Workout-file uploads imported at once for one user (more: 429).")
    var maxImportsPerUser = FileImportLimits().maxConcurrentPerUser

    @Option(name: .customLong("import-read-seconds"), help: "How long reading one uploaded file may take before the import is abandoned (422).")
    var importReadSeconds = 300

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(name: .customLong("max-ready-lag"), help: "/ready answers 503 while the read models are more than this many events behind the log.")
    var maxReadyLag: UInt64?

    @Option(name: .customLong("max-ready-lag-seconds"), help: "/ready answers 503 while the oldest event a read model has not folded is older than this many seconds.")
    var maxReadyLagSeconds: Double?

    @Option(name: .customLong("backup-dir"), help: "Where POST /admin/backup writes its backups (each into a new directory under it).")
    var backupDir: String?

    @Flag(name: .customLong("no-webhooks"), help: "Never deliver or change webhooks here (on a shared PostgreSQL log the servers without it take turns: one holds the lease and delivers).")
    var noWebhooks = false

    @Option(name: .customLong("server-name"), help: "This server's name among those sharing a PostgreSQL log (default: host name and port).")
    var serverName: String?

    @Option(name: .customLong("advertise-url"), help: "Where the other servers and the console say this one answers (default: http://HOST:PORT when both are known).")
    var advertiseURL: String?

    @Option(name: .customLong("webhook-timeout-seconds"), help: "How long one webhook POST may take before the attempt fails (it is then retried).")
    var webhookTimeoutSeconds = 10

    @Option(name: .customLong("query-threads"), help: "Threads that run uncached queries, at a lower priority than those serving requests (default: one per core).")
    var queryThreads: Int?

    @Option(name: .customLong("query-cpu-burst-seconds"), help: "CPU seconds one user's uncached queries may spend in a burst; past it the user's reads get 429 until the budget comes back.")
    var queryBurstSeconds = 5.0

    @Option(name: .customLong("query-cpu-per-second"), help: "CPU seconds a user's query budget regains each second.")
    var queryRefillPerSecond = 0.5

    @Option(name: .customLong("query-cache-entries"), help: "Answers each query's cache keeps (0: none, so every read is computed; for measuring uncached reads, or a server short of memory).")
    var queryCacheEntries = LogbookConfiguration().cacheEntries

    @Option(name: .customLong("reads-per-caller"), help: "Reads one signed-in caller may have in progress at once, however many connections they use; the next 64 wait their turn, then 429.")
    var readsPerCaller = 2

    @Flag(name: .customLong("webhook-allow-private"), help: "Let webhooks reach receivers on this machine and its networks (loopback, private, link-local, unique-local addresses); without it they reach public addresses only.")
    var webhookAllowPrivate = false

    @Option(name: .customLong("week-closing-seconds"), help: "How often to append stats.week_closed (and training.week_closed for a week with planned workouts) for users whose week has ended (0: never).")
    var weekClosingSeconds = 60

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \"\(logLevel)\".") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024.") }
        if let serverName, let reason = Self.nameProblem(serverName) { throw ValidationError("--server-name \(reason).") }
        if let advertiseURL, advertiseURL.utf8.count > 2_048 || !["http", "https"].contains(URL(string: advertiseURL)?.scheme ?? "") {
            throw ValidationError("--advertise-url must be an absolute http or https URL of at most 2048 bytes, such as http://10.0.0.5:8080.")
        }
        guard weekClosingSeconds >= 0 else { throw ValidationError("--week-closing-seconds must be 0 (never) or more.") }
        guard (1...3600).contains(webhookTimeoutSeconds) else { throw ValidationError("--webhook-timeout-seconds must be 1 to 3600.") }
        if let maxReadyLagSeconds, !(maxReadyLagSeconds > 0) { throw ValidationError("--max-ready-lag-seconds must be positive.") }
        if let problem = queryWork.problem { throw ValidationError("--query-threads, --query-cpu-burst-seconds, --query-cpu-per-second: \(problem).") }
        guard (0...10_000_000).contains(queryCacheEntries) else { throw ValidationError("--query-cache-entries must be 0 to 10000000.") }
        guard (1...1_024).contains(readsPerCaller) else { throw ValidationError("--reads-per-caller must be 1 to 1024.") }
        guard maxImportBytes >= 1024 else { throw ValidationError("--max-import-bytes must be at least 1024.") }
        guard maxImports >= 1, maxImportsPerUser >= 1, importReadSeconds >= 1 else {
            throw ValidationError("--max-imports, --max-imports-per-user and --import-read-seconds must be at least 1.")
        }
        if insecureNoAuth, !Loopback.isLoopback(host) {
            throw ValidationError("--insecure-no-auth serves every caller as an administrator: it listens only on a loopback address (127.0.0.1, ::1 or localhost), not \(host).")
        }
    }

    /// Why `name` cannot name a server (nil if it can): 1 to 200 bytes, no control characters.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty || name.utf8.count > 200 { return "must be 1 to 200 bytes" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "must not hold control characters" }
        return nil
    }

    /// `serve` needs a secret (or the explicit development flag); `demo` makes one up.
    func requireSecret() throws {
        if try tokens.secret() == nil, !insecureNoAuth {
            throw ValidationError("set LOGBOOK_JWT_SECRET or --jwt-secret-file FILE (≥ 32 random bytes), or pass --insecure-no-auth for local development.")
        }
    }

    /// The HTTP configuration, signing tokens with `secret` (nil: authentication off, which
    /// validation allows only with --insecure-no-auth).
    func httpConfiguration(secret: String?) -> HTTPConfiguration {
        var configuration = HTTPConfiguration(jwtSecret: insecureNoAuth ? nil : secret, allowUnauthenticated: insecureNoAuth, maxBodyBytes: maxBodyBytes)
        configuration.jwtAudience = tokens.audience
        configuration.jwtIssuer = tokens.issuer
        configuration.maxReadyLag = maxReadyLag
        configuration.maxReadyLagSeconds = maxReadyLagSeconds
        configuration.backupDirectory = backupDir
        configuration.weekClosingInterval = weekClosingSeconds > 0 ? .seconds(weekClosingSeconds) : nil
        configuration.webhooks.requestTimeout = .seconds(webhookTimeoutSeconds)
        configuration.webhooks.allowPrivateAddresses = webhookAllowPrivate
        configuration.deliversWebhooks = !noWebhooks
        configuration.maxImportBytes = maxImportBytes
        configuration.fileImports.maxConcurrent = maxImports
        configuration.fileImports.maxConcurrentPerUser = maxImportsPerUser
        configuration.fileImports.readTimeLimit = .seconds(importReadSeconds)
        configuration.maxReadsInFlightPerCaller = readsPerCaller
        return configuration
    }

    /// The store's settings these options name: durability, where uncached queries run and how
    /// much each query's cache keeps.
    func configure(_ configuration: inout LogbookConfiguration) {
        configuration.log.durability = durability.value
        configuration.queryWork = queryWork
        configuration.cacheEntries = queryCacheEntries
    }

    /// Where uncached queries run and each user's share of them.
    var queryWork: QueryWorkLimits {
        var limits = QueryWorkLimits()
        if let queryThreads { limits.threads = queryThreads }
        if queryBurstSeconds.isFinite, queryBurstSeconds > 0, queryBurstSeconds < 86_400 { limits.burst = .milliseconds(Int64(queryBurstSeconds * 1000)) } else { limits.burst = .zero }
        limits.refillPerSecond = queryRefillPerSecond
        return limits
    }

    /// This server as the others sharing its log and the console name it.
    func identity(startedAt: Int64) -> ServerIdentity {
        let wildcard = host == "0.0.0.0" || host == "::" || host == "[::]"
        let url = advertiseURL ?? (port == 0 || wildcard ? "" : "http://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host):\(port)")
        let name = serverName ?? "\(ProcessInfo.processInfo.hostName):\(port == 0 ? "pid\(ProcessInfo.processInfo.processIdentifier)" : String(port))"
        return ServerIdentity(name: name, url: url, startedAt: startedAt)
    }

    func makeLogger() -> Logger {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        var logger = Logger(label: "logbook") { StandardErrorLogHandler(label: $0) }
        logger.logLevel = level
        return logger
    }

    /// Serves `logbook` until SIGTERM or SIGINT, then drains requests and closes it.
    func serve(_ logbook: Logbook, secret: String?, announce: @escaping @Sendable (Int) -> Void) async throws {
        let logger = makeLogger()
        var configuration = httpConfiguration(secret: secret)
        configuration.server = identity(startedAt: logbook.configuration.clock.now().instant)
        let app = try await LogbookServer.application(
            logbook: logbook, configuration: configuration, host: host, port: port, logger: logger,
            onServerRunning: { port in announce(port) })
        try await app.runService()
    }
}

/// `logbook serve`: the HTTP server on a Logbook directory.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the Logbook over HTTP (the API of Schemas/openapi.json) until SIGTERM.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var server: ServerOptions

    func validate() throws { try server.requireSecret() }

    func run() async throws {
        // Uploaded workout files are imported in this process: keep its memory as flat as import-file's.
        MemoryTuning.returnLargeBlocksToTheSystem()
        var configuration = LogbookConfiguration()
        server.configure(&configuration)
        let bar = ProgressBar(enabled: true)
        let logbook = try await store.open(configuration, progress: bar)
        bar.finish()
        let host = server.host
        let what = store.postgresURL.flatMap { try? PostgresURL($0).description }.map { "\($0) (read models in \(store.path))" } ?? store.path
        // LogbookService closes the Logbook when the server has drained.
        try await server.serve(logbook, secret: try server.tokens.secret()) { port in
            Output.announce("logbook serving \(what) on http://\(host):\(port) (SIGTERM or Ctrl-C to stop)")
        }
    }
}
