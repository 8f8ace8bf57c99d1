import CLMDB

/// A position in one database, valid only inside ``ReadTransaction/withCursor(_:_:)``'s closure.
///
/// Moves answer `false` at either end of the database instead of throwing. After a move, the
/// current entry is read with ``withCurrent(_:)`` or ``currentKey``, without another LMDB call.
public final class Cursor {
    fileprivate let handle: OpaquePointer
    fileprivate let database: Database
    /// Strong, not `unowned`: the transaction never holds its cursors, so there is no cycle, and
    /// an unowned reference costs an atomic retain and release on every move.
    fileprivate let transaction: ReadTransaction
    /// The current key and value, where `mdb_cursor_get` writes them: memory of the cursor's own
    /// rather than stored properties passed `inout`, which would cost two dynamic exclusivity
    /// checks per move (a measurable share of a whole-log scan).
    private let slots = UnsafeMutablePointer<MDB_val>.allocate(capacity: 2)
    private var key: MDB_val {
        get { slots[0] }
        set { slots[0] = newValue }
    }
    private var value: MDB_val { slots[1] }
    /// Unchecked for exclusivity, like the transaction's flag: a cursor belongs to one thread,
    /// and no access to these overlaps another.
    @exclusivity(unchecked) fileprivate var positioned = false
    @exclusivity(unchecked) fileprivate var isFinished = false

    init(handle: OpaquePointer, database: Database, transaction: ReadTransaction) {
        self.handle = handle
        self.database = database
        self.transaction = transaction
        slots.initialize(repeating: MDB_val(), count: 2)
    }

    deinit {
        slots.deallocate()
    }

    func finish() { isFinished = true }

    @inline(__always)
    private func move(_ op: MDB_cursor_op, _ name: @autoclosure () -> String) throws -> Bool {
        if isFinished || transaction.isFinished { throw LMDBUsageError.transactionFinished }
        let rc = mdb_cursor_get(handle, slots, slots + 1, op)
        if rc == MDB_NOTFOUND {
            positioned = false
            return false
        }
        try check(rc, "mdb_cursor_get(\(database.name), \(name()))")
        positioned = true
        return true
    }

    /// Moves to the first entry.
    public func first() throws -> Bool { try move(MDB_FIRST, "first") }
    /// Moves to the last entry.
    public func last() throws -> Bool { try move(MDB_LAST, "last") }
    /// Moves to the next entry.
    @inline(__always)
    public func next() throws -> Bool { try move(MDB_NEXT, "next") }
    /// Moves to the previous entry.
    @inline(__always)
    public func previous() throws -> Bool { try move(MDB_PREV, "previous") }

    /// Moves to the first entry whose key is ≥ `key` (a big-endian `UInt64`).
    public func seek(atOrAfter key: UInt64) throws -> Bool {
        try BytesBridge.withValue(key) { try seek($0, "seek ≥ \(key)") }
    }

    /// Moves to the first entry whose key is ≥ `key`.
    public func seek(atOrAfter key: Span<UInt8>) throws -> Bool {
        try BytesBridge.withValue(key) { try seek($0, "seek ≥ key") }
    }

    @inline(__always)
    private func seek(_ keyValue: MDB_val, _ name: @autoclosure () -> String) throws -> Bool {
        key = keyValue
        return try move(MDB_SET_RANGE, name())
    }

    /// Moves to the last entry whose key is ≤ `key` (a big-endian `UInt64`).
    public func seek(atOrBefore key: UInt64) throws -> Bool {
        if try seek(atOrAfter: key) {
            if currentKey == key { return true }
            return try previous()
        }
        return try last()
    }

    /// The current key as a big-endian `UInt64`, or `nil` if the cursor is not on an entry or the
    /// key is not 8 bytes long.
    public var currentKey: UInt64? {
        positioned ? BytesBridge.uint64(key) : nil
    }

    /// Calls `body` with the current key and value (borrowed; valid only inside `body`).
    @inline(__always)
    public func withCurrent<R>(_ body: (_ key: Span<UInt8>, _ value: Span<UInt8>) throws -> R) throws -> R {
        guard positioned, !isFinished, !transaction.isFinished else { throw LMDBUsageError.transactionFinished }
        return try BytesBridge.withSpan(key) { keySpan in
            try BytesBridge.withSpan(value) { valueSpan in try body(keySpan, valueSpan) }
        }
    }

