import Foundation

/// The numbers and fixed fields of one stored event record, decoded without copying its bytes.
///
/// Names (stream, subject, type) are stored as interned numbers; metadata and payload are
/// ranges into the borrowed record.
struct RecordHeader {
    var typeNumber: UInt32
    var schemaVersion: UInt32
    var streamNumber: UInt32
    var streamVersion: UInt64
    var streamLinks: ChainLinks
    /// 0 when the event has no subject.
    var subjectNumber: UInt32
    var subjectSequence: UInt64
    var subjectLinks: ChainLinks
    var eventId: UUID
    var occurredAt: Timestamp
    var recordedAt: Timestamp
    var correlationId: UUID?
    var causationId: UUID?
    var metadataRange: Range<Int>
    var payloadRange: Range<Int>
}

/// The binary form of a stored event.
///
/// Layout: a 4-byte little-endian checksum (low 32 bits of XXH64 of everything after it, seeded
/// with the record's position, so a record found at the wrong position fails too), a format byte,
/// a flags byte, then varints: type number, schema version, stream number, stream version,
/// stream links; if flagged, subject number, subject sequence, subject links; the 16-byte event
/// id; occurred-at (micros, offset) and recorded-at (delta micros, offset) as zigzag varints;
/// if flagged, correlation and causation ids and length-prefixed metadata; the payload fills the
/// rest.
enum RecordCodec {
    static let formatVersion: UInt8 = 1

    private enum Flag {
        static let subject: UInt8 = 1
        static let correlation: UInt8 = 2
        static let causation: UInt8 = 4
        static let metadata: UInt8 = 8
    }

    /// Encodes a record into `writer` (which must be empty) and fills in its checksum.
    @inline(__always)
    static func encode(
        into writer: inout ByteWriter, position: UInt64, event: ProposedEvent, recordedAt: Timestamp,
        typeNumber: UInt32, streamNumber: UInt32, streamVersion: UInt64, streamLinks: ChainLinks,
        subjectNumber: UInt32, subjectSequence: UInt64, subjectLinks: ChainLinks
    ) {
        writer.uint32(0)
        writer.byte(formatVersion)
        var flags: UInt8 = 0
        if subjectNumber != 0 { flags |= Flag.subject }
        if event.correlationId != nil { flags |= Flag.correlation }
        if event.causationId != nil { flags |= Flag.causation }
        if !event.metadata.isEmpty { flags |= Flag.metadata }
        writer.byte(flags)
        writer.varint(UInt64(typeNumber))
        writer.varint(UInt64(event.schemaVersion))
        writer.varint(UInt64(streamNumber))
        writer.varint(streamVersion)
        streamLinks.encode(into: &writer)
        if subjectNumber != 0 {
            writer.varint(UInt64(subjectNumber))
            writer.varint(subjectSequence)
            subjectLinks.encode(into: &writer)
        }
        writer.uuid(event.eventId)
        writer.signedVarint(event.occurredAt.microsecondsSinceEpoch)
        writer.signedVarint(Int64(event.occurredAt.utcOffsetSeconds))
        writer.signedVarint(recordedAt.microsecondsSinceEpoch &- event.occurredAt.microsecondsSinceEpoch)
        writer.signedVarint(Int64(recordedAt.utcOffsetSeconds))
        if let correlation = event.correlationId { writer.uuid(correlation) }
        if let causation = event.causationId { writer.uuid(causation) }
        if !event.metadata.isEmpty { writer.lengthPrefixed(event.metadata) }
        writer.append(event.payload)
        sealChecksum(&writer, position: position)
    }

    /// Computes the checksum of a record whose checksum field is still zero and stores it.
    static func sealChecksum(_ writer: inout ByteWriter, position: UInt64) {
        let sum = UInt32(truncatingIfNeeded: XXHash64.hash(writer.bytes.span, from: 4, seed: position))
        writer.patchUInt32(sum, at: 0)
    }

