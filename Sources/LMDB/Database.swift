/// A handle to a named database inside an ``Environment``; valid for the environment's lifetime.
public struct Database: Sendable, Hashable {
    let dbi: UInt32
    /// The database's name.
    public let name: String

    init(dbi: UInt32, name: String) {
        self.dbi = dbi
        self.name = name
    }

    /// The handle's number, for a layer above that keeps handles without importing this module
    /// (read-model tables). A number that names no open database makes LMDB refuse the call
    /// (`EINVAL`, a thrown error), never touch memory.
    public var number: UInt32 { dbi }

    /// The handle `number` came from (``number``) in the same environment.
    public init(number: UInt32, name: String) {
        self.init(dbi: number, name: name)
    }
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
