import EventLog
import BinaryCoding
import LMDB

/// What the single writer remembers between transactions: the head position, interned numbers
/// and chain heads. Owned by the writer thread and moved into each transaction's session.
///
/// Heads live in arrays indexed by their interned number (numbers are dense, from 1), so finding
/// a stream's head costs no hashing. A transaction updates the state as it goes; if it fails or is
/// retried (the map grew), the state is marked dirty and reloaded from the database before the
/// next use, so it never holds anything that was not committed. The caches are bounded: past
/// ``capacity`` entries they are dropped and refilled from the database on demand.
struct WriterState {
    private(set) var headPosition: UInt64 = 0
    /// Interned numbers by kind (``NameKind/rawValue``), looked up by hashes the appenders computed.
    private var numbers = [NameTable](repeating: NameTable(), count: NameKind.allCases.count)
    private var nextNumbers: [UInt32] = Array(repeating: 1, count: NameKind.allCases.count)
    /// Stream heads by stream number.
    var streams = HeadTable()
    /// Subject heads by subject number.
    var subjects = HeadTable()
    /// The largest time-ordered event id indexed (nil: none yet): a newer one needs no lookup.
    var maxOrderedId: UUIDKey?
    /// The last position committed before the current transaction.
    private(set) var committedHead: UInt64 = 0
    /// The ids of committed runs of time-ordered ids the writer keeps searching.
    var committedRunIds = RunIdCache()
    /// Increases with every transaction, to mark the heads it touched.
    private(set) var serial: UInt64 = 0
    let capacity: Int
    private(set) var dirty = true

    init(capacity: Int) { self.capacity = capacity }

    /// Starts a write transaction's use of the state, reloading it if the last one did not commit.
    mutating func begin(_ txn: WriteTransaction, _ databases: LogDatabases) throws {
        if dirty { try reload(txn, databases) }
        committedHead = headPosition
        dirty = true
        serial += 1
    }

    /// Marks the state as matching the database after a successful commit, and trims the caches.
    mutating func committed() {
        dirty = false
        if streams.loadedCount + subjects.loadedCount > capacity {
            streams = HeadTable()
            subjects = HeadTable()
        }
        for kind in numbers.indices where numbers[kind].count > capacity { numbers[kind] = NameTable() }
    }

    private mutating func reload(_ txn: WriteTransaction, _ databases: LogDatabases) throws {
        headPosition = try txn.withCursor(databases.events) { cursor in try cursor.last() ? cursor.currentKey ?? 0 : 0 }
        numbers = [NameTable](repeating: NameTable(), count: NameKind.allCases.count)
        for kind in NameKind.allCases {
            let last = try txn.withCursor(databases.tables(kind).names) { cursor in try cursor.last() ? cursor.currentKey ?? 0 : 0 }
            nextNumbers[kind.rawValue] = UInt32(last) + 1
        }
        streams = HeadTable()
        subjects = HeadTable()
        committedRunIds = RunIdCache()
        let newestRun = try OrderedIdRuns.last(in: txn, databases)?.lastKey
        let floorKey = LogDatabases.orderedFloorKey
        let floor = try txn.get(databases.meta, key: floorKey.span) { span in
            var offset = 0
            return UUIDKey(try ByteReader.uuid(span, &offset))
        }
        maxOrderedId = [newestRun, floor].compactMap { $0 }.max()
    }

    /// Assigns the next position.
    @inline(__always)
    mutating func nextPosition() -> UInt64 {
        headPosition += 1
        return headPosition
    }

    /// The number interned for `name` (whose ``NameTable/hash(_:)`` is `hash`), looked up in the
    /// cache then the database; nil if new.
    @inline(__always)
    mutating func existingNumber(
        _ kind: NameKind, _ name: String, hash: UInt64, _ txn: WriteTransaction, _ databases: LogDatabases
    ) throws -> UInt32? {
        if let cached = numbers[kind.rawValue].number(name, hash: hash) { return cached }
        guard let stored = try NameResolver.number(kind, name, databases: databases, in: txn) else { return nil }
        numbers[kind.rawValue].insert(name, hash: hash, number: stored)
        return stored
    }

    /// The number for `name` (whose ``NameTable/hash(_:)`` is `hash`), interning it (in this
    /// transaction) if the log has never seen it.
    @inline(__always)
    mutating func number(_ kind: NameKind, _ name: String, hash: UInt64, _ txn: WriteTransaction, _ databases: LogDatabases) throws -> UInt32 {
        if let existing = try existingNumber(kind, name, hash: hash, txn, databases) { return existing }
        let number = nextNumbers[kind.rawValue]
        nextNumbers[kind.rawValue] += 1
        let tables = databases.tables(kind)
        var encoded = ByteWriter(capacity: 4)
        encoded.uint32(number)
        try txn.put(tables.numbers, key: name.utf8.span, value: encoded.bytes.span, options: .noOverwrite)
        try txn.put(tables.names, key: UInt64(number), value: name.utf8.span, options: .append)
        numbers[kind.rawValue].insert(name, hash: hash, number: number)
        return number
    }

    /// Makes sure the head of chain `number` is in memory (an absent head is an empty chain) and
    /// returns its index in the chain's head array.
    @inline(__always)
    mutating func loadHead(_ chain: ChainKind, _ number: UInt32, _ txn: WriteTransaction, _ databases: LogDatabases) throws -> Int {
        let index = Int(number)
        switch chain {
        case .stream:
            if !streams.isLoaded(index) { streams.install(index, try Self.storedHead(chain, number, txn, databases)) }
        case .subject:
            if !subjects.isLoaded(index) { subjects.install(index, try Self.storedHead(chain, number, txn, databases)) }
        }
        return index
    }

    private static func storedHead(_ chain: ChainKind, _ number: UInt32, _ txn: WriteTransaction, _ databases: LogDatabases) throws -> ChainHead {
        let reader = LogReader(txn: txn, databases: databases, resolver: NameResolver(databases: databases))
        return try reader.writerHead(chain, number: number)
    }
}
