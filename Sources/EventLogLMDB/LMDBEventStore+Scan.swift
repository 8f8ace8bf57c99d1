public import EventLog
public import LMDB

/// Fast in-process scans: the borrowed-bytes path rebuilds and exports use.
extension LMDBEventStore {
    /// Visits the events after `position` (up to `end`, inclusive, if given) in log order,
    /// matching `filter`, handing `body` each envelope with its metadata and payload bytes
    /// borrowed from the memory map (valid only during the call; copy what you keep). Return false
    /// from `body` to stop.
    ///
    /// The scan reads `chunkSize` records per read transaction and then starts a new one, so a
    /// long scan never pins old pages. Returns the last position scanned.
    @discardableResult
    public func scan(
        after position: Position = .start, through end: Position? = nil, filter: EventFilter = .all, chunkSize: Int = 16_384,
        _ body: (EventEnvelope, _ metadata: Span<UInt8>, _ payload: Span<UInt8>) throws -> Bool
    ) throws -> Position {
        // Its transactions are read-only: the names it meets are committed, so the store's are asked first.
        let resolver = NameResolver(databases: databases, dense: true, shared: committedNames)
        var last = position.rawValue
        let limit = end?.rawValue ?? .max
        var stopped = false
        while !stopped, last < limit {
            let from = last + 1
            let (scanned, reachedEnd) = try withReader(resolver: resolver) { reader in
                var matcher = try EventMatcher(filter, resolver: resolver, txn: reader.txn)
                return try reader.scan(from: from, direction: .forward, scanLimit: max(chunkSize, 1), matcher: &matcher) {
                    span, header, position in
                    guard position <= limit else {
                        stopped = true
                        return false
                    }
                    let envelope = try reader.envelope(header, position: position)
                    if try !body(envelope, span.extracting(header.metadataRange), span.extracting(header.payloadRange)) {
                        stopped = true
                        return false
                    }
                    return true
                }
            }
            guard let scanned else { break }
            last = min(scanned, limit)
            if reachedEnd { break }
        }
        return Position(last)
    }
}

extension LMDBEventStore {
    /// Visits the events after `position` (through `end`, if given) inside `transaction` — a
    /// transaction of this log's environment, such as a write transaction that also updates read
    /// models and must see the log exactly as it commits.
    public func scan(
        in transaction: ReadTransaction, after position: Position, through end: Position? = nil,
        _ body: (EventEnvelope, _ metadata: Span<UInt8>, _ payload: Span<UInt8>) throws -> Bool
    ) throws {
        try ensureOpen()
        let reader = LogReader(txn: transaction, databases: databases, resolver: NameResolver(databases: databases, dense: true))
        var matcher = try EventMatcher(.all, resolver: reader.resolver, txn: transaction)
        let limit = end?.rawValue ?? .max
        _ = try reader.scan(from: position.rawValue + 1, direction: .forward, scanLimit: .max, matcher: &matcher) {
            span, header, position in
            guard position <= limit else { return false }
            return try body(try reader.envelope(header, position: position),
                            span.extracting(header.metadataRange), span.extracting(header.payloadRange))
        }
    }

    /// The position of the last event in `transaction`'s view of the log.
    public func headPosition(in transaction: ReadTransaction) throws -> Position {
        try ensureOpen()
        return Position(try LogReader(txn: transaction, databases: databases, resolver: NameResolver(databases: databases)).headPosition())
    }
}
