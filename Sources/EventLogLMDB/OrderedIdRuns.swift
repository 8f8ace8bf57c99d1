import BinaryCoding
import EventLog
import Foundation
import LMDB

/// The sparse index of time-ordered (version 7) event ids, `ids.ordered`.
///
/// The log's own ids increase with its positions, so it keeps one entry per *run* — events at
/// consecutive positions whose ids increase and are newer than every id indexed before — rather
/// than one per event: the run's first id (16 bytes) → its first position (8 bytes,
/// little-endian) and length (4 bytes, little-endian). A batch of appends is one run, one entry
/// at the tree's right edge. Runs never overlap in ids or positions, so the run holding an id is
/// the one starting at or before it, and the id's position is found by binary search of the
/// run's records (whose headers carry their ids). A version-7 id that does not continue a run
/// (older than the newest indexed) is indexed like any other id (``IdJournal``).
enum OrderedIdRuns {
    /// One run: `count` events from `firstPosition`, the first with id `firstKey`.
    struct Run: Sendable, Hashable {
        var firstKey: UUIDKey
        var firstPosition: UInt64
        var count: UInt32

        func write(_ cursor: Cursor) throws {
            var key = ByteWriter(capacity: 16)
            IdIndex.write(firstKey, into: &key)
            var value = ByteWriter(capacity: 12)
            IdIndex.write(firstPosition, into: &value)
            for shift in stride(from: 0, to: 32, by: 8) { value.byte(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
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

    /// The position of the event with id `key`, if a run holds it.
    static func position(of key: UUIDKey, in txn: ReadTransaction, _ databases: LogDatabases) throws -> UInt64? {
        guard let run = try run(atOrBefore: key, in: txn, databases) else { return nil }
        return try position(of: key, in: run, txn, databases)
    }

    /// The position of the event with id `key` in `run` (which starts at or before it), if any.
    static func position(of key: UUIDKey, in run: Run, _ txn: ReadTransaction, _ databases: LogDatabases) throws -> UInt64? {
        if run.firstKey == key { return run.firstPosition }
        let reader = LogReader(txn: txn, databases: databases, resolver: NameResolver(databases: databases))
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

    /// The id of the run's last event: the newest id indexed when it is the last run.
    static func lastKey(of run: Run, in txn: ReadTransaction, _ databases: LogDatabases) throws -> UUIDKey {
        let reader = LogReader(txn: txn, databases: databases, resolver: NameResolver(databases: databases))
        return try reader.withLinkedRecord(at: run.firstPosition + UInt64(run.count) - 1) { _, header in UUIDKey(header.eventId) }
    }

    private static func decode(_ cursor: Cursor) throws -> Run {
        try cursor.withCurrent { key, value in
            guard key.count == 16, value.count == 12 else {
                throw EventStoreError.storage("an ordered id index entry of \(key.count) + \(value.count) bytes")
            }
            var offset = 0
            let first = UUIDKey(try ByteReader.uuid(key, &offset))
            let position = try IdIndex.position(value.extracting(0..<8))
            var count: UInt32 = 0
            for index in (8..<12).reversed() { count = count << 8 | UInt32(value[index]) }
            return Run(firstKey: first, firstPosition: position, count: count)
        }
    }
}
