/// What the appender believes about a stream's current version; a mismatch is a conflict and
/// nothing is written. Stream versions start at 0 for the stream's first event.
public enum ExpectedVersion: Sendable, Hashable, CustomStringConvertible {
    /// Append whatever the stream's state.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream must exist (hold at least one event).
    case streamExists
    /// The stream's last event must have exactly this version.
    case exactly(UInt64)

    /// Parses the wire forms `any`, `no_stream`, `stream_exists` and a non-negative integer.
    public init(parsing text: String) throws(EventStoreError) {
        switch text {
        case "any": self = .any
        case "no_stream", "no-stream": self = .noStream
        case "stream_exists", "stream-exists", "exists": self = .streamExists
        default:
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = UInt64(text) else {
                throw EventStoreError.invalidExpectedVersion(text)
            }
            self = .exactly(value)
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no_stream"
        case .streamExists: "stream_exists"
        case .exactly(let version): String(version)
        }
    }
}
