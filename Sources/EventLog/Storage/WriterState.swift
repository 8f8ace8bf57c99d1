import LMDB

/// What the single writer remembers between transactions: the head position, interned numbers
/// and chain heads. Touched only on the writer thread.
///
/// A write transaction updates this state as it goes. If the transaction fails or is retried
/// (the map grew), the state is marked dirty and reloaded from the database before the next
/// use, so it never holds anything that was not committed.
final class WriterState {
    private(set) var headPosition: UInt64 = 0
    private var numbers: [[String: UInt32]] = Array(repeating: [:], count: NameKind.allCases.count)
    private var nextNumbers: [UInt32] = Array(repeating: 1, count: NameKind.allCases.count)
    var streamHeads: [UInt32: ChainHead] = [:]
    var subjectHeads: [UInt32: ChainHead] = [:]
    private let databases: LogDatabases
    private let capacity: Int
    private var dirty = true

    init(databases: LogDatabases, capacity: Int) {
        self.databases = databases
        self.capacity = capacity
    }

    /// Starts a write transaction's use of the state, reloading it if the last one did not commit.
    func begin(_ txn: WriteTransaction) throws {
        if dirty { try reload(txn) }
        dirty = true
    }

    /// Marks the state as matching the database after a successful commit, and trims the caches.
    func committed() {
        dirty = false
        trim(&streamHeads)
        trim(&subjectHeads)
        for kind in NameKind.allCases { trim(&numbers[kind.rawValue]) }
    }

    private func trim<K, V>(_ cache: inout [K: V]) {
        guard cache.count > capacity else { return }
        let excess = cache.count - capacity * 3 / 4
        for _ in 0..<excess { cache.remove(at: cache.startIndex) }
    }

    private func reload(_ txn: WriteTransaction) throws {
        headPosition = try txn.withCursor(databases.events) { cursor in try cursor.last() ? cursor.currentKey ?? 0 : 0 }
        for kind in NameKind.allCases {
            numbers[kind.rawValue].removeAll()
            let last = try txn.withCursor(databases.tables(kind).names) { cursor in try cursor.last() ? cursor.currentKey ?? 0 : 0 }
            nextNumbers[kind.rawValue] = UInt32(last) + 1
        }
        streamHeads.removeAll()
        subjectHeads.removeAll()
    }

    /// Assigns the next position.
    @inline(__always)
    func nextPosition() -> UInt64 {
        headPosition += 1
        return headPosition
    }

    /// The number interned for `name`, looked up in the cache then the database; nil if new.
    @inline(__always)
    func existingNumber(_ kind: NameKind, _ name: String, _ txn: WriteTransaction) throws -> UInt32? {
        if let cached = numbers[kind.rawValue][name] { return cached }
        guard let stored = try NameResolver.number(kind, name, databases: databases, in: txn) else { return nil }
        numbers[kind.rawValue][name] = stored
        return stored
    }

    /// The number for `name`, interning it (in this transaction) if the log has never seen it.
    @inline(__always)
    func number(_ kind: NameKind, _ name: String, _ txn: WriteTransaction) throws -> UInt32 {
        if let existing = try existingNumber(kind, name, txn) { return existing }
        let number = nextNumbers[kind.rawValue]
        nextNumbers[kind.rawValue] += 1
        let tables = databases.tables(kind)
        var encoded = ByteWriter(capacity: 4)
        encoded.uint32(number)
        try txn.put(tables.numbers, key: name.utf8.span, value: encoded.bytes.span, options: .noOverwrite)
        try txn.put(tables.names, key: UInt64(number), value: name.utf8.span, options: .append)
        numbers[kind.rawValue][name] = number
        return number
    }

    /// Loads a chain head into the cache if it is not there (an absent head is an empty chain).
    @inline(__always)
    func loadHead(_ chain: ChainKind, _ number: UInt32, _ txn: WriteTransaction) throws {
        switch chain {
        case .stream where streamHeads[number] == nil:
            streamHeads[number] = try storedHead(chain, number, txn) ?? ChainHead()
        case .subject where subjectHeads[number] == nil:
            subjectHeads[number] = try storedHead(chain, number, txn) ?? ChainHead()
        default:
            break
        }
    }

    private func storedHead(_ chain: ChainKind, _ number: UInt32, _ txn: WriteTransaction) throws -> ChainHead? {
        try txn.get(chain.heads(databases), key: UInt64(number)) { span in
            do { return try ChainHead(decoding: span) } catch {
                throw EventStoreError.corruption(position: Position(0), reason: "undecodable \(chain) head \(number): \(error)")
            }
        }
    }
}
