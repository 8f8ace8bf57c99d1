/// A log that can be read whole as of one moment and loaded whole into an empty log: what a
/// backup and a verified restore of a shared log (PostgreSQL) stand on. The embedded log does
/// not conform: it is backed up by copying its environment.
///
/// Everything a snapshot hands out is as of one moment: the head, every event through it, the
/// checkpoints and the kept answers, even while servers append. A load happens in one
/// transaction: it commits only when its body returns, so a load that fails leaves the target
/// as empty as it found it.
public protocol SnapshotLog: EventStore {
    /// Runs `body` with a reader of one consistent snapshot of the whole log.
    func readSnapshot<R: Sendable>(_ body: @Sendable (any LogSnapshotReader) async throws -> R) async throws -> R

    /// Loads a log into this one, which must be empty (no event, checkpoint or kept answer):
    /// `body` inserts through the loader and calls ``LogLoader/finish(head:)``; the whole load
    /// commits when `body` returns and is rolled back if it throws. A target that is not empty
    /// is refused with ``EventStoreError`` before `body` runs.
    func loadIntoEmptyLog<R: Sendable>(_ body: @Sendable (any LogLoader) async throws -> R) async throws -> R

    /// Empties this log again after a load that committed but was then found wanting, provided
    /// its head is still `head` (nobody appended since); refuses otherwise.
    func discardLoadedLog(head: Position) async throws
}

/// One consistent snapshot of a whole log (see ``SnapshotLog/readSnapshot(_:)``).
public protocol LogSnapshotReader: Sendable {
    /// The last position in the snapshot.
    var head: Position { get }
    /// Up to `limit` events after `position`, through ``head``, in position order; each record's
    /// checksum verified.
    func events(after position: Position, limit: Int) async throws -> [RecordedEvent]
    /// Up to `limit` checkpoints named after `name` in bytewise order.
    func checkpoints(after name: String, limit: Int) async throws -> [Checkpoint]
    /// Up to `limit` kept answers whose key sorts after `key` (bytewise).
    func keptAnswers(after key: [UInt8], limit: Int) async throws -> [KeyedAnswer]
    /// How the log keeps payloads, as recorded (nil: nothing recorded yet).
    func payloadFormat() async throws -> String?
    /// Up to `limit` users' key rows after `user`, in byte order of user ids.
    func userKeys(after user: String, limit: Int) async throws -> [UserKeyRow]
    /// A digest of the whole snapshot in hex — every event's position, stream version and stored
    /// checksum through ``head``, every checkpoint and every kept answer: a load that put every
    /// row back as it was has the same one.
    func rowsDigest() async throws -> String
}

/// Puts a whole log into an empty one, in one transaction (see ``SnapshotLog/loadIntoEmptyLog(_:)``).
public protocol LogLoader: Sendable {
    /// Inserts events as they were: positions, stream versions, ids, times and bytes. Each
    /// record's checksum is computed again from its content, as an append computes it.
    func insert(_ events: [RecordedEvent]) async throws
    func insert(_ checkpoints: [Checkpoint]) async throws
    func insert(_ answers: [KeyedAnswer]) async throws
    func insert(_ keys: [UserKeyRow]) async throws
    /// Records how the loaded log keeps payloads (replacing what an empty log recorded).
    func recordPayloadFormat(_ format: String) async throws
    /// Sets the head to `head` and answers what the loaded log holds, read back inside the
    /// transaction: the caller compares it with what it expected before the load commits.
    func finish(head: Position) async throws -> LoadedLog
}

/// A kept answer with the key it is kept under.
public struct KeyedAnswer: Sendable, Hashable {
    /// A 32-byte digest of caller and key.
    public var key: [UInt8]
    public var answer: KeptAnswer

    public init(key: [UInt8], answer: KeptAnswer) {
        self.key = key
        self.answer = answer
    }
}

/// A user's row in a shared log's key table (``SharedLog/userKeys(of:)``), as backed up.
public struct UserKeyRow: Sendable, Hashable {
    public var user: String
    public var key: StoredUserKey
    /// Their erasure began and is not finished (a server that opens the log finishes it).
    public var erasing: Bool

    public init(user: String, key: StoredUserKey, erasing: Bool) {
        self.user = user
        self.key = key
        self.erasing = erasing
    }
}

/// What a load put into a log, read back before it commits.
public struct LoadedLog: Sendable, Hashable {
    public var head: Position
    public var events: UInt64
    public var checkpoints: Int
    public var keptAnswers: Int
    /// As ``LogSnapshotReader/rowsDigest()`` reads it.
    public var rowsDigest: String
    /// Users' key rows (keys and tombstones).
    public var userKeys: Int

    public init(head: Position, events: UInt64, checkpoints: Int, keptAnswers: Int, rowsDigest: String, userKeys: Int = 0) {
        self.head = head
        self.events = events
        self.checkpoints = checkpoints
        self.keptAnswers = keptAnswers
        self.rowsDigest = rowsDigest
        self.userKeys = userKeys
    }
}
