import EventLog

/// A webhook as the admin routes answer it: its definition without the secret (its URL's path
/// and query redacted), how far it has delivered, how far behind the log it is, and what went wrong.
public struct WebhookStatus: Sendable, Hashable, Encodable {
    public var id: String
    /// The URL with whatever follows its host and port (the path and the query: where tokens
    /// are passed) replaced by `[redacted]`.
    public var url: String
    public var eventTypes: [String]?
    public var users: [String]?
    public var paused: Bool
    /// Why it paused itself (nil when an operator paused it, or it runs).
    public var pausedReason: String?
    public var createdAt: String
    /// The last position it has delivered (or passed over, wanting nothing there).
    public var deliveredThrough: UInt64
    /// The log's head when this was read.
    public var head: UInt64
    /// Events of the log after `deliveredThrough` (all of them, wanted or not).
    public var lagEvents: UInt64
    /// Batches and events delivered since this server started.
    public var batchesDelivered: UInt64
    public var eventsDelivered: UInt64
    /// Failed attempts in a row of the batch being delivered now (0 when the last one went through).
    public var failures: Int
    public var lastError: String?
    public var lastDeliveredAt: String?
    /// When the next attempt after a failure is due.
    public var nextAttemptAt: String?
    public var deadLetters: [DeadLetterStatus]
    /// On a log several servers share: the server delivering the webhooks (``ServerIdentity/id``;
    /// nil while none holds the lease). Absent on a store one process opens.
    public var deliveredBy: String?
    /// While a rotation of its secret runs (the new and the old secret both sign): when it began.
    public var rotationStartedAt: String?
}

/// A dead letter as the admin routes answer it.
public struct DeadLetterStatus: Sendable, Hashable, Encodable {
    public var id: String
    public var first: UInt64
    public var last: UInt64
    public var events: Int
    public var attempts: Int
    public var error: String
    public var failedAt: String

    init(_ letter: DeadLetter) {
        id = letter.id
        first = letter.first
        last = letter.last
        events = letter.events
        attempts = letter.attempts
        error = letter.error
        failedAt = Timestamp(microsecondsSinceEpoch: letter.failedAt).rfc3339
    }
}
