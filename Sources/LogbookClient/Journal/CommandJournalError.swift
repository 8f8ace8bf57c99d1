import OpenAPIRuntime

/// Why a ``CommandJournal`` refused a call or could not open its file.
public enum CommandJournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The journal holds its most commands or bytes: nothing more is journaled until some are sent.
    case full(commands: Int, bytes: Int, limits: CommandJournal.Limits)
    /// A command's body is longer than ``CommandJournal/Limits/bodyBytes``.
    case commandTooLarge(operation: String, bytes: Int, limit: Int)
    /// A command's body is a stream that can be read once: it cannot be kept to send later.
    case bodyNotRepeatable(operation: String)
    /// Another journal (in this process or another) has the file open.
    case inUse(String)
    /// The file has a damaged line before its last (line 0: the file is larger than any journal's).
    case damaged(String, line: Int)
    /// The file could not be read or written: the system's reason.
    case file(String, String)
    /// The journal was stopped: it journals nothing more.
    case closed(String)
    /// No refused command has this sequence number.
    case noRefusedCommand(UInt64)

    public var description: String {
        switch self {
        case .full(let commands, let bytes, let limits):
            "the command journal is full: \(commands) commands in \(bytes) bytes, at most \(limits.commands) in \(limits.bytes) bytes; nothing is journaled until commands are sent"
        case .commandTooLarge(let operation, let bytes, let limit):
            "\(operation)'s body is \(bytes) bytes, longer than the \(limit) a journaled command may have"
        case .bodyNotRepeatable(let operation):
            "\(operation)'s body is a stream that can be read only once, so it cannot be journaled"
        case .inUse(let path):
            "the command journal \(path) is open in another journal (one per user and file at a time)"
        case .damaged(let path, let line) where line == 0:
            "the command journal \(path) is larger than any journal's file"
        case .damaged(let path, let line):
            "the command journal \(path) is damaged at line \(line) (before its last line, which a crash may cut short)"
        case .file(let path, let reason):
            "the command journal \(path): \(reason)"
        case .closed(let path):
            "the command journal \(path) was stopped; open it again to journal commands"
        case .noRefusedCommand(let sequence):
            "no refused command has sequence number \(sequence)"
        }
    }
}

/// Thrown by a command's typed call when its answer did not come within the journal's
/// ``CommandJournal/answerWait``: the command is journaled and will be sent, in order, once the
/// server can be reached; ``CommandJournal/status()`` lists it.
public struct CommandQueued: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command's place in the journal.
    public var sequence: UInt64
    /// The operation that made it.
    public var operation: String

    public var description: String { "\(operation) is journaled as command \(sequence) and will be sent when the server can be reached" }
}

extension CommandQueued {
    /// The ``CommandQueued`` a typed call threw, as it reaches the app: the OpenAPI runtime wraps a
    /// middleware's error in its `ClientError`.
    public static func thrown(in error: any Error) -> CommandQueued? {
        (error as? CommandQueued) ?? ((error as? ClientError)?.underlyingError as? CommandQueued)
    }
}

extension CommandJournalError {
    /// The ``CommandJournalError`` a typed call threw, unwrapped from the runtime's `ClientError`.
    public static func thrown(in error: any Error) -> CommandJournalError? {
        (error as? CommandJournalError) ?? ((error as? ClientError)?.underlyingError as? CommandJournalError)
    }
}
