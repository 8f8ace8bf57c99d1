import BinaryCoding

/// One table of a read model: typed records in a store's table (``TableReader``, LMDB's in
/// `LogbookStorage`), seen through a write-back cache while a fold runs.
///
/// A fold reads records (from the cache, else from the database in the current transaction),
/// changes them in memory, and ``flush(_:)`` writes the changed ones in key order. A table with
/// no database (``init(inMemory:)``) keeps everything in memory: as-of queries and scratch
/// folds use it with the same projection code.
struct ReadModelTable<Key: TableKey, Value: TableValue> {
    /// A cached record (nil: known absent, or removed) and the flush round in which it last
    /// changed: it is dirty when that is the table's current ``round``, so forgetting every change
    /// after a flush is one increment, not a lookup per changed key.
    private struct Entry {
        var value: Value?
        var changedIn: UInt64

        /// A record read from the database, not changed since.
        init(loaded value: Value?) {
            self.value = value
            changedIn = 0
        }

        init(value: Value?, changedIn round: UInt64) {
            self.value = value
            changedIn = round
        }
    }

    /// The table's name within its read model.
    let name: String
    let database: StoredTable?
    private var cache: [Key: Entry] = [:]
    /// The current flush round (from 1; an entry changed in it is dirty).
    private var round: UInt64 = 1
    /// The keys of dirty entries, each once (an entry changed in this round is listed).
    private var dirtyKeys: [Key] = []
    /// Keys of records handed to a write that may not have committed yet (``markHandedOff()``):
    /// their cached values are what the database will hold, so range reads take them from the
    /// cache as they take dirty ones.
    private var handedOffKeys: [Key] = []

    init(name: String, database: StoredTable) {
        self.name = name
        self.database = database
    }

    /// A table that lives only in memory.
    init(inMemory name: String) {
        self.name = name
        self.database = nil
    }

    /// The cached record under `key`: nil when not cached, `.some(nil)` when known absent.
    func cachedValue(_ key: Key) -> Value?? { cache[key].map(\.value) }

    /// Whether records changed since the last flush (or, in memory, whether any is held).
    var hasChanges: Bool { database == nil ? !cache.isEmpty : !dirtyKeys.isEmpty || !handedOffKeys.isEmpty }

    /// The cached records (nil: known absent or removed).
    var cacheSnapshot: [Key: Value?] { cache.mapValues(\.value) }
    var cachedCount: Int { cache.count }

    /// The record under `key`, if any.
    mutating func get(_ key: Key, _ txn: (any TableReader)?) throws -> Value? {
        if let cached = cache[key] { return cached.value }
        let loaded = try load(key, txn)
        cache[key] = Entry(loaded: loaded)
        return loaded
    }

    /// Changes the record under `key` (starting from `initial` if there is none) and marks it
    /// dirty. The record changes in place in the cache: one lookup, no copy.
    mutating func modify<R>(_ key: Key, _ txn: (any TableReader)?, initial: () -> Value, _ body: (inout Value) throws -> R) throws -> R {
        let index = try cachedIndex(key, txn)
        return try withoutActuallyEscaping(initial) { try change(key, at: index, initial: $0, body)! }
    }

    /// Changes the record under `key` in place if there is one, and marks it dirty; with none,
    /// changes nothing and answers nil. One lookup, as ``modify(_:_:initial:_:)``.
    @discardableResult
    mutating func modifyIfPresent<R>(_ key: Key, _ txn: (any TableReader)?, _ body: (inout Value) throws -> R) throws -> R? {
        try change(key, at: cachedIndex(key, txn), initial: nil, body)
    }

    /// The cache's index of `key`, loading its record first if it is not cached. One hash of the
    /// key when it is cached (the common case in a fold).
    private mutating func cachedIndex(_ key: Key, _ txn: (any TableReader)?) throws -> [Key: Entry].Index {
        if let cached = cache.index(forKey: key) { return cached }
        cache[key] = Entry(loaded: try load(key, txn))
        return cache.index(forKey: key)!
    }

    /// Changes the cached record at `index` through its index (no second lookup): an absent one
    /// starts from `initial`, or, without one, is left alone (nil).
    private mutating func change<R>(_ key: Key, at index: [Key: Entry].Index, initial: (() -> Value)?, _ body: (inout Value) throws -> R) throws -> R? {
        var newlyDirty = false
        let round = self.round
        let result = try Self.change(&cache.values[index]) { entry -> R? in
            if entry.value == nil {
                guard let initial else { return nil }
                entry.value = initial()
            }
            if entry.changedIn != round {
                entry.changedIn = round
                newlyDirty = true
            }
            return try body(&entry.value!)
        }
        if newlyDirty { dirtyKeys.append(key) }
        return result
    }

