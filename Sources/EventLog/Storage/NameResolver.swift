import LMDB

/// Turns interned numbers back into names (and names into numbers) for readers, caching what one
/// read session has seen so a scan does not look each stream up again.
///
/// Not shared between threads: each read session (a scan, a subscription) has its own.
final class NameResolver {
    private let databases: LogDatabases
    private var names: [[UInt32: String]] = Array(repeating: [:], count: NameKind.allCases.count)
    private static let capacity = 65_536

    init(databases: LogDatabases) { self.databases = databases }

    /// The name interned as `number`; a missing one means the log is corrupt.
    @inline(__always)
    func name(_ kind: NameKind, _ number: UInt32, in txn: ReadTransaction, at position: UInt64) throws -> String {
        if let cached = names[kind.rawValue][number] { return cached }
        guard let name = try txn.get(databases.tables(kind).names, key: UInt64(number), { String(decoding: $0.copiedBytes(), as: UTF8.self) })
        else { throw EventStoreError.corruption(position: Position(position), reason: "unknown \(kind) number \(number)") }
        if names[kind.rawValue].count >= Self.capacity { names[kind.rawValue].removeAll(keepingCapacity: true) }
        names[kind.rawValue][number] = name
        return name
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
