import CLMDB

/// A read-only view of the environment at one commit, valid only inside the closure that received
/// it. Values it hands out are borrowed from LMDB's memory map: copy what you keep.
public class ReadTransaction {
    let handle: OpaquePointer
    /// Checked on every read and move; unchecked for exclusivity (a dynamic check per access
    /// was a measurable share of a scan) because a transaction belongs to one thread and
    /// nothing reads it while `finish()` writes it.
    @exclusivity(unchecked) private(set) var isFinished = false

    init(handle: OpaquePointer) { self.handle = handle }

    func finish() { isFinished = true }

    @inline(__always)
    final func ensureActive() throws(LMDBUsageError) {
        if isFinished { throw LMDBUsageError.transactionFinished }
    }

    /// Calls `body` with the value stored under `key` (a big-endian `UInt64`), or returns `nil`.
    public final func get<R>(_ database: Database, key: UInt64, _ body: (Span<UInt8>) throws -> R) throws -> R? {
        try BytesBridge.withValue(key) { try get(database, &$0, "key \(key)", body) }
    }

    /// Calls `body` with the value stored under `key`, or returns `nil`.
    public final func get<R>(_ database: Database, key: Span<UInt8>, _ body: (Span<UInt8>) throws -> R) throws -> R? {
        try BytesBridge.withValue(key) { try get(database, &$0, nil, body) }
    }

    /// The one lookup both key forms share.
    @inline(__always)
    private func get<R>(_ database: Database, _ key: inout MDB_val, _ keyText: @autoclosure () -> String?, _ body: (Span<UInt8>) throws -> R) throws -> R? {
        try ensureActive()
        var value = MDB_val()
        let rc = mdb_get(handle, database.dbi, &key, &value)
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, Self.operation("mdb_get", database, keyText()))
        return try BytesBridge.withSpan(value, body)
    }

    /// A copy of the value stored under `key`, or `nil`.
    public final func bytes(_ database: Database, key: Span<UInt8>) throws -> [UInt8]? {
        try get(database, key: key) { $0.copiedBytes() }
    }

    /// Runs `body` with a cursor over `database`; the cursor is closed when `body` returns.
    public final func withCursor<R>(_ database: Database, _ body: (Cursor) throws -> R) throws -> R {
        try ensureActive()
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(handle, database.dbi, &cursor), "mdb_cursor_open(\(database.name))")
        guard let cursor else { throw LMDBError(code: .invalid, message: "no cursor handle", operation: "mdb_cursor_open") }
        let wrapper = Cursor(handle: cursor, database: database, transaction: self)
        defer {
            wrapper.finish()
            mdb_cursor_close(cursor)
        }
        return try body(wrapper)
    }

    /// The B-tree counters of `database` as this transaction sees it.
    public final func statistics(_ database: Database) throws -> DatabaseStatistics {
        try ensureActive()
        var stat = MDB_stat()
        try check(mdb_stat(handle, database.dbi, &stat), "mdb_stat(\(database.name))")
        return DatabaseStatistics(
            entries: stat.ms_entries, depth: Int(stat.ms_depth),
            branchPages: stat.ms_branch_pages, leafPages: stat.ms_leaf_pages,
            overflowPages: stat.ms_overflow_pages, pageSize: Int(stat.ms_psize))
    }

    /// How an error names the call: `mdb_put(events, key 42)`, or `mdb_put(events)` for byte keys.
    static func operation(_ call: String, _ database: Database, _ key: String?) -> String {
        key.map { "\(call)(\(database.name), \($0))" } ?? "\(call)(\(database.name))"
    }

    /// The id of the transaction (the commit it sees, for readers).
    public final var id: Int { mdb_txn_id(handle) }
}

@available(*, unavailable)
extension ReadTransaction: Sendable {}

/// A read-write transaction, valid only inside ``Environment/write(_:)``'s closure.
public final class WriteTransaction: ReadTransaction {
    /// Set when an operation ran out of map space: the environment grows the map and retries.
    private(set) var hitMapFull = false

    func noteMapFull() { hitMapFull = true }

    @inline(__always)
    private func record(_ rc: Int32, _ operation: @autoclosure () -> String) throws {
        if rc == MDB_MAP_FULL { hitMapFull = true }
        try check(rc, operation())
    }

    /// Stores `value` under `key` (a big-endian `UInt64`).
    public func put(_ database: Database, key: UInt64, value: Span<UInt8>, options: PutOptions = []) throws {
        try BytesBridge.withValue(key) { try put(database, &$0, value, options, "key \(key)") }
    }

    /// Stores `value` under `key`.
    public func put(_ database: Database, key: Span<UInt8>, value: Span<UInt8>, options: PutOptions = []) throws {
        try BytesBridge.withValue(key) { try put(database, &$0, value, options, nil) }
    }

    /// Removes `key`; returns whether it was present.
    @discardableResult
    public func delete(_ database: Database, key: Span<UInt8>) throws -> Bool {
        try BytesBridge.withValue(key) { try delete(database, &$0, nil) }
    }

    /// Removes `key` (a big-endian `UInt64`); returns whether it was present.
    @discardableResult
    public func delete(_ database: Database, key: UInt64) throws -> Bool {
        try BytesBridge.withValue(key) { try delete(database, &$0, "key \(key)") }
    }

    /// The one put both key forms share.
    @inline(__always)
    private func put(_ database: Database, _ key: inout MDB_val, _ value: Span<UInt8>, _ options: PutOptions, _ keyText: @autoclosure () -> String?) throws {
        try ensureActive()
        let rc = BytesBridge.withValue(value) { mdb_put(handle, database.dbi, &key, &$0, options.rawValue) }
        try record(rc, Self.operation("mdb_put", database, keyText()))
    }

    /// The one delete both key forms share.
    @inline(__always)
    private func delete(_ database: Database, _ key: inout MDB_val, _ keyText: @autoclosure () -> String?) throws -> Bool {
        try ensureActive()
        let rc = mdb_del(handle, database.dbi, &key, nil)
        if rc == MDB_NOTFOUND { return false }
        try record(rc, Self.operation("mdb_del", database, keyText()))
        return true
    }

    /// Removes every entry of `database`, keeping the database itself.
    public func clear(_ database: Database) throws {
        try ensureActive()
        try record(mdb_drop(handle, database.dbi, 0), "mdb_drop(\(database.name))")
    }
}
