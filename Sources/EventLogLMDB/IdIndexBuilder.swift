import BinaryCoding
import EventLog
import Foundation
import LMDB

/// Indexes the event ids of a log written before the id index existed: once, when a writer
/// first opens it, in chunks of one write transaction each. Where an old log holds the same id
/// twice (the defect the index closes), the earlier position is kept.
enum IdIndexBuilder {
    static func buildIfNeeded(_ environment: Environment, _ databases: LogDatabases, chunk: Int = 100_000) throws {
        let flag = LogDatabases.idsIndexedKey
        let done = try environment.read { txn in try txn.bytes(databases.meta, key: flag.span) != nil }
        guard !done else { return }
        var next: UInt64 = 1
        while true {
            let (entries, last) = try environment.read { txn in try readChunk(txn, databases, from: next, limit: chunk) }
            guard let last else { break }
            try environment.write { txn in
                var bytes = ByteWriter(capacity: 24)
                for entry in entries.sorted(by: { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }) {
                    bytes.bytes.removeAll(keepingCapacity: true)
                    bytes.uuid(entry.id)
                    IdIndex.write(entry.position, into: &bytes)
                    do {
                        try txn.put(
                            databases.ids(for: entry.key), key: bytes.bytes.span.extracting(0..<16),
                            value: bytes.bytes.span.extracting(16..<24), options: .noOverwrite)
                    } catch let error as LMDBError where error.code == .keyExists {
                        continue
                    }
                }
            }
            next = last + 1
        }
        let indexed: [UInt8] = [1]
        try environment.write { txn in try txn.put(databases.meta, key: flag.span, value: indexed.span) }
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
