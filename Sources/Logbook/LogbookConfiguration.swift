public import EventLog
public import EventLogLMDB
public import Logging

/// How a ``Logbook`` is opened.
public struct LogbookConfiguration: Sendable {
    /// The embedded LMDB log's settings (durability, map size, limits); its map settings also size
    /// the environment of read models that follow another log.
    public var log = LogConfiguration()
    /// How a new store keeps payloads: each user's encrypted under their own key (the default,
    /// which makes erasure possible: see <doc:Privacy>), or plaintext. An existing store keeps the
    /// format it was created with; a log shared in PostgreSQL keeps plaintext.
    public var payloadEncryption: PayloadFormat = .current
    /// The clock commands are judged by (the goal horizon, "today") when the caller gives none.
    public var clock: any LogClock = SystemLogClock()
    /// Events per chunk (and per checkpoint) when rebuilding read models.
    public var rebuildChunkSize = 65_536
    /// What opening does with a read model whose code version changed while its old version is
    /// complete: true (the default) builds the new version beside the old one in the background
    /// and switches to it in one step once it has caught up, the old one answering meanwhile
    /// (<doc:ReplayAndVerification>); false rebuilds it before opening returns.
    public var upgradesInBackground = true
    /// Where uncached query work runs and each user's share of it (threads of its own, per-user
    /// caps and a CPU budget; a user past them is refused with ``LogbookError/Code/busy``).
    public var queryWork = QueryWorkLimits()
    /// Bounds of each query cache.
    public var cacheEntries = 10_000
    public var cacheBytes = 64 << 20
    /// How often a command is decided again after another writer changed its stream meanwhile
    /// (another server sharing the log, when the caller pinned no version), each time after a
    /// random pause that grows (up to 32 ms).
    public var retriesOnConflict = 10

    /// Where Logbook reports what it does on its own (following a log, recovering from its failures).
    public var logger = Logger(label: "logbook")
    /// Read models that follow a log (not inline): how many events one local transaction folds at most.
    public var followBatchSize = 4_096
    /// Read models that follow a log: how long a write's answer, a decision or a query with a
    /// minimum position waits for them to reach a position before giving up.
    public var readYourWritesTimeout: Duration = .seconds(5)
    /// How long the answer to a keyed request (``Logbook/once(_:_:)``, HTTP's `Idempotency-Key`)
    /// is kept to answer its retries. Older keys are forgotten: a retry after that still writes
    /// nothing (its event id is derived from key and request) and answers as already applied, and
    /// another request under the same key is no longer refused but taken as new.
    public var idempotencyKeyRetention: Duration = .seconds(24 * 3600)

    public init() {}
}
