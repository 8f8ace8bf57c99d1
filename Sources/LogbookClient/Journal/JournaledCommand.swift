public import Foundation

/// A command kept in a ``CommandJournal``: the request as the typed call made it (without the
/// bearer token, which is added when it is sent), and what became of it so far.
public struct JournaledCommand: Sendable, Hashable, Codable {
    /// Its place in the user's journal: commands are sent in this order, each once.
    public var sequence: UInt64
    /// The API operation that made it (for example `postUsersUserSteps`).
    public var operation: String
    /// The request's method, path and query, as sent.
    public var method: String
    public var path: String
    /// The header fields sent with it, `Idempotency-Key` among them (made once, when journaled).
    public var headers: [Header]
    /// The request body (none: nil).
    public var body: Data?
    /// When it was journaled, in seconds since 1970 (the app's clock).
    public var journaled: Double
    /// The server's answer when it refused the command as the command's own fault (a `4xx`
    /// other than `401`, `408`, `425` and `429`): kept, and no longer sent, until the app
    /// discards it. nil while it waits to be sent.
    public var refusal: Refusal?

    /// One header field.
    public struct Header: Sendable, Hashable, Codable {
        public var name: String
        public var value: String
    }

    /// A server's answer refusing a command.
    public struct Refusal: Sendable, Hashable, Codable {
        /// The HTTP status.
        public var status: Int
        /// The answer's body as text (an `application/problem+json` document from Logbook), at
        /// most ``CommandJournal/Limits/bodyBytes`` of it.
        public var problem: String
    }

    /// The key the server recognizes a retry by.
    public var idempotencyKey: String? {
        headers.first { $0.name.lowercased() == "idempotency-key" }?.value
    }
}

/// One line of a journal's file, in the order written.
enum JournalRecord: Codable, Sendable {
    /// A command was journaled.
    case command(JournaledCommand)
    /// The server answered the command and the answer reached the app (or, for a 2xx or 3xx,
    /// needed not): it is done.
    case answered(UInt64)
    /// The server refused it as its own fault: kept, not sent again.
    case refused(UInt64, JournaledCommand.Refusal)
    /// The app discarded a refused command.
    case discarded(UInt64)
    /// The next sequence number to give (the first line of a compacted file).
    case next(UInt64)
}
