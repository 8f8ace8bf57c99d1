import BinaryCoding
import EventLog
import Foundation

/// A checked wire event in a compact binary form — its envelope and its payload in the log's
/// binary encoding — so an import can hold what it validated (in memory or in a spill file) and
/// append it later without parsing the JSON a second time.
extension WireEvent {
    /// The event's compact form (read back with ``init(compact:)``).
    public var compactBytes: [UInt8] {
        var w = ByteWriter(capacity: 128 + (event == nil ? 0 : 64))
        w.varint(envelope.position.rawValue)
        w.string(envelope.stream)
        w.varint(envelope.streamVersion)
        w.uuid(envelope.eventId)
        w.string(type.rawValue)
        w.varint(UInt64(schemaVersion))
        w.byte(envelope.subject == nil ? 0 : 1)
        if let subject = envelope.subject { w.string(subject) }
        w.timestamp(envelope.occurredAt)
        w.timestamp(envelope.recordedAt)
        w.byte((envelope.correlationId == nil ? 0 : 1) | (envelope.causationId == nil ? 0 : 2) | (event == nil ? 4 : 0))
        if let id = envelope.correlationId { w.uuid(id) }
        if let id = envelope.causationId { w.uuid(id) }
        w.string(metadata)
        if let event { w.lengthPrefixed(BinaryEventCodec.encode(event)) }
        return w.bytes
    }

    /// Reads an event's compact form.
    public init(compact span: Span<UInt8>) throws(LogbookError) {
        do {
            var o = 0
            let position = try ByteReader.varint(span, &o)
            let stream = try ByteReader.string(span, &o)
            let streamVersion = try ByteReader.varint(span, &o)
            let eventId = try ByteReader.uuid(span, &o)
            let typeName = try ByteReader.string(span, &o)
            let schemaVersion = UInt32(truncatingIfNeeded: try ByteReader.varint(span, &o))
            let subject = try ByteReader.byte(span, &o) == 1 ? try ByteReader.string(span, &o) : nil
            let occurredAt = try FieldReader.timestamp(span, &o)
            let recordedAt = try FieldReader.timestamp(span, &o)
            let flags = try ByteReader.byte(span, &o)
            let correlationId = flags & 1 != 0 ? try ByteReader.uuid(span, &o) : nil
            let causationId = flags & 2 != 0 ? try ByteReader.uuid(span, &o) : nil
            let metadata = try ByteReader.string(span, &o)
            guard let type = EventType(rawValue: typeName) else { throw LogbookError.coding(.unknownEventType(typeName)) }
            let envelope = EventEnvelope(
                position: Position(position), stream: stream, streamVersion: streamVersion, recordedAt: recordedAt,
                header: EventHeader(
                    eventId: eventId, type: typeName, schemaVersion: schemaVersion, subject: subject, occurredAt: occurredAt,
                    correlationId: correlationId, causationId: causationId))
            if flags & 4 != 0 {
                self.init(tombstone: envelope, type: type, metadata: metadata)
                return
            }
            let payload = try ByteReader.lengthPrefixedRange(span, &o)
            let event: DomainEvent
            do throws(DomainCodingError) {
                event = try BinaryEventCodec.decode(type, schemaVersion: schemaVersion, payload: span.extracting(payload))
            } catch {
                throw LogbookError.coding(error)
            }
            self.init(
                position: position == 0 ? nil : position, stream: stream, streamVersion: streamVersion, eventId: eventId, subject: subject,
                occurredAt: occurredAt, recordedAt: recordedAt, correlationId: correlationId, causationId: causationId,
                metadata: metadata, event: event)
        } catch let failure as DecodeFailure {
            throw .coding(.undecodable(type: "compact wire event", reason: failure.reason))
        } catch let error as LogbookError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}
