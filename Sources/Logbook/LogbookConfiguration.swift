public import EventLog

/// How a ``Logbook`` is opened.
public struct LogbookConfiguration: Sendable {
    /// The event log's own settings (durability, map size, limits).
    public var log = LogConfiguration()
    /// The clock commands are judged by (the goal horizon, "today") when the caller gives none.
    public var clock: any LogClock = SystemLogClock()
    /// Events per chunk (and per checkpoint) when rebuilding read models.
    public var rebuildChunkSize = 65_536
    /// Bounds of each query cache.
    public var cacheEntries = 10_000
    public var cacheBytes = 64 << 20
    /// How often a command is decided again after another writer changed its stream meanwhile.
    public var retriesOnConflict = 3

    public init() {}
}
