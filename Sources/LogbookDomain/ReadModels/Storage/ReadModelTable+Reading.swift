import BinaryCoding

/// Reads for queries: a query reads a snapshot through a fresh set of read models, so nothing is
/// cached or changed yet and records can be read straight from the store, one at a time, without
/// loading a range into memory first.
extension ReadModelTable {
    /// The record under `key`, if any, without caching it (a changed or cached record first).
    func peek(_ key: Key, _ txn: (any TableReader)?) throws -> Value? {
        if let cached = cachedValue(key) { return cached }
        guard let database, let txn else { return nil }
        var writer = ByteWriter(capacity: 32)
        key.encode(into: &writer)
        return try txn.get(database, key: writer.bytes.span) { span in try Value(decoding: span) }
    }

    /// Calls `body` with each record whose key is `start` or after, in key order, until it returns
    /// false. Straight from the store when the table has no changes of its own (a query's); else
    /// (a fold's, or in memory) over the records with the changes applied.
    func forEach(from start: Key, _ txn: (any TableReader)?, _ body: (Key, Value) throws -> Bool) throws {
        if let database, let txn, !hasChanges {
            var writer = ByteWriter(capacity: 32)
            start.encode(into: &writer)
            try txn.scan(database, from: writer.bytes.span) { key, value in
                try body(try Key(decoding: key), try Value(decoding: value))
            }
            return
        }
        for (key, value) in try records(withPrefix: [], txn, where: { $0 >= start }) {
            guard try body(key, value) else { return }
        }
    }
}
