public import Foundation

/// An event offered for appending: its ``EventHeader`` and bytes, without what the log assigns
/// (position, stream version).
@dynamicMemberLookup
public struct ProposedEvent: Sendable, Hashable {
    public var header: EventHeader
    /// Set only when restoring an exported log: the original recording time. Otherwise the log's
    /// clock stamps the event at append.
    public var recordedAt: Timestamp?
    /// Opaque metadata bytes (by convention a JSON object).
    public var metadata: [UInt8]
    /// The payload bytes; the log does not interpret them.
    public var payload: [UInt8]
    /// An in-memory form of the payload — the value it encodes — that code folding the committed
    /// events may use instead of decoding the payload again. Never stored; not part of equality.
    public var decoded: (any Sendable)?

    public init(
        eventId: UUID = .timeOrdered(), type: String, schemaVersion: UInt32 = 1, subject: String? = nil,
        occurredAt: Timestamp, recordedAt: Timestamp? = nil, correlationId: UUID? = nil, causationId: UUID? = nil,
        metadata: [UInt8] = [], payload: [UInt8]
    ) {
        header = EventHeader(
            eventId: eventId, type: type, schemaVersion: schemaVersion, subject: subject, occurredAt: occurredAt,
            correlationId: correlationId, causationId: causationId)
        self.recordedAt = recordedAt
        self.metadata = metadata
        self.payload = payload
    }

    /// The header's fields, read and written as the event's own.
    @inlinable
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<EventHeader, T>) -> T {
        get { header[keyPath: keyPath] }
        set { header[keyPath: keyPath] = newValue }
    }

    public static func == (lhs: ProposedEvent, rhs: ProposedEvent) -> Bool {
        lhs.header == rhs.header && lhs.recordedAt == rhs.recordedAt && lhs.metadata == rhs.metadata && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(header.eventId)
        hasher.combine(header.type)
        hasher.combine(payload)
    }
}
