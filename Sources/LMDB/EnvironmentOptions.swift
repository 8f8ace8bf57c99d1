/// How an ``Environment`` is opened: sizes, limits, durability and access mode.
public struct EnvironmentOptions: Sendable, Hashable {
    /// The map size to open with, in bytes. The map grows by itself when full, so this only needs
    /// to be a sensible starting point.
    public var initialMapSize: Int = 64 << 20
    /// The largest the map may grow to. A write that needs more fails with ``LMDBError/Code/mapFull``.
    public var maxMapSize: Int = 1 << 40
    /// How many named databases the environment may hold.
    public var maxDatabases: UInt32 = 32
    /// How many read transactions may be open at once, across all processes.
    public var maxReaders: UInt32 = 510
    /// Open for reading only: another process may be writing. Named databases must already exist.
    public var readOnly: Bool = false
    /// What a commit guarantees.
    public var durability: Durability = .durable
    /// File mode for the files LMDB creates: the owner's alone, as every file holding user data
    /// is (an environment's directory is created 0700, and existing files wider than this mode
    /// are narrowed to it when the environment is opened for writing).
    public var fileMode: UInt32 = 0o600

    public init() {}

    /// What a committed write transaction guarantees about a crash.
    public enum Durability: Sendable, Hashable {
        /// Every commit flushes data and meta pages to disk: committed means on disk.
        case durable
        /// Every commit flushes data pages but not the meta page (`MDB_NOMETASYNC`). A process crash
        /// loses nothing; an operating-system crash or power loss can undo the last committed
        /// transaction(s) since the previous meta flush, never leaving a corrupt file.
        case relaxed
        /// No flush at commit (`MDB_NOSYNC`); ``Environment/sync(force:)`` flushes. A process crash
        /// loses nothing; an operating-system crash can lose recent transactions and, on some file
        /// systems, corrupt the file. Only for data that can be made again (bulk loads).
        case noSync
    }
}
