public import Foundation

/// Why the log refused an operation. Every error names what was wrong; nothing was written
/// (except where ``Code/unavailable`` says the outcome of a commit is unknown).
///
/// A struct rather than an enum, so a backend or a later version can add a ``Code`` without
/// breaking code that handles errors: compare ``code`` with the named constants (`error.code ==
/// .wrongExpectedVersion`), and read the details the code carries (``stream``, ``eventId``,
/// ``position``, ``expectedVersion``, ``actualVersion``). The static functions named after the
/// codes build errors, and equal errors compare equal, so a test can say
/// `#expect(throws: EventStoreError.wrongExpectedVersion(stream: "s", expected: .noStream, actual: 0))`.
public struct EventStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal this is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The stream's version was not what the append expected (``actualVersion`` nil: no stream).
        public static let wrongExpectedVersion = Code(rawValue: "wrong_expected_version")
        /// The subject of an append's ``SubjectCondition`` has events after the position the
        /// condition names (``value``: the subject; ``position``: its last event now, nil if none).
        public static let subjectMoved = Code(rawValue: "subject_moved")
        /// Some of the append's event ids are already in the stream, but not as the same append.
        public static let idempotencyConflict = Code(rawValue: "idempotency_conflict")
        /// An event id of the append is already used by another event of the log (another stream,
        /// or another place in the stream): ``stream`` and ``position`` say where.
        public static let eventIdInUse = Code(rawValue: "event_id_in_use")
        /// A stream id is empty, too long or holds control characters.
        public static let invalidStreamID = Code(rawValue: "invalid_stream_id")
        /// A subject id is empty or too long.
        public static let invalidSubject = Code(rawValue: "invalid_subject")
        /// An event type is empty or too long.
        public static let invalidEventType = Code(rawValue: "invalid_event_type")
        /// An event id is the nil UUID, appears twice in one append, or is not a UUID at all.
        public static let invalidEventID = Code(rawValue: "invalid_event_id")
        /// An event's timestamp has a UTC offset beyond ±18:00.
        public static let invalidTimestamp = Code(rawValue: "invalid_timestamp")
        /// An event's payload and metadata exceed the configured limit.
        public static let eventTooLarge = Code(rawValue: "event_too_large")
        /// An append carried no events.
        public static let emptyAppend = Code(rawValue: "empty_append")
        /// An expected version's text was not `any`, `no_stream`, `stream_exists` or a number.
        public static let invalidExpectedVersion = Code(rawValue: "invalid_expected_version")
        /// A checkpoint name is empty or too long, or its data too large.
        public static let invalidCheckpoint = Code(rawValue: "invalid_checkpoint")
        /// A stored record failed its checksum or could not be decoded (``position`` names it).
        public static let corruption = Code(rawValue: "corruption")
        /// The store refuses writes: it was opened read-only.
        public static let readOnly = Code(rawValue: "read_only")
        /// The store was closed.
        public static let closed = Code(rawValue: "closed")
        /// The store cannot be reached now (a database server is down); retrying later may succeed.
        /// The one refusal that may not mean "nothing was written": when the database went away
        /// while a commit was on its way and could not be asked afterwards, ``reason`` says the
        /// write may have been made (retrying with the same event ids is safe either way).
        public static let unavailable = Code(rawValue: "unavailable")
        /// The underlying storage failed (``reason`` carries the storage's own error text).
        public static let storage = Code(rawValue: "storage")
    }

    /// What kind of refusal this is.
    public let code: Code
    /// The stream concerned, when there is one.
    public let stream: String?
    /// The event concerned, when there is one.
    public let eventId: UUID?
    /// The log position concerned: the corrupt record, or where a reused event id lives.
    public let position: Position?
    /// For ``Code/wrongExpectedVersion``: what the append expected.
    public let expectedVersion: ExpectedVersion?
    /// For ``Code/wrongExpectedVersion``: the stream's actual version (nil: no stream).
    public let actualVersion: UInt64?
    /// The rejected text itself, for invalid ids, names and versions.
    public let value: String?
    /// For ``Code/eventTooLarge``: the limit in bytes.
    public let limit: Int?
    /// Why, in a short sentence.
    public let reason: String

    init(
        _ code: Code, stream: String? = nil, eventId: UUID? = nil, position: Position? = nil,
        expected: ExpectedVersion? = nil, actual: UInt64? = nil, value: String? = nil, limit: Int? = nil, reason: String
    ) {
        self.code = code
        self.stream = stream
        self.eventId = eventId
        self.position = position
        self.expectedVersion = expected
        self.actualVersion = actual
        self.value = value
        self.limit = limit
        self.reason = reason
    }

    private var expectedPositionText: String { reason == "0" ? "none" : reason }

    public var description: String {
        let id = eventId.map { $0.uuidString.lowercased() } ?? ""
        let shown = value.map { String($0.prefix(80)) } ?? ""
        switch code {
        case .wrongExpectedVersion:
            return "wrong expected version for stream \"\(stream ?? "")\": expected \(expectedVersion.map(String.init(describing:)) ?? "?"), actual \(actualVersion.map(String.init) ?? "no stream")"
        case .subjectMoved:
            return "subject \"\(shown)\" moved: its last event is at position \(position.map(String.init(describing:)) ?? "none"), not \(expectedPositionText)"
        case .idempotencyConflict:
            return "event \(id) is already in stream \"\(stream ?? "")\" but this append does not repeat the original: \(reason)"
        case .eventIdInUse:
            return "event id \(id) is already used at position \(position.map(String.init(describing:)) ?? "?") in stream \"\(stream ?? "")\": \(reason)"
        case .invalidStreamID: return "invalid stream id \"\(shown)\": \(reason)"
        case .invalidSubject: return "invalid subject \"\(shown)\": \(reason)"
        case .invalidEventType: return "invalid event type \"\(shown)\": \(reason)"
        case .invalidEventID: return "invalid event id \"\(shown)\": \(reason)"
        case .invalidTimestamp: return "event \(id) has an invalid timestamp: \(reason)"
        case .eventTooLarge: return "event \(id) is \(reason)"
        case .emptyAppend: return "an append to stream \"\(stream ?? "")\" carried no events"
        case .invalidExpectedVersion:
            return "invalid expected version \"\(shown)\": use any, no_stream, stream_exists or a non-negative integer"
        case .invalidCheckpoint: return "invalid checkpoint \"\(shown)\": \(reason)"
        case .corruption: return "corrupt record at position \(position.map(String.init(describing:)) ?? "?"): \(reason)"
        case .readOnly: return "the event log is open read-only"
        case .closed: return "the event log is closed"
        case .unavailable: return "the event log is unavailable: \(reason)"
        default: return "storage failure: \(reason)"
        }
    }
}

