package import LMDB
package import LogbookDomain

/// An LMDB read transaction as the domain's ``TableReader``: read-model tables are LMDB
/// databases, named by their handles' numbers. The one place read-model records meet `mdb_*`
/// (through the LMDB module).
package struct LMDBTableReader: TableReader {
    let transaction: ReadTransaction

    package init(_ transaction: ReadTransaction) {
        self.transaction = transaction
    }

    package func get<R>(_ table: StoredTable, key: Span<UInt8>, _ body: (Span<UInt8>) throws -> R) throws -> R? {
        try transaction.get(Database(table), key: key, body)
    }

    package func scan(_ table: StoredTable, from start: Span<UInt8>, _ body: (Span<UInt8>, Span<UInt8>) throws -> Bool) throws {
        try transaction.withCursor(Database(table)) { cursor in
            // LMDB takes no empty key: an empty start is the first record.
            var more = start.isEmpty ? try cursor.first() : try cursor.seek(atOrAfter: start)
            while more, try cursor.withCurrent(body) {
                more = try cursor.next()
            }
        }
    }
}

/// An LMDB write transaction as the domain's ``TableWriter``: where folds flush their changes.
package struct LMDBTableWriter: TableWriter {
    let transaction: WriteTransaction

    package init(_ transaction: WriteTransaction) {
        self.transaction = transaction
    }

    package func get<R>(_ table: StoredTable, key: Span<UInt8>, _ body: (Span<UInt8>) throws -> R) throws -> R? {
        try LMDBTableReader(transaction).get(table, key: key, body)
    }

    package func scan(_ table: StoredTable, from start: Span<UInt8>, _ body: (Span<UInt8>, Span<UInt8>) throws -> Bool) throws {
        try LMDBTableReader(transaction).scan(table, from: start, body)
    }

    package func put(_ table: StoredTable, key: Span<UInt8>, value: Span<UInt8>) throws {
        try transaction.put(Database(table), key: key, value: value)
    }

    package func delete(_ table: StoredTable, key: Span<UInt8>) throws {
        _ = try transaction.delete(Database(table), key: key)
    }
}

extension StoredTable {
    /// The read-model table kept in `database`.
    package init(_ database: Database) {
        self.init(id: database.number, name: database.name)
    }
}

extension Database {
    /// The database a ``StoredTable`` names.
    init(_ table: StoredTable) {
        self.init(number: table.id, name: table.name)
    }
}