    @inline(__always)
    private static func change<R>(_ entry: inout Entry, _ body: (inout Entry) throws -> R) rethrows -> R {
        try body(&entry)
    }

    /// Replaces (or, with nil, removes) the record under `key`.
    mutating func set(_ key: Key, _ value: Value?) {
        let wasDirty = cache.updateValue(Entry(value: value, changedIn: round), forKey: key)?.changedIn == round
        if !wasDirty { dirtyKeys.append(key) }
    }

    private func load(_ key: Key, _ txn: (any TableReader)?) throws -> Value? {
        guard let database, let txn else { return nil }
        var writer = ByteWriter(capacity: 32)
        key.encode(into: &writer)
        return try txn.get(database, key: writer.bytes.span) { span in try Value(decoding: span) }
    }

    /// Writes the changed records in the database's order (their keys' bytes). They stay marked as changed until
    /// ``markFlushed()``: if the transaction is rolled back and run again, they are written again.
    mutating func flush(_ txn: any TableWriter) throws {
        guard !dirtyKeys.isEmpty, let database else { return }
        // Every changed key encoded once, into one buffer, and written in the order of its bytes
        // (the database's order, so the writes walk the B-tree forward). Sorting the encoded
        // bytes, not the keys, spares comparing `String`s by their UTF-8 views, which cost more
        // than the writes themselves.
        var encoded = ByteWriter(capacity: dirtyKeys.count * 24)
        var spans: [EncodedKey] = []
        spans.reserveCapacity(dirtyKeys.count)
        for index in dirtyKeys.indices {
            let start = encoded.bytes.count
            dirtyKeys[index].encode(into: &encoded)
            spans.append(EncodedKey(start: start, end: encoded.bytes.count, index: index))
        }
        let bytes = encoded.bytes
        EncodedKey.sort(&spans, in: bytes)
        var valueBytes = ByteWriter(capacity: 64)
        for span in spans {
            let key = bytes.span.extracting(span.start..<span.end)
            if let value = cache[dirtyKeys[span.index]]?.value {
                valueBytes.bytes.removeAll(keepingCapacity: true)
                value.encode(into: &valueBytes)
                try txn.put(database, key: key, value: valueBytes.bytes.span)
            } else {
                try txn.delete(database, key: key)
            }
        }
    }

    /// Forgets which records changed, once the transaction that flushed them committed.
    mutating func markFlushed() {
        round += 1
        dirtyKeys.removeAll(keepingCapacity: true)
    }

    /// Forgets which records changed, once they were flushed into writes that commit later (on
    /// another task): until ``markWritten()`` range reads keep taking them from the cache. The
    /// cache must then be kept (no ``dropCache()``) until the writes commit.
    mutating func markHandedOff() {
        handedOffKeys.append(contentsOf: dirtyKeys)
        markFlushed()
    }

    /// The writes of the records handed off committed: the database holds them.
    mutating func markWritten() {
        handedOffKeys = []
    }

    /// Forgets every cached record (after a flush, or when the transaction that loaded them
    /// failed; not while records handed off are being written).
    mutating func dropCache() {
        cache.removeAll()
        dirtyKeys = []
        handedOffKeys = []
    }

    /// Every record whose key starts with `prefix`, in key order: from the database (with the
    /// cache's changes applied) or, for an in-memory table, from memory.
    func records(withPrefix prefix: [UInt8], _ txn: (any TableReader)?, where include: (Key) -> Bool = { _ in true }) throws -> [(Key, Value)] {
        var scanned = ScannedRecords<Key, Value>()
        if let database, let txn {
            try txn.scan(database, from: prefix.span) { key, value in
                guard key.count >= prefix.count, (0..<prefix.count).allSatisfy({ key[$0] == prefix[$0] }) else { return false }
                let decodedKey = try Key(decoding: key)
                if include(decodedKey) { scanned.append(decodedKey, try Value(decoding: value)) }
                return true
            }
        }
        var changes: [(Key, Value?)] = []
        forEachChange { key, value in
            guard include(key) else { return }
            var writer = ByteWriter(capacity: 32)
            key.encode(into: &writer)
            if writer.bytes.starts(with: prefix) { changes.append((key, value)) }
        }
        return scanned.merged(with: changes)
    }

