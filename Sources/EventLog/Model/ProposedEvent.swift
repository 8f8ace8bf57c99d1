public import Foundation

/// An event offered for appending: everything but what the log assigns (position, stream version).
public struct ProposedEvent: Sendable, Hashable {
    /// An in-memory form of the payload — the value it encodes — that a ``LogCommitObserver``
    /// may use instead of decoding the payload again. Never stored; not part of equality.
    public var decoded: (any Sendable)?

    /// The event's id. Re-sending the same ids to the same stream is a safe retry.
    public var eventId: UUID
    /// The event type, e.g. `workout.finished`.
    public var type: String
    /// The version of the payload's schema for this type.
    public var schemaVersion: UInt32
    /// The user the event concerns, or `nil` (catalog events). Indexed for timelines.
    public var subject: String?
    /// When the event happened, with the UTC offset it happened in.
    public var occurredAt: Timestamp
    /// Set only when restoring an exported log: the original recording time. Otherwise the log's
    /// clock stamps the event at append.
    public var recordedAt: Timestamp?
    public var correlationId: UUID?
    public var causationId: UUID?
    /// Opaque metadata bytes (by convention a JSON object).
    public var metadata: [UInt8]
    /// The payload bytes; the log does not interpret them.
    public var payload: [UInt8]

    public init(
        eventId: UUID = UUID(), type: String, schemaVersion: UInt32 = 1, subject: String? = nil,
        occurredAt: Timestamp, recordedAt: Timestamp? = nil, correlationId: UUID? = nil, causationId: UUID? = nil,
        metadata: [UInt8] = [], payload: [UInt8]
    ) {
        self.eventId = eventId
        self.type = type
        self.schemaVersion = schemaVersion
        self.subject = subject
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.correlationId = correlationId
        self.causationId = causationId
        self.metadata = metadata
        self.payload = payload
    }

    public static func == (lhs: ProposedEvent, rhs: ProposedEvent) -> Bool {
        lhs.eventId == rhs.eventId && lhs.type == rhs.type && lhs.schemaVersion == rhs.schemaVersion
            && lhs.subject == rhs.subject && lhs.occurredAt == rhs.occurredAt && lhs.recordedAt == rhs.recordedAt
            && lhs.correlationId == rhs.correlationId && lhs.causationId == rhs.causationId
            && lhs.metadata == rhs.metadata && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(eventId)
        hasher.combine(type)
        hasher.combine(payload)
    }
}

/// An event as stored in the log.
public struct RecordedEvent: Sendable, Hashable {
    public var position: Position
    public var stream: String
    /// The event's version within its stream, from 0.
    public var streamVersion: UInt64
    public var eventId: UUID
    public var type: String
    public var schemaVersion: UInt32
    public var subject: String?
    public var occurredAt: Timestamp
    /// When the log committed the event (or, for restored events, when it was first recorded).
    public var recordedAt: Timestamp
    public var correlationId: UUID?
    public var causationId: UUID?
    public var metadata: [UInt8]
    public var payload: [UInt8]

    public init(
        position: Position, stream: String, streamVersion: UInt64, eventId: UUID, type: String,
        schemaVersion: UInt32, subject: String?, occurredAt: Timestamp, recordedAt: Timestamp,
        correlationId: UUID?, causationId: UUID?, metadata: [UInt8], payload: [UInt8]
    ) {
        self.position = position
        self.stream = stream
        self.streamVersion = streamVersion
        self.eventId = eventId
        self.type = type
        self.schemaVersion = schemaVersion
        self.subject = subject
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.correlationId = correlationId
        self.causationId = causationId
        self.metadata = metadata
        self.payload = payload
    }
}
