import BinaryCoding
import EventLog
import Foundation
import LMDB

/// The sparse index of time-ordered (version 7) event ids, `ids.ordered`.
///
/// The log's own ids grow with its positions, so it keeps one entry per *run* — events at
/// consecutive positions whose ids are all newer than every id indexed before the run — rather
/// than one per event: the run's smallest id (16 bytes) → its first position (8 bytes,
/// little-endian), length (4 bytes, little-endian), largest id (16 bytes) and whether its ids
/// ascend with its positions (1 byte). A batch of appends is one run, one entry at the tree's
/// right edge. Runs never overlap in ids or positions, so the run that may hold an id is the one
/// starting at or before it; inside it the id is found by binary search of the run's records
/// (whose headers carry their ids), or by reading them all when concurrent appenders made its
/// ids arrive a little out of order (such a run holds at most ``maxDisorderedCount`` events). A version-7 id older than the newest indexed before its run
/// is indexed like any other id (``IdJournal``).
enum OrderedIdRuns {
    /// The longest run whose ids may be out of order: finding an id in one reads up to this many records.
    static let maxDisorderedCount: UInt32 = 64

    /// One run: `count` events from `firstPosition`, with ids from `firstKey` to `lastKey`.
    struct Run: Sendable, Hashable {
        /// The smallest id of the run (its first one when `ascending`).
        var firstKey: UUIDKey
        var firstPosition: UInt64
        var count: UInt32
        /// The largest id of the run.
        var lastKey: UUIDKey
        /// The ids increase with the positions.
        var ascending: Bool

        init(_ key: UUIDKey, at position: UInt64) {
            firstKey = key
            lastKey = key
            firstPosition = position
            count = 1
            ascending = true
        }

        init(firstKey: UUIDKey, firstPosition: UInt64, count: UInt32, lastKey: UUIDKey, ascending: Bool) {
            self.firstKey = firstKey
            self.firstPosition = firstPosition
            self.count = count
            self.lastKey = lastKey
            self.ascending = ascending
        }

        /// The run with the next position's id added.
        mutating func extend(_ key: UUIDKey) {
            count += 1
            ascending = ascending && key > lastKey
            firstKey = min(firstKey, key)
            lastKey = max(lastKey, key)
        }

        func write(_ cursor: Cursor) throws {
            var key = ByteWriter(capacity: 16)
            IdIndex.write(firstKey, into: &key)
            var value = ByteWriter(capacity: 29)
            IdIndex.write(firstPosition, into: &value)
            for shift in stride(from: 0, to: 32, by: 8) { value.byte(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
            IdIndex.write(lastKey, into: &value)
            value.byte(ascending ? 1 : 0)
            try cursor.put(key: key.bytes.span, value: value.bytes.span, options: .append)
        }
    }

    /// The run whose first id is `key` or the largest one before it, if any.
    static func run(atOrBefore key: UUIDKey, in txn: ReadTransaction, _ databases: LogDatabases) throws -> Run? {
        var bytes = ByteWriter(capacity: 16)
        IdIndex.write(key, into: &bytes)
        return try txn.withCursor(databases.orderedIds) { cursor -> Run? in
            var found = try cursor.seek(atOrAfter: bytes.bytes.span)
            if found, try decode(cursor).firstKey != key { found = try cursor.previous() } else if !found { found = try cursor.last() }
            return found ? try decode(cursor) : nil
        }
    }

    /// The newest run, if any.
    static func last(in txn: ReadTransaction, _ databases: LogDatabases) throws -> Run? {
        try txn.withCursor(databases.orderedIds) { cursor in try cursor.last() ? try decode(cursor) : nil }
    }

    /// The position of the event with id `key` in `run`, if it has one.
    static func position(of key: UUIDKey, in run: Run, _ txn: ReadTransaction, _ databases: LogDatabases) throws -> UInt64? {
        guard key >= run.firstKey, key <= run.lastKey else { return nil }
        if run.ascending, run.firstKey == key { return run.firstPosition }
        let reader = LogReader(txn: txn, databases: databases, resolver: NameResolver(databases: databases))
        guard run.ascending else {
            for position in run.firstPosition..<(run.firstPosition + UInt64(run.count))
            where try reader.withLinkedRecord(at: position, { _, header in UUIDKey(header.eventId) }) == key {
                return position
            }
            return nil
        }
        var low = run.firstPosition + 1
        var high = run.firstPosition + UInt64(run.count) - 1
        while low <= high {
            let middle = low + (high - low) / 2
            let id = try reader.withLinkedRecord(at: middle) { _, header in UUIDKey(header.eventId) }
            if id == key { return middle }
            if id < key { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    private static func decode(_ cursor: Cursor) throws -> Run {
        try cursor.withCurrent { key, value in
            guard key.count == 16, value.count == 29 else {
                throw EventStoreError.storage("an ordered id index entry of \(key.count) + \(value.count) bytes")
            }
            var offset = 0
            let first = UUIDKey(try ByteReader.uuid(key, &offset))
            let position = try IdIndex.position(value.extracting(0..<8))
            var count: UInt32 = 0
            for index in (8..<12).reversed() { count = count << 8 | UInt32(value[index]) }
            var keyOffset = 12
            let last = UUIDKey(try ByteReader.uuid(value, &keyOffset))
            return Run(firstKey: first, firstPosition: position, count: count, lastKey: last, ascending: value[28] == 1)
        }
    }
}
