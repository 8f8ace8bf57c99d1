public import Foundation

/// The append-only event log, as every backend provides it: the seam between Logbook and storage.
///
/// The LMDB backend (`LMDBEventStore`, module `EventLogLMDB`) implements it; other backends
/// (PostgreSQL) implement it too and pass the same conformance suite (`LogbookTesting`). Code
/// above the log — Logbook, its replayer, the HTTP layer — depends on this protocol only.
///
/// Contract (the LogContract article, in Logbook's documentation): positions are global, gapless,
/// from 1, in commit order; stream versions are gapless from 0; an append is atomic; event ids are
/// unique in the whole log: re-sending an append's event ids to the same stream in the same order
/// returns the original positions and writes nothing, however much was written since, and an id
/// already used anywhere else is refused with ``EventStoreError/Code/eventIdInUse``; every record
/// is checksummed and a bad one raises an ``EventStoreError`` with code
/// ``EventStoreError/Code/corruption``.
public protocol EventStore: Sendable {
    /// Appends `events` to `stream` atomically if the stream's version matches `expectedVersion`.
    /// If `checkpoint` is given it is stored in the same transaction.
    func append(
        _ events: [ProposedEvent], to stream: String, expectedVersion: ExpectedVersion, checkpoint: Checkpoint?
    ) async throws -> AppendResult

    /// Appends several independent requests in one commit. Each gets its own result: one
    /// request's conflict never fails the others.
    func append(batch requests: [AppendRequest]) async throws -> [Result<AppendResult, EventStoreError>]

    /// The event at `position`, or nil if there is none.
    func event(at position: Position) async throws -> RecordedEvent?

    /// Where the events with ids `ids` are, in the order asked: nil for an id no event of the log
    /// has (event ids are unique in the whole log). One consistent view of the log answers all.
    func locations(ofEvents ids: [UUID]) async throws -> [EventLocation?]

    /// Up to `limit` events of `stream`, starting at `version` and going in `direction`.
    func readStream(_ stream: String, from version: UInt64, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent]

    /// The version of the stream's last event, or nil if the stream does not exist.
    func streamVersion(_ stream: String) async throws -> UInt64?

    /// Up to `limit` events of the whole log matching `filter`, from `position` (inclusive) in
    /// `direction`. The page says how far it scanned.
    func readAll(from position: Position, direction: ReadDirection, limit: Int, filter: EventFilter) async throws -> LogPage

    /// Up to `limit` events of one subject (user), in log order, from `position` (inclusive) in
    /// `direction`, read through the subject index without scanning the log.
    func readSubject(_ subject: String, from position: Position, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent]

    /// The position of the last committed event (``Position/start`` when the log is empty).
    func headPosition() async throws -> Position

    /// Events after `position` (exclusive), catching up from the log and then continuing live,
    /// in order, with no gap and no duplicate.
    func subscribe(after position: Position, filter: EventFilter) -> EventSubscription

    /// Visits the events after `position` (through `end`, if given) matching `filter`, in log
    /// order, handing `body` each envelope with its metadata and payload bytes (borrowed: valid
    /// only during the call). Return false from `body` to stop. Returns the last position scanned.
    ///
    /// The bulk path of rebuilds and exports: a backend reads in chunks of about `chunkSize`
    /// events and never holds one snapshot open for the whole scan. ``scanByPages(after:through:filter:chunkSize:_:)``
    /// implements it on ``readAll(from:direction:limit:filter:)`` for backends without a faster way.
    @discardableResult
    func scan(
        after position: Position, through end: Position?, filter: EventFilter, chunkSize: Int,
        _ body: (EventEnvelope, _ metadata: Span<UInt8>, _ payload: Span<UInt8>) throws -> Bool
    ) async throws -> Position

    /// The checkpoint stored under `name`, if any.
    func checkpoint(named name: String) async throws -> Checkpoint?

    /// Stores a checkpoint (replacing any of the same name).
    func storeCheckpoint(_ checkpoint: Checkpoint) async throws

    /// Sizes and counters of the storage.
    func storageInfo() async throws -> LogStorageInfo

    /// Counters of the appends this process committed (nil where the backend keeps none, or the
    /// store is read-only).
    var statistics: WriterStatistics? { get }

    /// Commits what is queued, ends subscriptions and releases the storage. Safe to call twice.
    func close() async
}

extension EventStore {
    /// Where the event with id `id` is, or nil if no event of the log has it.
    public func location(ofEvent id: UUID) async throws -> EventLocation? {
        try await locations(ofEvents: [id])[0]
    }

    /// Appends `events` to `stream`.
    public func append(
        _ events: [ProposedEvent], to stream: String, expectedVersion: ExpectedVersion = .any
    ) async throws -> AppendResult {
        try await append(events, to: stream, expectedVersion: expectedVersion, checkpoint: nil)
    }

    /// Every event after `position`.
    public func subscribe(after position: Position = .start) -> EventSubscription {
        subscribe(after: position, filter: .all)
    }

    /// A scan built on paged ``readAll(from:direction:limit:filter:)`` reads, for backends whose
    /// ``scan(after:through:filter:chunkSize:_:)`` has no faster way.
    @discardableResult
    public func scanByPages(
        after position: Position, through end: Position?, filter: EventFilter, chunkSize: Int,
        _ body: (EventEnvelope, _ metadata: Span<UInt8>, _ payload: Span<UInt8>) throws -> Bool
    ) async throws -> Position {
        var last = position
        let limit = end ?? Position(.max)
        while last < limit {
            let page = try await readAll(from: last.next, direction: .forward, limit: max(chunkSize, 1), filter: filter)
            for event in page.events {
                guard event.position <= limit else { return last }
                last = event.position
                if try !body(event.envelope, event.metadata.span, event.payload.span) { return last }
            }
            guard let scanned = page.scannedThrough else { break }
            last = min(scanned, limit)
            if page.reachedEnd { break }
        }
        return last
    }
}