    /// Visits the cached records that may differ from the database: in a table backed by one,
    /// only the changed (dirty) ones and those handed off to a write not yet committed — any
    /// other cached record is what the database holds — so a range read costs its range, not the
    /// size of the cache; in memory, every record.
    private func forEachChange(_ body: (Key, Value?) -> Void) {
        if database == nil {
            for (key, entry) in cache { body(key, entry.value) }
        } else {
            for key in handedOffKeys { body(key, cache[key]?.value ?? nil) }
            for key in dirtyKeys { body(key, cache[key]?.value ?? nil) }
        }
    }
}

extension ReadModelTable {
    /// Every record with `range.lowerBound ≤ key ≤ range.upperBound`, in key order (database
    /// records with the cache's changes applied).
    func records(in range: ClosedRange<Key>, _ txn: (any TableReader)?) throws -> [(Key, Value)] {
        var scanned = ScannedRecords<Key, Value>()
        if let database, let txn {
            var start = ByteWriter(capacity: 32)
            range.lowerBound.encode(into: &start)
            try txn.scan(database, from: start.bytes.span) { key, value in
                let decodedKey = try Key(decoding: key)
                guard decodedKey <= range.upperBound else { return false }
                scanned.append(decodedKey, try Value(decoding: value))
                return true
            }
        }
        var changes: [(Key, Value?)] = []
        forEachChange { key, value in if range.contains(key) { changes.append((key, value)) } }
        return scanned.merged(with: changes)
    }
}

extension ReadModelTable {
    /// The first record with `range.lowerBound ≤ key ≤ range.upperBound` (database records with
    /// the cache's changes applied): one record decoded, where ``records(in:_:)`` decodes the range.
    func first(in range: ClosedRange<Key>, _ txn: (any TableReader)?) throws -> (Key, Value)? {
        var changed = false
        forEachChange { key, _ in if range.contains(key) { changed = true } }
        guard !changed, let database, let txn else { return try records(in: range, txn).first }
        var start = ByteWriter(capacity: 32)
        range.lowerBound.encode(into: &start)
        var found: (Key, Value)?
        try txn.scan(database, from: start.bytes.span) { key, value in
            let decodedKey = try Key(decoding: key)
            if decodedKey <= range.upperBound { found = (decodedKey, try Value(decoding: value)) }
            return false
        }
        return found
    }
}

/// The records a range read found in the database, in the order it found them, and what the
/// table's unwritten changes make of them.
///
/// The database holds keys in the byte order of their encoding, which is their order: when no
/// change of the table falls in the range (never, for a query: it changes nothing), the records
/// found are the answer as they are, with no map of them built and no sort. Otherwise, or if
/// the keys did not come in order, they are merged with the changes and sorted.
private struct ScannedRecords<Key: TableKey, Value: TableValue> {
    private var records: [(Key, Value)] = []
    private var ordered = true

    mutating func append(_ key: Key, _ value: Value) {
        if let last = records.last, !(last.0 < key) { ordered = false }
        records.append((key, value))
    }

    /// The records with `changes` (the table's unwritten changes in the range; nil: deleted)
    /// applied, in key order.
    func merged(with changes: [(Key, Value?)]) -> [(Key, Value)] {
        if changes.isEmpty, ordered { return records }
        var merged = Dictionary(records, uniquingKeysWith: { _, later in later })
        for (key, value) in changes { merged[key] = value }
        return merged.sorted { $0.key < $1.key }
    }
}

/// A key prefix made of the leading components of a table key.
func keyPrefix(_ build: (inout ByteWriter) -> Void) -> [UInt8] {
    var writer = ByteWriter(capacity: 32)
    build(&writer)
    return writer.bytes
}

/// Where one changed key's bytes are in a flush's buffer, and which changed key it is. Outside
/// the generic table, so sorting them is compiled once for every table, not run through its
/// key type's generic code.
private struct EncodedKey {
    var start: Int
    var end: Int
    var index: Int

    /// Sorts `spans` in byte order of their keys in `bytes` (a shorter key that is a prefix of a
    /// longer one comes first).
    static func sort(_ spans: inout [EncodedKey], in bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { bytes in
            spans.sort { a, b in
                var i = a.start, j = b.start
                while i < a.end, j < b.end {
                    if bytes[i] != bytes[j] { return bytes[i] < bytes[j] }
                    i += 1
                    j += 1
                }
                return a.end - a.start < b.end - b.start
            }
        }
    }
}
