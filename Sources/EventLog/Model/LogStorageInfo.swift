/// Sizes and counters of a log's storage, for `logbook inspect`, `/admin/storage`, metrics and
/// benchmarks. Fields a backend has no notion of are nil (and left out of the JSON).
public struct LogStorageInfo: Sendable, Hashable, Codable {
    /// One table (an LMDB database, a PostgreSQL table) of the log.
    public struct DatabaseInfo: Sendable, Hashable, Codable {
        public let name: String
        public let entries: Int
        public let bytes: Int

        public init(name: String, entries: Int, bytes: Int) {
            self.name = name
            self.entries = entries
            self.bytes = bytes
        }
    }

    /// Which backend: `lmdb`, `postgres`.
    public let backend: String
    public let headPosition: Position
    /// The size of LMDB's memory map (nil for other backends).
    public let mapSize: Int?
    /// Bytes in use: the map's extent for LMDB, the tables' size for a database server.
    public let usedBytes: Int
    /// LMDB reader slots in use and available (nil for other backends).
    public let readersInUse: Int?
    public let maxReaders: Int?
    public let databases: [DatabaseInfo]

    public init(
        backend: String, headPosition: Position, mapSize: Int?, usedBytes: Int, readersInUse: Int?, maxReaders: Int?,
        databases: [DatabaseInfo]
    ) {
        self.backend = backend
        self.headPosition = headPosition
        self.mapSize = mapSize
        self.usedBytes = usedBytes
        self.readersInUse = readersInUse
        self.maxReaders = maxReaders
        self.databases = databases
    }
}
