public import EventLog
public import Foundation

/// One line of a user's audit timeline.
public struct TimelineEntry: Sendable, Hashable, Codable {
    public var position: UInt64
    public var eventId: UUID
    public var type: String
    public var stream: String
    public var occurredAt: Timestamp
    public var recordedAt: Timestamp
    public var description: String

    private enum CodingKeys: String, CodingKey { case position, eventId, type, stream, occurredAt, recordedAt, description }

    /// Event ids in lower case, as the wire form writes them (see <doc:WireForm>).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(position, forKey: .position)
        try c.encode(eventId.uuidString.lowercased(), forKey: .eventId)
        try c.encode(type, forKey: .type)
        try c.encode(stream, forKey: .stream)
        try c.encode(occurredAt, forKey: .occurredAt)
        try c.encode(recordedAt, forKey: .recordedAt)
        try c.encode(description, forKey: .description)
    }
}

/// A page of the timeline and the cursor to the next one.
public struct TimelinePage: Sendable, Hashable, Codable {
    public var entries: [TimelineEntry]
    /// Pass back for the next page; nil when there is nothing more.
    public var nextCursor: String?

    package init(entries: [TimelineEntry], nextCursor: String?) {
        self.entries = entries
        self.nextCursor = nextCursor
    }
}

/// Which timeline entries to show.
public struct TimelineFilter: Sendable, Hashable {
    /// Only these event types (nil: all).
    public var types: Set<EventType>?
    /// Only events that occurred in this range of instants (inclusive).
    public var from: Timestamp?
    public var to: Timestamp?
    /// Newest first (the default) or oldest first.
    public var newestFirst: Bool

    public init(types: Set<EventType>? = nil, from: Timestamp? = nil, to: Timestamp? = nil, newestFirst: Bool = true) {
        self.types = types
        self.from = from
        self.to = to
        self.newestFirst = newestFirst
    }
}