extension EventStoreError {
    /// The stream's version was not what the append expected; `actual` is nil if the stream does not exist.
    public static func wrongExpectedVersion(stream: String, expected: ExpectedVersion, actual: UInt64?) -> Self {
        Self(.wrongExpectedVersion, stream: stream, expected: expected, actual: actual, reason: "the stream moved")
    }

    /// The subject's last event is at `actual` (nil: it has none), not at `expected`.
    public static func subjectMoved(subject: String, expected: Position, actual: Position?) -> Self {
        Self(.subjectMoved, position: actual, value: subject, reason: String(expected.rawValue))
    }

    /// Some of the append's ids are in the stream, but the append does not repeat the original.
    public static func idempotencyConflict(stream: String, eventId: UUID, reason: String) -> Self {
        Self(.idempotencyConflict, stream: stream, eventId: eventId, reason: reason)
    }

    /// An event id of the append is already used by the event at `position` of `stream`.
    public static func eventIdInUse(_ eventId: UUID, stream: String, position: Position, reason: String) -> Self {
        Self(.eventIdInUse, stream: stream, eventId: eventId, position: position, reason: reason)
    }

    /// A stream id that cannot be one.
    public static func invalidStreamID(_ id: String, reason: String) -> Self { Self(.invalidStreamID, value: id, reason: reason) }
    /// A subject that cannot be one.
    public static func invalidSubject(_ id: String, reason: String) -> Self { Self(.invalidSubject, value: id, reason: reason) }
    /// An event type that cannot be one.
    public static func invalidEventType(_ type: String, reason: String) -> Self { Self(.invalidEventType, value: type, reason: reason) }
    /// An event id that cannot be one.
    public static func invalidEventID(_ id: String, reason: String) -> Self { Self(.invalidEventID, value: id, reason: reason) }

    /// An event whose timestamp cannot be stored.
    public static func invalidTimestamp(eventId: UUID, reason: String) -> Self {
        Self(.invalidTimestamp, eventId: eventId, reason: reason)
    }

    /// An event over the size limit.
    public static func eventTooLarge(eventId: UUID, bytes: Int, limit: Int) -> Self {
        Self(.eventTooLarge, eventId: eventId, limit: limit,
             reason: "\(bytes) bytes of payload and metadata, over the limit of \(limit)")
    }

    /// An append with no events.
    public static func emptyAppend(stream: String) -> Self { Self(.emptyAppend, stream: stream, reason: "no events") }

    /// An expected version's text that is not one.
    public static func invalidExpectedVersion(_ text: String) -> Self {
        Self(.invalidExpectedVersion, value: text, reason: "use any, no_stream, stream_exists or a non-negative integer")
    }

    /// A checkpoint that cannot be stored.
    public static func invalidCheckpoint(name: String, reason: String) -> Self { Self(.invalidCheckpoint, value: name, reason: reason) }

    /// A stored record that failed its checksum or could not be decoded.
    public static func corruption(position: Position, reason: String) -> Self { Self(.corruption, position: position, reason: reason) }

    /// The store was opened read-only.
    public static let readOnly = Self(.readOnly, reason: "opened read-only")
    /// The store was closed.
    public static let closed = Self(.closed, reason: "closed")

    /// The store cannot be reached now.
    public static func unavailable(_ text: String) -> Self { Self(.unavailable, reason: text) }

    /// The underlying storage failed, with its own error text.
    public static func storage(_ text: String) -> Self { Self(.storage, reason: text) }
}
