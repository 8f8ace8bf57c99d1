public import Foundation

/// The fields an appender sets on an event and the log stores as given: its id, type and schema
/// version, the user it concerns, when it happened, and the ids tying it to other events.
///
/// Declared once and shared: a ``ProposedEvent`` carries one, an ``EventEnvelope`` adds what the
/// log assigns, a ``RecordedEvent`` adds the bytes. Each of them reads these fields directly
/// (`event.eventId`) through dynamic member lookup.
public struct EventHeader: Sendable, Hashable {
    /// The event's id, unique in the whole log. Re-sending the same ids is a safe retry.
    public var eventId: UUID
    /// The event type, e.g. `workout.finished`.
    public var type: String
    /// The version of the payload's schema for this type.
    public var schemaVersion: UInt32
    /// The user the event concerns, or `nil` (catalog events). Indexed for timelines.
    public var subject: String?
    /// When the event happened, with the UTC offset it happened in.
    public var occurredAt: Timestamp
    public var correlationId: UUID?
    public var causationId: UUID?

    @inlinable
    public init(
        eventId: UUID, type: String, schemaVersion: UInt32, subject: String?, occurredAt: Timestamp,
        correlationId: UUID? = nil, causationId: UUID? = nil
    ) {
        self.eventId = eventId
        self.type = type
        self.schemaVersion = schemaVersion
        self.subject = subject
        self.occurredAt = occurredAt
        self.correlationId = correlationId
        self.causationId = causationId
    }
}

/// Everything about a stored event except its metadata and payload bytes: its ``EventHeader``
/// and what the log assigned (position, stream version, recording time).
///
/// Scans hand one of these to their closure together with the borrowed bytes, so a scan of the
/// whole log allocates nothing per event: names are interned strings shared between events.
@dynamicMemberLookup
public struct EventEnvelope: Sendable, Hashable {
    public var position: Position
    public var stream: String
    /// The event's version within its stream, from 0.
    public var streamVersion: UInt64
    /// When the log committed the event (or, for restored events, when it was first recorded).
    public var recordedAt: Timestamp
    public var header: EventHeader

    @inlinable
    public init(position: Position, stream: String, streamVersion: UInt64, recordedAt: Timestamp, header: EventHeader) {
        self.position = position
        self.stream = stream
        self.streamVersion = streamVersion
        self.recordedAt = recordedAt
        self.header = header
    }

    /// The header's fields, read and written as the envelope's own.
    @inlinable
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<EventHeader, T>) -> T {
        get { header[keyPath: keyPath] }
        set { header[keyPath: keyPath] = newValue }
    }
}

/// An event as stored in the log: its envelope, metadata and payload.
@dynamicMemberLookup
public struct RecordedEvent: Sendable, Hashable {
    public var envelope: EventEnvelope
    /// Opaque metadata bytes (by convention a JSON object).
    public var metadata: [UInt8]
    /// The payload bytes, as appended.
    public var payload: [UInt8]

    /// The event made of an envelope and copies of its bytes.
    @inlinable
    public init(envelope: EventEnvelope, metadata: [UInt8], payload: [UInt8]) {
        self.envelope = envelope
        self.metadata = metadata
        self.payload = payload
    }

    /// The envelope's fields, read and written as the event's own.
    @inlinable
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<EventEnvelope, T>) -> T {
        get { envelope[keyPath: keyPath] }
        set { envelope[keyPath: keyPath] = newValue }
    }

    /// The header's fields, read and written as the event's own (one level of key path, so a
    /// read compiles to a field access).
    @inlinable
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<EventHeader, T>) -> T {
        get { envelope.header[keyPath: keyPath] }
        set { envelope.header[keyPath: keyPath] = newValue }
    }
}
