/// How the HTTP layer authenticates and what it accepts.
public struct HTTPConfiguration: Sendable {
    /// The HMAC-SHA256 secret that signs bearer tokens (JWT, `HS256`), at least 32 bytes.
    public var jwtSecret: String?
    /// The `role` claim value that makes a token an administrator's.
    public var adminRole = "admin"
    /// Serve without authentication (development only; logged loudly). Every caller is an admin.
    public var allowUnauthenticated = false
    /// The largest request body accepted, in bytes (larger ones get 413).
    public var maxBodyBytes = 1 << 20
    /// Largest workout file `POST /users/{user}/imports` accepts (streamed to a temporary file, not held in memory).
    public var maxImportBytes = 512 << 20
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
    /// How long a quiet Server-Sent Events subscription waits before a keep-alive comment.
    public var sseKeepAlive: Duration = .seconds(15)

    /// A configuration with a signing secret (or the explicit development mode) and a body limit.
    public init(jwtSecret: String? = nil, allowUnauthenticated: Bool = false, maxBodyBytes: Int = 1 << 20) {
        self.jwtSecret = jwtSecret
        self.allowUnauthenticated = allowUnauthenticated
        self.maxBodyBytes = maxBodyBytes
    }
}
