import EventLog
import Foundation
import NIOCore

/// The columns of events bound as arrays to one statement — the append function's `e_*`
/// parameters, a restore's insert — with the sentinels PostgreSQL's binary array parameters
/// need for what the client cannot send as NULL (`''` for no subject, the nil UUID for no
/// correlation or causation) and each record's checksum computed from its content.
struct EventColumns {
    static let nilID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    var ids: [UUID] = [], types: [String] = [], schemas: [Int32] = [], subjects: [String] = []
    var occurred: [Int64] = [], occurredOffsets: [Int32] = [], recorded: [Int64] = [], recordedOffsets: [Int32] = []
    var correlations: [UUID] = [], causations: [UUID] = [], metadata: [ByteBuffer] = [], payloads: [ByteBuffer] = []
    var checksums: [Int64] = []

    /// Adds one event of `stream`, recorded at `recordedAt`.
    mutating func append(stream: String, header: EventHeader, recordedAt: Timestamp, metadata bytes: [UInt8], payload: [UInt8]) {
        ids.append(header.eventId)
        types.append(header.type)
        schemas.append(Int32(bitPattern: header.schemaVersion))
        subjects.append(header.subject ?? "")
        occurred.append(header.occurredAt.microsecondsSinceEpoch)
        occurredOffsets.append(header.occurredAt.utcOffsetSeconds)
        recorded.append(recordedAt.microsecondsSinceEpoch)
        recordedOffsets.append(recordedAt.utcOffsetSeconds)
        correlations.append(header.correlationId ?? Self.nilID)
        causations.append(header.causationId ?? Self.nilID)
        metadata.append(ByteBuffer(bytes: bytes))
        payloads.append(ByteBuffer(bytes: payload))
        checksums.append(EventRow.checksum(stream: stream, header: header, recordedAt: recordedAt, metadata: bytes, payload: payload))
    }
}
