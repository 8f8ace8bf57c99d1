import BinaryCoding
import LMDB

/// One table of a read model: typed records in an LMDB database, seen through a write-back
/// cache while a fold runs.
///
/// A fold reads records (from the cache, else from the database in the current transaction),
/// changes them in memory, and ``flush(_:)`` writes the changed ones in key order. A table with
/// no database (``init(inMemory:)``) keeps everything in memory: as-of queries and scratch
/// folds use it with the same projection code.
struct ReadModelTable<Key: TableKey, Value: TableValue> {
    let database: Database?
    private var cache: [Key: Value?] = [:]
    private var dirty: Set<Key> = []

    init(_ database: Database) { self.database = database }

    /// A table that lives only in memory.
    init(inMemory: Void) { self.database = nil }

    var isInMemory: Bool { database == nil }
    /// The cached records (nil: known absent or removed).
    var cacheSnapshot: [Key: Value?] { cache }
    var cachedCount: Int { cache.count }

    /// The record under `key`, if any.
    mutating func get(_ key: Key, _ txn: ReadTransaction?) throws -> Value? {
        if let cached = cache[key] { return cached }
        let loaded = try load(key, txn)
        cache[key] = .some(loaded)
        return loaded
    }

    /// Changes the record under `key` (starting from `initial` if there is none) and marks it dirty.
    mutating func modify<R>(_ key: Key, _ txn: ReadTransaction?, initial: () -> Value, _ body: (inout Value) throws -> R) throws -> R {
        var value: Value
        if let cached = cache[key] {
            value = cached ?? initial()
        } else {
            value = try load(key, txn) ?? initial()
        }
        cache[key] = nil  // drop the cache's copy so `value` is uniquely referenced while it changes
        defer {
            cache[key] = .some(value)
            dirty.insert(key)
        }
        return try body(&value)
    }

    /// Replaces (or, with nil, removes) the record under `key`.
    mutating func set(_ key: Key, _ value: Value?) {
        cache[key] = .some(value)
        dirty.insert(key)
    }

    private func load(_ key: Key, _ txn: ReadTransaction?) throws -> Value? {
        guard let database, let txn else { return nil }
        var writer = ByteWriter(capacity: 32)
        key.encode(into: &writer)
        return try txn.get(database, key: writer.bytes.span) { span in try Value(decoding: span) }
    }

    /// Writes the changed records in key order and forgets which were changed.
    mutating func flush(_ txn: WriteTransaction) throws {
        guard let database, !dirty.isEmpty else {
            dirty.removeAll(keepingCapacity: true)
            return
        }
        var keyBytes = ByteWriter(capacity: 32)
        var valueBytes = ByteWriter(capacity: 64)
        for key in dirty.sorted() {
            keyBytes.bytes.removeAll(keepingCapacity: true)
            key.encode(into: &keyBytes)
            if let value = cache[key] ?? nil {
                valueBytes.bytes.removeAll(keepingCapacity: true)
                value.encode(into: &valueBytes)
                try txn.put(database, key: keyBytes.bytes.span, value: valueBytes.bytes.span)
            } else {
                try txn.delete(database, key: keyBytes.bytes.span)
            }
        }
        dirty.removeAll(keepingCapacity: true)
    }

    /// Forgets every cached record (after a flush, or when the transaction that loaded them failed).
    mutating func dropCache() {
        cache.removeAll()
        dirty.removeAll()
    }

    /// Every record whose key starts with `prefix`, in key order: from the database (with the
    /// cache's changes applied) or, for an in-memory table, from memory.
    func records(withPrefix prefix: [UInt8], _ txn: ReadTransaction?, where include: (Key) -> Bool = { _ in true }) throws -> [(Key, Value)] {
        var merged: [Key: Value] = [:]
        if let database, let txn {
            try txn.withCursor(database) { cursor in
                var more = try cursor.seek(atOrAfter: prefix.span)
                while more {
                    let done = try cursor.withCurrent { key, value -> Bool in
                        guard key.count >= prefix.count, (0..<prefix.count).allSatisfy({ key[$0] == prefix[$0] }) else { return true }
                        let decodedKey = try Key(decoding: key)
                        if include(decodedKey) { merged[decodedKey] = try Value(decoding: value) }
                        return false
                    }
                    if done { break }
                    more = try cursor.next()
                }
            }
        }
        for (key, value) in cache where include(key) {
            var writer = ByteWriter(capacity: 32)
            key.encode(into: &writer)
            guard writer.bytes.starts(with: prefix) else { continue }
            merged[key] = value
        }
        return merged.sorted { $0.key < $1.key }
    }
}

extension ReadModelTable {
    /// Every record with `range.lowerBound ≤ key ≤ range.upperBound`, in key order (database
    /// records with the cache's changes applied).
    func records(in range: ClosedRange<Key>, _ txn: ReadTransaction?) throws -> [(Key, Value)] {
        var merged: [Key: Value] = [:]
        if let database, let txn {
            var start = ByteWriter(capacity: 32)
            range.lowerBound.encode(into: &start)
            try txn.withCursor(database) { cursor in
                var more = try cursor.seek(atOrAfter: start.bytes.span)
                while more {
                    let key = try cursor.withCurrent { key, _ in try Key(decoding: key) }
                    guard key <= range.upperBound else { break }
                    merged[key] = try cursor.withCurrentValue { try Value(decoding: $0) }
                    more = try cursor.next()
                }
            }
        }
        for (key, value) in cacheSnapshot where range.contains(key) { merged[key] = value }
        return merged.sorted { $0.key < $1.key }
    }
}

/// A key prefix made of the leading components of a table key.
func keyPrefix(_ build: (inout ByteWriter) -> Void) -> [UInt8] {
    var writer = ByteWriter(capacity: 32)
    build(&writer)
    return writer.bytes
}
