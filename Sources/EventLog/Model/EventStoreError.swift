public import Foundation

/// Why the log refused an operation. Every case names what was wrong; nothing was written.
public enum EventStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stream's version was not what the append expected. `actual` is nil if the stream does not exist.
    case wrongExpectedVersion(stream: String, expected: ExpectedVersion, actual: UInt64?)
    /// Some of the append's event ids are already in the stream, but not as the same append
    /// (different order, a subset, or mixed with new events).
    case idempotencyConflict(stream: String, eventId: UUID, reason: String)
    /// A stream id is empty, too long or not valid UTF-8 text of printable characters.
    case invalidStreamID(String, reason: String)
    /// A subject id is empty or too long.
    case invalidSubject(String, reason: String)
    /// An event type is empty or too long.
    case invalidEventType(String, reason: String)
    /// An event id is the nil UUID, appears twice in one append, or is not a UUID at all.
    case invalidEventID(String, reason: String)
    /// An event's timestamp has a UTC offset beyond ±18:00.
    case invalidTimestamp(eventId: UUID, reason: String)
    /// An event's payload and metadata exceed the configured limit.
    case eventTooLarge(eventId: UUID, bytes: Int, limit: Int)
    /// An append carried no events.
    case emptyAppend(stream: String)
    /// An expected version's text was not `any`, `no_stream`, `stream_exists` or a number.
    case invalidExpectedVersion(String)
    /// A checkpoint name is empty or too long, or its data too large.
    case invalidCheckpoint(name: String, reason: String)
    /// A stored record failed its checksum or could not be decoded.
    case corruption(position: Position, reason: String)
    /// The store refuses writes: it was opened read-only.
    case readOnly
    /// The store was closed.
    case closed
    /// The underlying storage failed (carries the storage's own error text).
    case storage(String)

    public var description: String {
        switch self {
        case .wrongExpectedVersion(let stream, let expected, let actual):
            "wrong expected version for stream \"\(stream)\": expected \(expected), actual \(actual.map(String.init) ?? "no stream")"
        case .idempotencyConflict(let stream, let eventId, let reason):
            "event \(eventId.uuidString.lowercased()) is already in stream \"\(stream)\" but this append does not repeat the original: \(reason)"
        case .invalidStreamID(let id, let reason): "invalid stream id \"\(id.prefix(80))\": \(reason)"
        case .invalidSubject(let id, let reason): "invalid subject \"\(id.prefix(80))\": \(reason)"
        case .invalidEventType(let type, let reason): "invalid event type \"\(type.prefix(80))\": \(reason)"
        case .invalidEventID(let id, let reason): "invalid event id \"\(id.prefix(80))\": \(reason)"
        case .invalidTimestamp(let eventId, let reason):
            "event \(eventId.uuidString.lowercased()) has an invalid timestamp: \(reason)"
        case .eventTooLarge(let eventId, let bytes, let limit):
            "event \(eventId.uuidString.lowercased()) is \(bytes) bytes of payload and metadata, over the limit of \(limit)"
        case .emptyAppend(let stream): "an append to stream \"\(stream)\" carried no events"
        case .invalidExpectedVersion(let text):
            "invalid expected version \"\(text.prefix(80))\": use any, no_stream, stream_exists or a non-negative integer"
        case .invalidCheckpoint(let name, let reason): "invalid checkpoint \"\(name.prefix(80))\": \(reason)"
        case .corruption(let position, let reason): "corrupt record at position \(position): \(reason)"
        case .readOnly: "the event log is open read-only"
        case .closed: "the event log is closed"
        case .storage(let text): "storage failure: \(text)"
        }
    }
}
