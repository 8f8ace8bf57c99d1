import EventLog
import BinaryCoding
import LMDB

/// Turns interned numbers back into names (and names into numbers) for readers, caching what one
/// read session has seen so a scan does not look each stream up again.
///
/// Numbers are dense (1, 2, 3… per kind), so a resolver made for long reads (`dense`) caches in
/// an array indexed by number: a lookup costs no hashing. One made for short reads caches in a
/// small dictionary, so it never allocates room for numbers it will not see — or, given the
/// store's ``CommittedNames`` (short reads in read-only transactions), in that, so one read
/// finds the names earlier reads resolved. A dense resolver given them asks them before the
/// B-tree, so a scan of a stretch of the log does not load and allocate again every name the
/// stretches before it met. Either holds at most ``capacity`` names per kind.
/// Not shared between threads: each read session (a scan, a subscription, a query) has its own.
final class NameResolver {
    private let databases: LogDatabases
    private let dense: Bool
    private let shared: CommittedNames?
    /// Allocated on first use (a short-read resolver with `shared` never uses them). Unchecked for
    /// exclusivity: a resolver belongs to one read session's thread, and a lookup never overlaps
    /// a load (three dynamic checks per scanned event were a measurable share of a scan).
    @exclusivity(unchecked) private var names: [[String?]] = []
    @exclusivity(unchecked) private var sparse: [[UInt32: String]] = []
    private static let capacity = 1 << 18

    /// A resolver over `databases`; `shared` only where every transaction it reads in is
    /// read-only (its names are then committed ones).
    init(databases: LogDatabases, dense: Bool = false, shared: CommittedNames? = nil) {
        self.databases = databases
        self.dense = dense
        self.shared = shared
    }

    /// The name interned as `number`; a missing one means the log is corrupt.
    @inline(__always)
    func name(_ kind: NameKind, _ number: UInt32, in txn: ReadTransaction, at position: UInt64) throws -> String {
        let index = Int(number)
        if dense {
            if !names.isEmpty, index < names[kind.rawValue].count, let cached = names[kind.rawValue][index] { return cached }
            if let shared, let committed = shared.name(kind, number) {
                keepDense(committed, kind, index)
                return committed
            }
        } else if let shared {
            if let cached = shared.name(kind, number) { return cached }
        } else if !sparse.isEmpty, let cached = sparse[kind.rawValue][number] {
            return cached
        }
        return try load(kind, number, in: txn, at: position)
    }

    private func load(_ kind: NameKind, _ number: UInt32, in txn: ReadTransaction, at position: UInt64) throws -> String {
        guard let name = try txn.get(databases.tables(kind).names, key: UInt64(number), { String(decoding: $0.copiedBytes(), as: UTF8.self) })
        else { throw EventStoreError.corruption(position: Position(position), reason: "unknown \(kind) number \(number)") }
        shared?.remember(name, as: number, kind)
        if dense {
            keepDense(name, kind, Int(number))
        } else if shared == nil {
            if sparse.isEmpty { sparse = Array(repeating: [:], count: NameKind.allCases.count) }
            if sparse[kind.rawValue].count >= Self.capacity { sparse[kind.rawValue].removeAll() }
            sparse[kind.rawValue][number] = name
        }
        return name
    }

    /// Keeps `name` in the dense cache at `index` (not past ``capacity``).
    private func keepDense(_ name: String, _ kind: NameKind, _ index: Int) {
        guard index < Self.capacity else { return }
        if names.isEmpty { names = Array(repeating: [], count: NameKind.allCases.count) }
        if index >= names[kind.rawValue].count {
            names[kind.rawValue].append(contentsOf: repeatElement(nil, count: index + 1 - names[kind.rawValue].count))
        }
        names[kind.rawValue][index] = name
    }

    /// The number interned for `name`, or nil if the log has never seen it.
    func number(_ kind: NameKind, _ name: String, in txn: ReadTransaction) throws -> UInt32? {
        try Self.number(kind, name, databases: databases, in: txn)
    }

    static func number(_ kind: NameKind, _ name: String, databases: LogDatabases, in txn: ReadTransaction) throws -> UInt32? {
        try txn.get(databases.tables(kind).numbers, key: name.utf8.span) { span in
            try? ByteReader.uint32(span, at: 0)
        } ?? nil
    }
}

extension NameKind: CustomStringConvertible {
    var description: String {
        switch self {
        case .stream: "stream"
        case .subject: "subject"
        case .type: "event type"
        }
    }
}
