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

/// The events one write transaction wrote, readable inside that transaction.
public struct CommittedBatch: ~Copyable {
    let reader: LogReader
    /// Position of the first event written by the transaction.
    public let firstPosition: Position
    /// Position of the last event written by the transaction.
    public let lastPosition: Position

    /// Visits the transaction's events in position order, with borrowed metadata and payload.
    public func forEach(_ body: (EventEnvelope, _ metadata: Span<UInt8>, _ payload: Span<UInt8>) throws -> Void) throws {
        var matcher = try EventMatcher(.all, resolver: reader.resolver, txn: reader.txn)
        let last = lastPosition.rawValue
        _ = try reader.scan(from: firstPosition.rawValue, direction: .forward, scanLimit: .max, matcher: &matcher) {
            span, header, position in
            guard position <= last else { return false }
            try body(try reader.envelope(header, position: position),
                     span.extracting(header.metadataRange), span.extracting(header.payloadRange))
            return true
        }
    }
}
