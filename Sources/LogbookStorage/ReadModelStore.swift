import BinaryCoding
import Crypto
import EventLog
package import LMDB
package import LogbookDomain

/// Where the read models live: their LMDB databases (beside the log, in its environment, or in
/// a scratch environment for `verify`) and the meta table holding each projection's checkpoint,
/// code version and state.
package struct ReadModelStore: Sendable {
    package let environment: Environment
    private let databases: [ReadModelKind: [String: Database]]
    /// Each read model's tables, in registry order.
    private let tables: [ReadModelTables]
    package let meta: Database

    package init(environment: Environment) throws {
        self.environment = environment
        var databases: [ReadModelKind: [String: Database]] = [:]
        for kind in ReadModelKind.allCases {
            var tables: [String: Database] = [:]
            for table in kind.tableNames {
                tables[table] = try environment.openDatabase(named: databaseName(projection: kind.rawValue, table: table))
            }
            databases[kind] = tables
        }
        self.databases = databases
        tables = ReadModelKind.allCases.map { ReadModelTables(databases: databases[$0]!.mapValues(StoredTable.init)) }
        meta = try environment.openDatabase(named: "rm.meta")
    }

    /// Read models backed by these databases (every one active unless `active` says otherwise).
    package func projectionSet(active: Set<ReadModelKind>? = nil) -> ReadModelSet {
        ReadModelSet(tables: tables, active: active)
    }

    // MARK: Checkpoints

    /// A projection's checkpoint: how far it has folded the log, with which code, and whether a
    /// rebuild is under way.
    package struct Checkpoint: Sendable, Hashable {
        package var position: UInt64
        package var codeVersion: Int
        package var rebuilding: Bool

        package init(position: UInt64, codeVersion: Int, rebuilding: Bool) {
            self.position = position
            self.codeVersion = codeVersion
            self.rebuilding = rebuilding
        }
    }

    package func checkpoint(_ kind: ReadModelKind, _ txn: ReadTransaction) throws -> Checkpoint? {
        try txn.get(meta, key: Array(kind.rawValue.utf8).span) { span in
            var o = 0
            do {
                return Checkpoint(
                    position: try ByteReader.varint(span, &o), codeVersion: try ByteReader.int(span, &o),
                    rebuilding: try ByteReader.byte(span, &o) == 1)
            } catch {
                throw LogbookError.storage("undecodable checkpoint of \(kind.rawValue): \(error)")
            }
        }
    }

    package func setCheckpoint(_ kind: ReadModelKind, _ checkpoint: Checkpoint, _ txn: WriteTransaction) throws {
        var w = ByteWriter(capacity: 16)
        w.varint(checkpoint.position)
        w.varint(UInt64(checkpoint.codeVersion))
        w.byte(checkpoint.rebuilding ? 1 : 0)
        try txn.put(meta, key: Array(kind.rawValue.utf8).span, value: w.bytes.span)
    }

    /// Empties a projection's tables.
    package func clear(_ kind: ReadModelKind, _ txn: WriteTransaction) throws {
        for database in databases[kind]!.values { try txn.clear(database) }
    }

    // MARK: Digests

    /// Every read model's checkpoint (nil before its first fold) and digest, in registry order,
    /// as they stand in `txn`.
    package func checkpointsAndDigests(_ txn: ReadTransaction) throws -> [(kind: ReadModelKind, checkpoint: Checkpoint?, sha256: String)] {
        try ReadModelKind.allCases.map { kind in (kind, try checkpoint(kind, txn), try digest(kind, txn)) }
    }

    /// SHA-256 of a projection's canonical bytes: for each table (by name), every key and value
    /// in key order, each prefixed with its length. Identical whatever the history of writes.
    package func digest(_ kind: ReadModelKind, _ txn: ReadTransaction) throws -> String {
        var hasher = SHA256()
        func feed(_ bytes: [UInt8]) {
            let length = UInt32(bytes.count)
            hasher.update(data: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
            hasher.update(data: bytes)
        }
        feed(Array("\(kind.rawValue) v\(kind.codeVersion)".utf8))
        for table in kind.tableNames.sorted() {
            feed(Array(table.utf8))
            try txn.withCursor(databases[kind]![table]!) { cursor in
                var more = try cursor.first()
                while more {
                    try cursor.withCurrent { key, value in
                        feed(key.copiedBytes())
                        feed(value.copiedBytes())
                    }
                    more = try cursor.next()
                }
            }
        }
        return hasher.finalize().hex
    }
}
