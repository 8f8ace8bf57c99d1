public import Foundation

/// Everything about a stored event except its metadata and payload bytes.
///
/// Scans hand one of these to their closure together with the borrowed bytes, so a scan of the
/// whole log allocates nothing per event: names are interned strings shared between events.
public struct EventEnvelope: Sendable, Hashable {
    public var position: Position
    public var stream: String
    public var streamVersion: UInt64
    public var eventId: UUID
    public var type: String
    public var schemaVersion: UInt32
    public var subject: String?
    public var occurredAt: Timestamp
    public var recordedAt: Timestamp
    public var correlationId: UUID?
    public var causationId: UUID?
}

extension RecordedEvent {
    /// The event made of an envelope and copies of its bytes.
    public init(envelope e: EventEnvelope, metadata: [UInt8], payload: [UInt8]) {
        self.init(
            position: e.position, stream: e.stream, streamVersion: e.streamVersion, eventId: e.eventId, type: e.type,
            schemaVersion: e.schemaVersion, subject: e.subject, occurredAt: e.occurredAt, recordedAt: e.recordedAt,
            correlationId: e.correlationId, causationId: e.causationId, metadata: metadata, payload: payload)
    }

    /// The event's envelope (everything but its bytes).
    public var envelope: EventEnvelope {
        EventEnvelope(
            position: position, stream: stream, streamVersion: streamVersion, eventId: eventId, type: type,
            schemaVersion: schemaVersion, subject: subject, occurredAt: occurredAt, recordedAt: recordedAt,
            correlationId: correlationId, causationId: causationId)
    }
}
