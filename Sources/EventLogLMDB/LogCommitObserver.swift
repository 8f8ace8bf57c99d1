public import EventLog
public import LMDB

/// Code that runs inside the log's write transactions, on the writer thread: inline projections,
/// whose read-model changes commit atomically with the events that caused them.
///
/// For every write transaction that wrote events, the writer calls ``logWillCommit(_:in:)``
/// after the events are written and before the commit, then either ``logDidCommit()`` (after a
/// successful commit, before any appender is answered) or ``logDidAbort()``. `logWillCommit` may
/// run more than once for one commit — the transaction is retried after the map grows — and each
/// call must start from what is committed, not from the previous attempt. A throw from it aborts
/// the transaction: every append in it fails with that error.
public protocol LogCommitObserver: AnyObject, Sendable {
    func logWillCommit(_ batch: borrowing CommittedBatch, in transaction: WriteTransaction) throws
    func logDidCommit()
    func logDidAbort()
}

/// The events one write transaction wrote, as the writer has them in memory (no read back).
public struct CommittedBatch: ~Copyable {
    struct Event {
        let envelope: EventEnvelope
        let metadata: ArraySlice<UInt8>
        let payload: ArraySlice<UInt8>
        let decoded: (any Sendable)?
    }

    let events: [Event]
    /// Position of the first event written by the transaction.
    public var firstPosition: Position { events.first?.envelope.position ?? .start }
    /// Position of the last event written by the transaction.
    public var lastPosition: Position { events.last?.envelope.position ?? .start }

    /// Visits the transaction's events in position order, with borrowed metadata and payload,
    /// and the appender's in-memory form of the payload if it gave one
    /// (``ProposedEvent/decoded``).
    public func forEach(
        _ body: (EventEnvelope, _ metadata: Span<UInt8>, _ payload: Span<UInt8>, _ decoded: (any Sendable)?) throws -> Void
    ) throws {
        for event in events { try body(event.envelope, event.metadata.span, event.payload.span, event.decoded) }
    }
}
