/// The append-only event log, as every backend provides it.
///
/// The LMDB backend (``LMDBEventStore``) implements it today; a PostgreSQL backend will pass the
/// same conformance suite later. Code above the log depends on this protocol, not on a backend.
///
/// Contract (see DESIGN §2): positions are global, gapless, from 1, in commit order; stream
/// versions are gapless from 0; an append is atomic; re-sending an append's event ids to the same
/// stream in the same order returns the original positions and writes nothing; every record is
/// checksummed and a bad one raises ``EventStoreError/corruption(position:reason:)``.
public protocol EventStore: Sendable {
    associatedtype Subscription: AsyncSequence & Sendable
    where Subscription.Element == SubscriptionElement, Subscription.Failure == any Error

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
    func subscribe(after position: Position, filter: EventFilter) -> Subscription

    /// The checkpoint stored under `name`, if any.
    func checkpoint(named name: String) async throws -> Checkpoint?

    /// Stores a checkpoint (replacing any of the same name).
    func storeCheckpoint(_ checkpoint: Checkpoint) async throws
}

extension EventStore {
    /// Appends `events` to `stream`.
    public func append(
        _ events: [ProposedEvent], to stream: String, expectedVersion: ExpectedVersion = .any
    ) async throws -> AppendResult {
        try await append(events, to: stream, expectedVersion: expectedVersion, checkpoint: nil)
    }

    /// Every event after `position`.
    public func subscribe(after position: Position = .start) -> Subscription {
        subscribe(after: position, filter: .all)
    }
}
