/// One table of a read-model store, as the store named it: an opaque handle the domain passes
/// back to the store's ``TableReader`` and never looks into. `LogbookStorage` gives them out for
/// its LMDB databases; a table in memory has none.
package struct StoredTable: Sendable, Hashable {
    /// The store's own number for the table.
    package let id: UInt32
    /// The table's full name in the store (`rm.<read model>.<table>`), for error messages.
    package let name: String

    package init(id: UInt32, name: String) {
        self.id = id
        self.name = name
    }
}

/// What a fold or a query reads stored read-model records through: a read transaction of the
/// store that holds them, seen as keys and values of bytes in byte order.
///
/// The domain (read models, rules, queries) knows only this protocol; `LogbookStorage`
/// implements it over an LMDB transaction. Folds with no store (as-of queries, tests) pass nil
/// and keep every record in memory (``ReadModelTable``).
package protocol TableReader {
    /// Calls `body` with the value stored under `key` in `table`, or returns nil.
    func get<R>(_ table: StoredTable, key: Span<UInt8>, _ body: (Span<UInt8>) throws -> R) throws -> R?

    /// Calls `body` with each record of `table` whose key is at or after `start`, in key order,
    /// until `body` returns false or the table ends.
    func scan(_ table: StoredTable, from start: Span<UInt8>, _ body: (_ key: Span<UInt8>, _ value: Span<UInt8>) throws -> Bool) throws
}

/// A ``TableReader`` that also writes: the write transaction a fold's changed records are
/// flushed in.
package protocol TableWriter: TableReader {
    /// Stores `value` under `key` in `table`, replacing what was there.
    func put(_ table: StoredTable, key: Span<UInt8>, value: Span<UInt8>) throws
    /// Removes the record under `key` from `table`, if there is one.
    func delete(_ table: StoredTable, key: Span<UInt8>) throws
}
