public import EventLog
public import Foundation

/// One event in the JSON wire form (see <doc:WireForm>) — as exported, imported (one per line) and
/// served. Output is canonical: fixed key order for the envelope, sorted keys inside `metadata`
/// and `data`, no insignificant whitespace, so exporting the same event always gives the same
/// bytes. Events are written in the current schema version of their type (older payloads are
/// upcast on the way out). An erased user's event is a tombstone: its envelope, `"data":null`
/// and `"erased":true` (see <doc:Privacy>); importing one records the event as erased.
@dynamicMemberLookup
public struct WireEvent: Sendable, Hashable {
    /// The event's envelope (stream, version, ids, times). Its position is ``Position/start`` when
    /// the wire form carried none; its type and schema version are the event's current ones.
    public var envelope: EventEnvelope
    /// The metadata object as canonical JSON text (`{}` when empty).
    public var metadata: String
    /// The event's data; nil for a tombstone (its user was erased).
    public var event: DomainEvent?
    /// The event's type.
    public let type: EventType

    public init(
        position: UInt64?, stream: String, streamVersion: UInt64, eventId: UUID, subject: String?, occurredAt: Timestamp,
        recordedAt: Timestamp, correlationId: UUID? = nil, causationId: UUID? = nil, metadata: String = "{}", event: DomainEvent
    ) {
        envelope = EventEnvelope(
            position: Position(position ?? 0), stream: stream, streamVersion: streamVersion, recordedAt: recordedAt,
            header: EventHeader(
                eventId: eventId, type: event.type.rawValue, schemaVersion: event.type.currentSchemaVersion, subject: subject,
                occurredAt: occurredAt, correlationId: correlationId, causationId: causationId))
        self.metadata = metadata
        self.event = event
        self.type = event.type
    }

    /// The tombstone of an erased user's event: the envelope without its data.
    public init(tombstone envelope: EventEnvelope, type: EventType, metadata: String = "{}") {
        self.envelope = envelope
        self.metadata = metadata
        self.event = nil
        self.type = type
    }

    /// True for a tombstone: the event's user was erased and its data is gone.
    public var isErased: Bool { event == nil }

    /// The envelope's fields, read as the event's own.
    public subscript<T>(dynamicMember keyPath: KeyPath<EventEnvelope, T>) -> T { envelope[keyPath: keyPath] }
    /// The header's fields, read as the event's own.
    public subscript<T>(dynamicMember keyPath: KeyPath<EventHeader, T>) -> T { envelope.header[keyPath: keyPath] }

    /// The event's position (nil when not known: ignored on import, where positions are assigned anew).
    public var position: UInt64? { envelope.position == .start ? nil : envelope.position.rawValue }
    /// The schema version the wire form is written in: the type's current one (older payloads
    /// are upcast on the way out); a tombstone keeps the version it was stored in.
    public var schemaVersion: UInt32 { envelope.schemaVersion }

    /// The wire form of a stored event whose payload decoded as `event` (nil: its user was
    /// erased): written in its type's current schema version unless it is a tombstone.
    package init(stored envelope: EventEnvelope, type: EventType, metadata: String, event: DomainEvent?) {
        self.envelope = envelope
        if event != nil { self.envelope.schemaVersion = type.currentSchemaVersion }
        self.metadata = metadata
        self.event = event
        self.type = type
    }

    /// The event as a proposal to append when restoring: ids, times and metadata kept (a
    /// tombstone's payload is empty; its user is recorded as erased before it is appended).
    public var proposed: ProposedEvent {
        var proposal = ProposedEvent(
            eventId: envelope.eventId, type: type.rawValue, schemaVersion: schemaVersion, subject: envelope.subject,
            occurredAt: envelope.occurredAt, recordedAt: envelope.recordedAt, correlationId: envelope.correlationId,
            causationId: envelope.causationId, metadata: metadata == "{}" ? [] : Array(metadata.utf8),
            payload: event.map(BinaryEventCodec.encode) ?? [])
        proposal.decoded = event
        return proposal
    }
}