    /// Verifies the checksum of the record stored at `position`.
    @inline(__always)
    static func verify(_ span: Span<UInt8>, position: UInt64) throws(EventStoreError) {
        guard span.count >= 6 else { throw .corruption(position: Position(position), reason: "record of \(span.count) bytes is too short") }
        let stored = (try? ByteReader.uint32(span, at: 0)) ?? 0
        let computed = UInt32(truncatingIfNeeded: XXHash64.hash(span, from: 4, seed: position))
        guard stored == computed else {
            throw .corruption(position: Position(position), reason: "checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))")
        }
    }

    /// Decodes the header of a record whose checksum was verified.
    @inline(__always)
    static func decodeHeader(_ span: Span<UInt8>, position: UInt64) throws(EventStoreError) -> RecordHeader {
        do {
            return try decodeUnchecked(span)
        } catch {
            throw .corruption(position: Position(position), reason: "undecodable record: \(error.reason)")
        }
    }

    @inline(__always)
    private static func decodeUnchecked(_ span: Span<UInt8>) throws(DecodeFailure) -> RecordHeader {
        var o = 4
        let format = try ByteReader.byte(span, &o)
        guard format == formatVersion else { throw DecodeFailure(reason: "unknown record format \(format)") }
        let flags = try ByteReader.byte(span, &o)
        let typeNumber = try narrow(ByteReader.varint(span, &o))
        let schemaVersion = try narrow(ByteReader.varint(span, &o))
        let streamNumber = try narrow(ByteReader.varint(span, &o))
        let streamVersion = try ByteReader.varint(span, &o)
        let streamLinks = try ChainLinks.decode(span, &o)
        var subjectNumber: UInt32 = 0
        var subjectSequence: UInt64 = 0
        var subjectLinks = ChainLinks.first
        if flags & Flag.subject != 0 {
            subjectNumber = try narrow(ByteReader.varint(span, &o))
            subjectSequence = try ByteReader.varint(span, &o)
            subjectLinks = try ChainLinks.decode(span, &o)
        }
        let eventId = try ByteReader.uuid(span, &o)
        let occurredMicros = try ByteReader.signedVarint(span, &o)
        let occurredOffset = try ByteReader.signedVarint(span, &o)
        let recordedDelta = try ByteReader.signedVarint(span, &o)
        let recordedOffset = try ByteReader.signedVarint(span, &o)
        guard abs(occurredOffset) <= Int64(Timestamp.maxOffsetSeconds), abs(recordedOffset) <= Int64(Timestamp.maxOffsetSeconds) else {
            throw DecodeFailure(reason: "UTC offset out of range")
        }
        let correlationId = flags & Flag.correlation != 0 ? try ByteReader.uuid(span, &o) : nil
        let causationId = flags & Flag.causation != 0 ? try ByteReader.uuid(span, &o) : nil
        let metadataRange = flags & Flag.metadata != 0 ? try ByteReader.lengthPrefixedRange(span, &o) : o..<o
        return RecordHeader(
            typeNumber: typeNumber, schemaVersion: schemaVersion, streamNumber: streamNumber,
            streamVersion: streamVersion, streamLinks: streamLinks, subjectNumber: subjectNumber,
            subjectSequence: subjectSequence, subjectLinks: subjectLinks, eventId: eventId,
            occurredAt: Timestamp(microsecondsSinceEpoch: occurredMicros, utcOffsetSeconds: Int32(occurredOffset)),
            recordedAt: Timestamp(microsecondsSinceEpoch: occurredMicros &+ recordedDelta, utcOffsetSeconds: Int32(recordedOffset)),
            correlationId: correlationId, causationId: causationId,
            metadataRange: metadataRange, payloadRange: o..<span.count)
    }

    @inline(__always)
    private static func narrow(_ value: UInt64) throws(DecodeFailure) -> UInt32 {
        guard let narrowed = UInt32(exactly: value) else { throw DecodeFailure(reason: "number \(value) out of range") }
        return narrowed
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }
}
