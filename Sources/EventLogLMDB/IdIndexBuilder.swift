import BinaryCoding
import EventLog
import Foundation
import LMDB

/// Indexes the event ids of a log written before the id index existed: once, when a writer
/// first opens it, in chunks of one write transaction each. Where an old log holds the same id
/// twice (the defect the index closes), the earlier position is kept. Every id goes to
/// `ids.other` (old logs hold random ids; the ordered runs are for what is appended from now on).
enum IdIndexBuilder {
    static func buildIfNeeded(_ environment: Environment, _ databases: LogDatabases, chunk: Int = 100_000) throws {
        let flag = LogDatabases.idsIndexedKey
        let done = try environment.read { txn in try txn.bytes(databases.meta, key: flag.span) != nil }
        guard !done else { return }
        var next: UInt64 = 1
        var newestOrdered: UUIDKey?
        while true {
            let (entries, last) = try environment.read { txn in try readChunk(txn, databases, from: next, limit: chunk) }
            guard let last else { break }
            for entry in entries where entry.key.isTimeOrdered && newestOrdered.map({ entry.key > $0 }) ?? true { newestOrdered = entry.key }
            try environment.write { txn in
                var bytes = ByteWriter(capacity: 24)
                for entry in entries.sorted(by: { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }) {
                    bytes.bytes.removeAll(keepingCapacity: true)
                    bytes.uuid(entry.id)
                    IdIndex.write(entry.position, into: &bytes)
                    do {
                        try txn.put(
                            databases.otherIds, key: bytes.bytes.span.extracting(0..<16),
                            value: bytes.bytes.span.extracting(16..<24), options: .noOverwrite)
                    } catch let error as LMDBError where error.code == .keyExists {
                        continue
                    }
                }
            }
            next = last + 1
        }
        let indexed: [UInt8] = [1]
        try environment.write { txn in
            // Time-ordered ids of the old log are in ids.other: a new one must be newer than they
            // are to skip the lookup.
            if let newestOrdered {
                var bytes = ByteWriter(capacity: 16)
                IdIndex.write(newestOrdered, into: &bytes)
                let floorKey = LogDatabases.orderedFloorKey
                try txn.put(databases.meta, key: floorKey.span, value: bytes.bytes.span)
            }
            try txn.put(databases.meta, key: flag.span, value: indexed.span)
        }
    }

    /// The ids of up to `limit` records from position `from`, and the last position read.
    private static func readChunk(
        _ txn: ReadTransaction, _ databases: LogDatabases, from: UInt64, limit: Int
    ) throws -> ([(key: UUIDKey, id: UUID, position: UInt64)], UInt64?) {
        var entries: [(key: UUIDKey, id: UUID, position: UInt64)] = []
        var last: UInt64?
        try txn.withCursor(databases.events) { cursor in
            var more = try cursor.seek(atOrAfter: from)
            while more, entries.count < limit {
                guard let position = cursor.currentKey else { break }
                let id = try cursor.withCurrentValue { span in try RecordCodec.decodeVerified(span, position: position).eventId }
                entries.append((UUIDKey(id), id, position))
                last = position
                more = try cursor.next()
            }
        }
        return (entries, last)
    }
}
