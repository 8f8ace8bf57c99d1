import BinaryCoding
import EventLog
import Foundation
import LMDB

/// Reads of the log inside one read (or write) transaction: records by position, streams and
/// subjects through their chains, and the whole log with filters.
struct LogReader {
    let txn: ReadTransaction
    let databases: LogDatabases
    let resolver: NameResolver

    /// The last committed position, 0 for an empty log.
    func headPosition() throws -> UInt64 {
        try txn.withCursor(databases.events) { cursor in try cursor.last() ? cursor.currentKey ?? 0 : 0 }
    }

    /// Calls `body` with the verified record at `position` and its decoded header.
    @inline(__always)
    func withRecord<R>(at position: UInt64, _ body: (Span<UInt8>, RecordHeader) throws -> R) throws -> R? {
        try txn.get(databases.events, key: position) { span in
            try body(span, try RecordCodec.decodeVerified(span, position: position))
        }
    }

    /// The record at `position` that a chain link points to; a missing one is corruption.
    @inline(__always)
    func withLinkedRecord<R>(at position: UInt64, _ body: (Span<UInt8>, RecordHeader) throws -> R) throws -> R {
        guard let result = try withRecord(at: position, body) else {
            throw EventStoreError.corruption(position: Position(position), reason: "a chain link points to a missing record")
        }
        return result
    }

    /// The envelope of a verified record.
    @inline(__always)
    func envelope(_ header: RecordHeader, position: UInt64) throws -> EventEnvelope {
        EventEnvelope(
            position: Position(position),
            stream: try resolver.name(.stream, header.streamNumber, in: txn, at: position),
            streamVersion: header.streamVersion, recordedAt: header.recordedAt,
            header: EventHeader(
                eventId: header.eventId, type: try resolver.name(.type, header.typeNumber, in: txn, at: position),
                schemaVersion: header.schemaVersion,
                subject: header.subjectNumber == 0 ? nil : try resolver.name(.subject, header.subjectNumber, in: txn, at: position),
                occurredAt: header.occurredAt, correlationId: header.correlationId, causationId: header.causationId))
    }

    /// A full copy of a verified record.
    func recordedEvent(_ span: Span<UInt8>, _ header: RecordHeader, position: UInt64) throws -> RecordedEvent {
        RecordedEvent(
            envelope: try envelope(header, position: position),
            metadata: span.extracting(header.metadataRange).copiedBytes(),
            payload: span.extracting(header.payloadRange).copiedBytes())
    }

    /// Where the event with id `id` is: through the id index and its journal, or — in a log written before the
    /// index existed and opened read-only, so never indexed — by scanning the records. `runs`
    /// holds the ids of runs searched often, for the lookups of one read-only transaction.
    func location(ofEvent id: UUID, journal: IdJournal, runs: inout RunIdCache) throws -> EventLocation? {
        var key = ByteWriter(capacity: 16)
        key.uuid(id)
        let indexKey = UUIDKey(id)
        var position: UInt64?
        if indexKey.isTimeOrdered, let run = try OrderedIdRuns.run(atOrBefore: indexKey, in: txn, databases) {
            // Every run a read-only transaction sees is committed.
            position = try runs.position(of: indexKey, in: run, committedHead: .max, txn, databases)
        }
        if position == nil { position = try txn.get(databases.otherIds, key: key.bytes.span) { try IdIndex.position($0) } }
        if position == nil { position = try journal.position(of: indexKey, in: txn, databases) }
        let flag = LogDatabases.idsIndexedKey
        if position == nil, try txn.bytes(databases.meta, key: flag.span) == nil {
            position = try txn.withCursor(databases.events) { cursor in
                var more = try cursor.first()
                while more {
                    let current = cursor.currentKey ?? 0
                    if try cursor.withCurrentValue({ try RecordCodec.decodeVerified($0, position: current).eventId }) == id { return current }
                    more = try cursor.next()
                }
                return nil
            }
        }
        guard let position else { return nil }
        return try withLinkedRecord(at: position) { _, header in
            EventLocation(
                position: Position(position), stream: try resolver.name(.stream, header.streamNumber, in: txn, at: position),
                streamVersion: header.streamVersion)
        }
    }

    /// The event at `position`, or nil.
    func event(at position: UInt64) throws -> RecordedEvent? {
        try withRecord(at: position) { span, header in try recordedEvent(span, header, position: position) }
    }
}

/// The two kinds of chains the log threads through its records.
enum ChainKind: Sendable, CustomStringConvertible {
    case stream
    case subject

    var nameKind: NameKind { self == .stream ? .stream : .subject }

    func heads(_ databases: LogDatabases) -> Database {
        self == .stream ? databases.streamHeads : databases.subjectHeads
    }

    @inline(__always)
    func links(_ header: RecordHeader) -> ChainLinks { self == .stream ? header.streamLinks : header.subjectLinks }

    @inline(__always)
    func version(_ header: RecordHeader) -> UInt64 { self == .stream ? header.streamVersion : header.subjectSequence }

    var description: String { self == .stream ? "stream" : "subject" }
}
