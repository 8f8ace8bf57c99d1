/// A handle to a named database inside an ``Environment``; valid for the environment's lifetime.
public struct Database: Sendable, Hashable {
    let dbi: UInt32
    /// The database's name.
    public let name: String
}

/// Counters of one database's B-tree, from `mdb_stat`.
public struct DatabaseStatistics: Sendable, Hashable {
    public let entries: Int
    public let depth: Int
    public let branchPages: Int
    public let leafPages: Int
    public let overflowPages: Int
    public let pageSize: Int

    /// Bytes of all the database's pages.
    public var bytes: Int { (branchPages + leafPages + overflowPages) * pageSize }
}

/// Options of a put.
public struct PutOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Fail with ``LMDBError/Code/keyExists`` if the key is already present (`MDB_NOOVERWRITE`).
    public static let noOverwrite = PutOptions(rawValue: 0x10)
    /// The key is greater than every key in the database (`MDB_APPEND`): a fast path for
    /// sequential keys; a key out of order fails with ``LMDBError/Code/keyExists``.
    public static let append = PutOptions(rawValue: 0x20000)
}
