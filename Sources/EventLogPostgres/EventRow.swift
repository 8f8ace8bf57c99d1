package import EventLog
import Foundation
import NIOCore
package import PostgresNIO

/// One row of `logbook.events`: the columns every read selects, in order, decoded into a
/// ``RecordedEvent`` after its checksum is verified.
package enum EventRow {
    /// The selected columns, in the order ``decode(cells:)`` reads them.
    package static let columns = """
        position, stream, stream_version, event_id, type, schema_version, subject, occurred_us, occurred_offset, \
        recorded_us, recorded_offset, correlation_id, causation_id, metadata, payload, checksum
        """

    /// How many columns ``columns`` names.
    package static let columnCount = 16

    /// The event in `row`, or a ``EventStoreError/Code/corruption`` error naming its position if
    /// the content does not match its checksum.
    static func decode(_ row: PostgresRow) throws -> RecordedEvent {
        try decode(cells: Array(row))
    }

    /// The event in a row's first cells (the ``columns``, in order; a query may select more after
    /// them), or the cells' decoding error, or a ``EventStoreError/Code/corruption`` error naming
    /// its position if the content does not match its checksum. Reads whatever bytes a damaged
    /// table or server sends.
    package static func decode(cells: [PostgresCell]) throws -> RecordedEvent {
        guard cells.count >= columnCount else {
            throw EventStoreError.storage("a row of logbook.events has \(cells.count) columns, not \(columnCount)")
        }
        let position = try cells[0].decode(Int64.self), stream = try cells[1].decode(String.self)
        let version = try cells[2].decode(Int64.self), eventId = try cells[3].decode(UUID.self)
        let type = try cells[4].decode(String.self), schemaVersion = try cells[5].decode(Int32.self)
        let subject = try cells[6].decode(String?.self)
        let occurred = try cells[7].decode(Int64.self), occurredOffset = try cells[8].decode(Int32.self)
        let recorded = try cells[9].decode(Int64.self), recordedOffset = try cells[10].decode(Int32.self)
        let correlation = try cells[11].decode(UUID?.self), causation = try cells[12].decode(UUID?.self)
        let metadata = Array(try cells[13].decode(ByteBuffer.self).readableBytesView)
        let payload = Array(try cells[14].decode(ByteBuffer.self).readableBytesView)
        let checksum = try cells[15].decode(Int64.self)
        guard position > 0, version >= 0, schemaVersion >= 0 else {
            throw EventStoreError.corruption(position: Position(UInt64(max(position, 0))), reason: "negative position, version or schema version")
        }
        let header = EventHeader(
            eventId: eventId, type: type, schemaVersion: UInt32(schemaVersion), subject: subject,
            occurredAt: Timestamp(microsecondsSinceEpoch: occurred, utcOffsetSeconds: occurredOffset),
            correlationId: correlation, causationId: causation)
        let recordedAt = Timestamp(microsecondsSinceEpoch: recorded, utcOffsetSeconds: recordedOffset)
        let expected = Self.checksum(stream: stream, header: header, recordedAt: recordedAt, metadata: metadata, payload: payload)
        guard expected == checksum else {
            throw EventStoreError.corruption(
                position: Position(UInt64(position)),
                reason: "the record's checksum is \(UInt64(bitPattern: checksum)), its content hashes to \(UInt64(bitPattern: expected))")
        }
        return RecordedEvent(
            envelope: EventEnvelope(
                position: Position(UInt64(position)), stream: stream, streamVersion: UInt64(version), recordedAt: recordedAt,
                header: header),
            metadata: metadata, payload: payload)
    }

    /// XXH64 of everything the appender supplied — stream, header, recording time, metadata and
    /// payload — in a fixed byte layout (strings NUL-terminated, integers little-endian, optional
    /// values behind a presence byte). Position and stream version are assigned by the database
    /// and kept honest by its constraints (primary key, unique stream version).
    package static func checksum(stream: String, header: EventHeader, recordedAt: Timestamp, metadata: [UInt8], payload: [UInt8]) -> Int64 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + stream.utf8.count + header.type.utf8.count + metadata.count + payload.count)
        func integer<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func uuid(_ id: UUID) { withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) } }
        bytes.append(contentsOf: stream.utf8)
        bytes.append(0)
        uuid(header.eventId)
        bytes.append(contentsOf: header.type.utf8)
        bytes.append(0)
        integer(header.schemaVersion)
        if let subject = header.subject {
            bytes.append(1)
            bytes.append(contentsOf: subject.utf8)
            bytes.append(0)
        } else {
            bytes.append(0)
        }
        integer(header.occurredAt.microsecondsSinceEpoch)
        integer(header.occurredAt.utcOffsetSeconds)
        integer(recordedAt.microsecondsSinceEpoch)
        integer(recordedAt.utcOffsetSeconds)
        for id in [header.correlationId, header.causationId] {
            if let id {
                bytes.append(1)
                uuid(id)
            } else {
                bytes.append(0)
            }
        }
        integer(UInt32(metadata.count))
        bytes.append(contentsOf: metadata)
        bytes.append(contentsOf: payload)
        return Int64(bitPattern: XXHash64.hash(bytes.span, from: 0, seed: 0))
    }
}
