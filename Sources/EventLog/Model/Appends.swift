/// One append: events for one stream, with the version the appender expects.
public struct AppendRequest: Sendable, Hashable {
    public var stream: String
    public var events: [ProposedEvent]
    public var expectedVersion: ExpectedVersion
    /// If set, the append is refused with ``EventStoreError/Code/subjectMoved`` unless the
    /// subject's last event is still where the appender's decision saw it: a user as a
    /// consistency boundary across streams, for rules that read several of a user's streams
    /// while several servers write.
    public var subjectCondition: SubjectCondition?

    public init(
        stream: String, events: [ProposedEvent], expectedVersion: ExpectedVersion = .any, subjectCondition: SubjectCondition? = nil
    ) {
        self.stream = stream
        self.events = events
        self.expectedVersion = expectedVersion
        self.subjectCondition = subjectCondition
    }
}

/// What an appender believes about a subject (user): the position of its last event in the log
/// (``Position/start``: the subject has no events yet). A decision that read the user's state as
/// of that position stays valid only if no event of the user was appended since.
public struct SubjectCondition: Sendable, Hashable {
    public var subject: String
    public var lastPosition: Position

    public init(subject: String, lastPosition: Position) {
        self.subject = subject
        self.lastPosition = lastPosition
    }
}

/// What an append wrote (or, for a retry, had already written).
public struct AppendResult: Sendable, Hashable {
    /// Position of the first event of the append.
    public let firstPosition: Position
    /// Position of the last event of the append (the appends' positions are consecutive).
    public let lastPosition: Position
    /// The stream's version after the append: the version of its last event.
    public let streamVersion: UInt64
    /// True when the events were already in the stream (an idempotent retry): nothing was written.
    public let alreadyWritten: Bool

    public init(firstPosition: Position, lastPosition: Position, streamVersion: UInt64, alreadyWritten: Bool) {
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.streamVersion = streamVersion
        self.alreadyWritten = alreadyWritten
    }
}

/// A projection's progress through the log: a position and a small opaque blob.
public struct Checkpoint: Sendable, Hashable {
    public var name: String
    public var position: Position
    public var data: [UInt8]

    public init(name: String, position: Position, data: [UInt8] = []) {
        self.name = name
        self.position = position
        self.data = data
    }
}

/// Which events a read of the whole log or a subscription delivers.
public struct EventFilter: Sendable, Hashable {
    /// Only these event types (nil: every type).
    public var eventTypes: Set<String>?
    /// Only streams whose id starts with this prefix (nil: every stream).
    public var streamPrefix: String?
    /// Only events of this subject (user), e.g. for one user's live feed (nil: every subject).
    public var subject: String?

    public init(eventTypes: Set<String>? = nil, streamPrefix: String? = nil, subject: String? = nil) {
        self.eventTypes = eventTypes
        self.streamPrefix = streamPrefix
        self.subject = subject
    }

    /// Matches every event.
    public static let all = EventFilter()

    public var isEmpty: Bool { eventTypes == nil && streamPrefix == nil && subject == nil }
}

/// A page of the whole log, with how far the read scanned (which may be past the last match).
public struct LogPage: Sendable, Hashable {
    public var events: [RecordedEvent]
    /// The last position examined: continue forward from `scannedThrough.next` (backward from
    /// `scannedThrough - 1`), even if the filter matched nothing. `nil` if nothing was scanned.
    public var scannedThrough: Position?
    /// True when the read reached the end of the log in its direction.
    public var reachedEnd: Bool

    public init(events: [RecordedEvent], scannedThrough: Position?, reachedEnd: Bool) {
        self.events = events
        self.scannedThrough = scannedThrough
        self.reachedEnd = reachedEnd
    }
}

/// What a subscription delivers: events in order, and progress markers when a filter skipped
/// events, so a checkpoint can follow the scan instead of parking behind the head.
public enum SubscriptionElement: Sendable, Hashable {
    case event(RecordedEvent)
    /// Every position up to and including this one has been scanned.
    case scanned(through: Position)

    /// The event, if this element is one.
    public var event: RecordedEvent? {
        if case .event(let event) = self { return event }
        return nil
    }

    /// The position this element proves scanned.
    public var position: Position {
        switch self {
        case .event(let event): event.position
        case .scanned(let position): position
        }
    }
}

/// Where an event of the log is: found by its id (``EventStore/location(ofEvent:)``).
public struct EventLocation: Sendable, Hashable {
    public var position: Position
    public var stream: String
    public var streamVersion: UInt64

    public init(position: Position, stream: String, streamVersion: UInt64) {
        self.position = position
        self.stream = stream
        self.streamVersion = streamVersion
    }
}
