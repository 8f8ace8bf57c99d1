public import Logbook
public import LogbookWebhooks

/// How the HTTP layer authenticates and what it accepts.
public struct HTTPConfiguration: Sendable {
    /// The HMAC-SHA256 secret that signs bearer tokens (JWT, `HS256`): about 256 bits by what it
    /// shows (``TokenSecret``), or the routes refuse to start. Console sign-in codes are signed
    /// with a key derived from it (``ConsoleSignIn``).
    public var jwtSecret: String?
    /// The audience (`aud`) every token must name; nil: not checked.
    public var jwtAudience: String?
    /// The issuer (`iss`) every token must carry; nil: not checked.
    public var jwtIssuer: String?
    /// The `role` claim value that makes a token an administrator's.
    public var adminRole = "admin"
    /// Serve without authentication (development only; logged loudly), when no secret is set.
    /// Every caller is an administrator, so only this machine's own clients are served: a request
    /// whose `Host` is not a loopback name, whose `Origin` is not the server's own or whose
    /// `Sec-Fetch-Site` says another site sent it is refused (403), and
    /// ``LogbookServer/application(logbook:configuration:metrics:host:port:logger:onServerRunning:)``
    /// listens on a loopback address only.
    public var allowUnauthenticated = false
    /// The largest request body accepted, in bytes (larger ones get 413).
    public var maxBodyBytes = 1 << 20
    /// Largest workout file `POST /users/{user}/imports` accepts (streamed to a temporary file, not held in memory).
    public var maxImportBytes = 512 << 20
    /// How many file imports run at once, and for how long each may read its file.
    public var fileImports = FileImportLimits()
    /// `/ready` fails (503) while a read model is more than this many events behind the log's
    /// head — a server following a shared log that cannot keep up takes itself out of the load
    /// balancer. nil: never for lag.
    public var maxReadyLag: UInt64?
    /// `/ready` fails (503) while the oldest event a read model has not folded was recorded more
    /// than this many seconds ago (by the Logbook's clock). nil: never for lag in time.
    public var maxReadyLagSeconds: Double?
    /// Where `POST /admin/backup` writes: each backup into a new directory under it. nil: the
    /// route answers 409 (backups are then made with `logbook backup`).
    public var backupDirectory: String?
    /// Server-Sent Events subscriptions one caller may hold at once (each catches up from the log
    /// on its own); more get 429.
    public var maxSubscriptionsPerCaller = 4
    /// Reads (GET) one signed-in caller may have in progress at once; the next
    /// ``maxReadsWaitingPerCaller`` wait their turn, and past those a read gets 429
    /// (``CallerReadGate``): a caller on many connections takes no more of the threads that serve
    /// everyone than this.
    public var maxReadsInFlightPerCaller = 2
    /// Reads of one caller that may wait for a slot (past ``maxReadsInFlightPerCaller``).
    public var maxReadsWaitingPerCaller = 64
    /// How long a quiet Server-Sent Events subscription waits before a keep-alive comment.
    public var sseKeepAlive: Duration = .seconds(15)
    /// How webhooks retry and what they may hold (``WebhookPolicy``).
    public var webhooks = WebhookPolicy()
    /// Whether ``LogbookServer`` may deliver webhooks (and manage them: off, their routes answer
    /// 409). On a log several servers share, those that may take turns: one at a time holds the
    /// lease and delivers.
    public var deliversWebhooks = true
    /// This server as the others sharing its log, the webhooks' lease and the console name it
    /// (nil: this host's name and process id, with no URL).
    public var server: ServerIdentity?
    /// How often ``LogbookServer`` closes ended weeks (`stats.week_closed`, and `training.week_closed` for weeks with planned workouts; ``WeekClosingService``); nil: never.
    public var weekClosingInterval: Duration? = .seconds(60)

    /// A configuration with a signing secret (or the explicit development mode) and a body limit.
    public init(jwtSecret: String? = nil, allowUnauthenticated: Bool = false, maxBodyBytes: Int = 1 << 20) {
        self.jwtSecret = jwtSecret
        self.allowUnauthenticated = allowUnauthenticated
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Bounds on the workout-file imports a server runs (`POST /users/{user}/imports` with a file).
public struct FileImportLimits: Sendable, Hashable {
    /// Imports running at once on this server (each reads its file on a thread of its own);
    /// beyond it, an import is refused with 503.
    public var maxConcurrent = 4
    /// Imports running at once for one user; beyond it, 429.
    public var maxConcurrentPerUser = 1
    /// How long an import may spend reading its file before it is abandoned (422, nothing
    /// written): a file that small enough to upload but slow to read holds no thread longer.
    public var readTimeLimit: Duration = .seconds(300)

    /// The defaults: 4 at once, 1 per user, 5 minutes of reading each.
    public init() {}
}
