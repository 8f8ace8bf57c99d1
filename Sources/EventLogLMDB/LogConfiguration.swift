public import EventLog

/// How an ``LMDBEventStore`` is opened and what it allows.
public struct LogConfiguration: Sendable {
    /// What a committed append guarantees if the machine crashes.
    public var durability: LogDurability = .durable
    /// Open for reading only, beside another process that writes. No appends, no checkpoints.
    public var readOnly = false
    /// The map size to start with; it grows by itself (doubling) when full.
    public var initialMapSize = 64 << 20
    /// The largest the map may grow to.
    public var maxMapSize = 1 << 40
    /// How many named LMDB databases the environment may hold: the log uses 11; the rest are for
    /// read models kept beside it (two sets of tables each, for upgrades in the background).
    public var maxDatabases: UInt32 = 256
    /// The largest payload plus metadata one event may carry.
    public var maxEventBytes = 1 << 20
    /// The most events the writer puts in one transaction (group commit).
    public var maxEventsPerTransaction = 65_536
    /// The most payload bytes the writer puts in one transaction.
    public var maxBytesPerTransaction = 64 << 20
    /// How many records one filtered read examines at most before returning what it found.
    public var maxRecordsScannedPerRead = 16_384
    /// How many event ids that are not time-ordered (a client's own) wait in the id journal —
    /// in memory, about 50 bytes each — before the writer folds them into the id index in one
    /// sorted pass. Larger: fewer, bigger folds; time-ordered ids never wait.
    public var idJournalFoldThreshold = 262_144
    /// How many stream and subject heads (and names) the writer keeps in memory.
    public var writerCacheCapacity = 100_000
    /// How many events a subscription reads per read transaction while catching up.
    public var subscriptionChunkSize = 1_024
    /// How often a read-only store's subscriptions look for events another process appended.
    public var readOnlyPollInterval: Duration = .milliseconds(50)
    /// The clock that stamps `recordedAt`.
    public var clock: any LogClock = SystemLogClock()

    public init() {}
}

/// What a committed append guarantees.
public enum LogDurability: Sendable, Hashable {
    /// Committed means on disk: every commit flushes data and meta pages (one `fsync` each,
    /// shared by every append of a group commit).
    case durable
    /// Every commit flushes data pages but not LMDB's meta page. A crash of the process loses
    /// nothing. A crash of the operating system or a power loss can undo the transactions
    /// committed since the last meta flush (the log is then consistent as of an earlier commit);
    /// it cannot corrupt the log.
    case relaxed
    /// No flush at commit; closing the log flushes. A process crash loses nothing; an
    /// operating-system crash or power loss can lose recent appends and may corrupt the log.
    /// Only for bulk loads of data that can be made again (generated demo data, benchmarks).
    case noSync
}
