package import EventLog
package import BinaryCoding
package import Foundation

/// The numbers and fixed fields of one stored event record, decoded without copying its bytes.
///
/// Names (stream, subject, type) are stored as interned numbers; metadata and payload are
/// ranges into the borrowed record.
package struct RecordHeader: Equatable {
    package var typeNumber: UInt32
    package var schemaVersion: UInt32
    package var streamNumber: UInt32
    package var streamVersion: UInt64
    package var streamLinks: ChainLinks
    /// 0 when the event has no subject.
    package var subjectNumber: UInt32
    package var subjectSequence: UInt64
    package var subjectLinks: ChainLinks
    package var eventId: UUID
    package var occurredAt: Timestamp
    package var recordedAt: Timestamp
    package var correlationId: UUID?
    package var causationId: UUID?
    package var metadataRange: Range<Int>
    package var payloadRange: Range<Int>
    /// Where the tail (the part the appender encoded) starts.
    package var tailStart: Int
}

/// The binary form of a stored event: a checksum, a *head* the writer encodes (numbers, chain
/// links, recording time) and a *tail* the appending task encodes before the writer sees it
/// (event id, schema version, occurred-at, correlation, metadata, payload).
///
/// Layout: 4-byte little-endian checksum; format byte; head: flags, then varints: type number,
/// stream number, stream version, stream links, and if flagged subject number, subject sequence
/// and subject links, then recorded-at as zigzag varints (micros after occurred-at, offset);
/// tail: flags, schema version, 16-byte event id, occurred-at (zigzag micros and offset), the
/// flagged correlation id, causation id and length-prefixed metadata, and the payload to the end.
///
/// The checksum is the low 32 bits of XXH64 of the head, seeded with the record's position plus
/// XXH64 of the tail: every byte is covered, a record found at the wrong position fails, and the
/// tail's hash is computed by the appending task, off the writer's thread.
package enum RecordCodec {
    static let formatVersion: UInt8 = 1

    private enum Flag {
        static let subject: UInt8 = 1
        static let correlation: UInt8 = 1
        static let causation: UInt8 = 2
        static let metadata: UInt8 = 4
    }

    /// The most bytes a tail holds beside its metadata and payload: flags (1), schema version
    /// (a varint of at most 5), event id (16), occurred-at (zigzag varints of at most 10 and 5),
    /// correlation and causation ids (16 each) and the metadata's length (a varint of at most 10).
    static let longestTailOverhead = 79

    /// Appends the tail of `event` to `writer`.
    package static func appendTail(of event: borrowing ProposedEvent, to writer: inout ByteWriter) {
        var flags: UInt8 = 0
        if event.correlationId != nil { flags |= Flag.correlation }
        if event.causationId != nil { flags |= Flag.causation }
        if !event.metadata.isEmpty { flags |= Flag.metadata }
        writer.byte(flags)
        writer.varint(UInt64(event.schemaVersion))
        writer.uuid(event.eventId)
        writer.signedVarint(event.occurredAt.microsecondsSinceEpoch)
        writer.signedVarint(Int64(event.occurredAt.utcOffsetSeconds))
        if let correlation = event.correlationId { writer.uuid(correlation) }
        if let causation = event.causationId { writer.uuid(causation) }
        if !event.metadata.isEmpty { writer.lengthPrefixed(event.metadata) }
        writer.append(event.payload)
    }

    /// The hash of a tail that seeds the record's checksum.
    @inline(__always)
    package static func tailHash(_ tail: Span<UInt8>) -> UInt64 { XXHash64.hash(tail, from: 0, seed: 0) }

    /// Encodes a whole record into `writer` (which must be empty): the head, then `tail`.
    @inline(__always)
    package static func encode(
        into writer: inout ByteWriter, position: UInt64, typeNumber: UInt32, streamNumber: UInt32,
        streamVersion: UInt64, streamLinks: ChainLinks, subjectNumber: UInt32, subjectSequence: UInt64,
        subjectLinks: ChainLinks, occurredMicros: Int64, recordedAt: Timestamp,
        tail: ArraySlice<UInt8>, tailHash: UInt64
    ) {
        let head = head(
            position: position, typeNumber: typeNumber, streamNumber: streamNumber, streamVersion: streamVersion,
            streamLinks: streamLinks, subjectNumber: subjectNumber, subjectSequence: subjectSequence,
            subjectLinks: subjectLinks, occurredMicros: occurredMicros, recordedAt: recordedAt, tailHash: tailHash)
        head.withBytes { writer.append($0) }
        writer.bytes.append(contentsOf: tail)
    }

    /// The head of a record, its checksum (over this head and the tail whose hash is `tailHash`)
    /// in place: the record is these bytes followed by the tail's.
    @inline(__always)
    static func head(
        position: UInt64, typeNumber: UInt32, streamNumber: UInt32, streamVersion: UInt64, streamLinks: ChainLinks,
        subjectNumber: UInt32, subjectSequence: UInt64, subjectLinks: ChainLinks, occurredMicros: Int64,
        recordedAt: Timestamp, tailHash: UInt64
    ) -> RecordHead {
        var head = RecordHead()
        for _ in 0..<4 { head.byte(0) }
        head.byte(formatVersion)
        head.byte(subjectNumber != 0 ? Flag.subject : 0)
        head.varint(UInt64(typeNumber))
        head.varint(UInt64(streamNumber))
        head.varint(streamVersion)
        streamLinks.encode(into: &head)
        if subjectNumber != 0 {
            head.varint(UInt64(subjectNumber))
            head.varint(subjectSequence)
            subjectLinks.encode(into: &head)
        }
        head.signedVarint(recordedAt.microsecondsSinceEpoch &- occurredMicros)
        head.signedVarint(Int64(recordedAt.utcOffsetSeconds))
        let sum = head.withBytes { checksum($0, headEnd: $0.count, position: position, tailHash: tailHash) }
        head.patchUInt32AtStart(sum)
        return head
    }

    @inline(__always)
    private static func checksum(_ record: Span<UInt8>, headEnd: Int, position: UInt64, tailHash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: XXHash64.hash(record.extracting(0..<headEnd), from: 4, seed: position &+ tailHash))
    }

    /// Decodes a record's header and verifies its checksum.
    @inline(__always)
    package static func decodeVerified(_ span: Span<UInt8>, position: UInt64) throws(EventStoreError) -> RecordHeader {
        let header: RecordHeader
        do {
            header = try decodeUnchecked(span)
        } catch {
            throw .corruption(position: Position(position), reason: "undecodable record: \(error.reason)")
        }
        let stored = (try? ByteReader.uint32(span, at: 0)) ?? 0
        let tailHash = Self.tailHash(span.extracting(header.tailStart...))
        let computed = checksum(span, headEnd: header.tailStart, position: position, tailHash: tailHash)
        guard stored == computed else {
            throw .corruption(position: Position(position), reason: "checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))")
        }
        return header
    }

    /// Decodes a record's header without verifying its checksum (the fuzz targets reach every
    /// field this way, and reseal what decodes to check ``decodeVerified(_:position:)``).
    @inline(__always)
    package static func decodeUnchecked(_ span: Span<UInt8>) throws(DecodeFailure) -> RecordHeader {
        var o = 4
        let format = try ByteReader.byte(span, &o)
        guard format == formatVersion else { throw DecodeFailure(reason: "unknown record format \(format)") }
        let headFlags = try ByteReader.byte(span, &o)
        let typeNumber = try narrow(ByteReader.varint(span, &o))
        let streamNumber = try narrow(ByteReader.varint(span, &o))
        let streamVersion = try ByteReader.varint(span, &o)
        let streamLinks = try ChainLinks.decode(span, &o)
        var subjectNumber: UInt32 = 0
        var subjectSequence: UInt64 = 0
        var subjectLinks = ChainLinks.first
        if headFlags & Flag.subject != 0 {
            subjectNumber = try narrow(ByteReader.varint(span, &o))
            subjectSequence = try ByteReader.varint(span, &o)
            subjectLinks = try ChainLinks.decode(span, &o)
        }
        let recordedDelta = try ByteReader.signedVarint(span, &o)
        let recordedOffset = try ByteReader.signedVarint(span, &o)
        let tailStart = o
        let tailFlags = try ByteReader.byte(span, &o)
        let schemaVersion = try narrow(ByteReader.varint(span, &o))
        let eventId = try ByteReader.uuid(span, &o)
        let occurredMicros = try ByteReader.signedVarint(span, &o)
        let occurredOffset = try ByteReader.signedVarint(span, &o)
        let offsets = -Int64(Timestamp.maxOffsetSeconds)...Int64(Timestamp.maxOffsetSeconds)
        guard offsets.contains(occurredOffset), offsets.contains(recordedOffset) else {
            throw DecodeFailure(reason: "UTC offset out of range")
        }
        let correlationId = tailFlags & Flag.correlation != 0 ? try ByteReader.uuid(span, &o) : nil
        let causationId = tailFlags & Flag.causation != 0 ? try ByteReader.uuid(span, &o) : nil
        let metadataRange = tailFlags & Flag.metadata != 0 ? try ByteReader.lengthPrefixedRange(span, &o) : o..<o
        return RecordHeader(
            typeNumber: typeNumber, schemaVersion: schemaVersion, streamNumber: streamNumber,
            streamVersion: streamVersion, streamLinks: streamLinks, subjectNumber: subjectNumber,
            subjectSequence: subjectSequence, subjectLinks: subjectLinks, eventId: eventId,
            occurredAt: Timestamp(microsecondsSinceEpoch: occurredMicros, utcOffsetSeconds: Int32(occurredOffset)),
            recordedAt: Timestamp(microsecondsSinceEpoch: occurredMicros &+ recordedDelta, utcOffsetSeconds: Int32(recordedOffset)),
            correlationId: correlationId, causationId: causationId,
            metadataRange: metadataRange, payloadRange: o..<span.count, tailStart: tailStart)
    }

    @inline(__always)
    private static func narrow(_ value: UInt64) throws(DecodeFailure) -> UInt32 {
        guard let narrowed = UInt32(exactly: value) else { throw DecodeFailure(reason: "number \(value) out of range") }
        return narrowed
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }
}