    /// Calls `body` with the current value (borrowed; valid only inside `body`).
    @inline(__always)
    public func withCurrentValue<R>(_ body: (Span<UInt8>) throws -> R) throws -> R {
        guard positioned, !isFinished, !transaction.isFinished else { throw LMDBUsageError.transactionFinished }
        return try BytesBridge.withSpan(value, body)
    }
}

@available(*, unavailable)
extension Cursor: Sendable {}

extension Cursor {
    /// Stores `value` under `key` (a big-endian `UInt64`) through this cursor, which must belong
    /// to a write transaction. Sorted keys put through one cursor skip most of the tree search.
    public func put(key: UInt64, value: Span<UInt8>, options: PutOptions = []) throws {
        try BytesBridge.withValue(key) { try put($0, value, options, "key \(key)") }
    }

    /// Stores `value` under `key` through this cursor, which must belong to a write transaction.
    public func put(key: Span<UInt8>, value: Span<UInt8>, options: PutOptions = []) throws {
        try BytesBridge.withValue(key) { try put($0, value, options, nil) }
    }

    /// The one cursor put both key forms share.
    private func put(_ keyValue: MDB_val, _ value: Span<UInt8>, _ options: PutOptions, _ keyText: @autoclosure () -> String?) throws {
        var keyValue = keyValue
        try BytesBridge.withValue(value) { dataValue in try put(&keyValue, &dataValue, options.rawValue, keyText()) }
    }

    /// `mdb_cursor_put` itself, for every cursor put: refuses a finished transaction, and notes a
    /// full map so that the write grows it and runs again.
    private func put(_ keyValue: inout MDB_val, _ dataValue: inout MDB_val, _ flags: UInt32, _ keyText: @autoclosure () -> String?) throws {
        if isFinished || transaction.isFinished { throw LMDBUsageError.transactionFinished }
        let rc = mdb_cursor_put(handle, &keyValue, &dataValue, flags)
        positioned = false
        if rc == MDB_MAP_FULL, let writer = transaction as? WriteTransaction { writer.noteMapFull() }
        try check(rc, ReadTransaction.operation("mdb_cursor_put", database, keyText()))
    }
}

extension Cursor {
    /// Stores `first` followed by `second` as one value under `key` (a big-endian `UInt64`),
    /// copying both straight into the space LMDB reserves for the value in its page
    /// (`MDB_RESERVE`), instead of joining them in a buffer that LMDB then copies again. The
    /// database must not keep sorted duplicates.
    public func put(key: UInt64, concatenating first: Span<UInt8>, _ second: Span<UInt8>, options: PutOptions = []) throws {
        let (count, overflow) = first.count.addingReportingOverflow(second.count)
        guard !overflow else {
            throw LMDBError(code: .badValueSize, message: "a value longer than Int.max bytes", operation: ReadTransaction.operation("mdb_cursor_put", database, "key \(key)"))
        }
        try BytesBridge.withValue(key) { keyValue in
            var reserved = MDB_val(mv_size: count, mv_data: nil)
            try put(&keyValue, &reserved, options.rawValue | UInt32(MDB_RESERVE), "key \(key)")
            // LMDB hands back exactly the room asked for; anything else would leave bytes of the
            // committed value unwritten.
            guard let target = reserved.mv_data, reserved.mv_size == count else {
                preconditionFailure("mdb_cursor_put(MDB_RESERVE) reserved \(reserved.mv_size) bytes, not \(count)")
            }
            BytesBridge.copy(first, to: target)
            BytesBridge.copy(second, to: target + first.count)
        }
    }

    /// Stores the 8 little-endian bytes of `value` under `key` (a big-endian `UInt64`).
    public func put(key: UInt64, value: UInt64, options: PutOptions = []) throws {
        let bytes = value.littleEndian
        try withUnsafeBytes(of: bytes) { raw in
            try put(key: key, value: Span(_unsafeElements: raw.assumingMemoryBound(to: UInt8.self)), options: options)
        }
    }
}
