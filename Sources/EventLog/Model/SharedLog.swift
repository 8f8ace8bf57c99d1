import Foundation

/// What a log shared by several servers (PostgreSQL) offers them to work together: leases, so
/// exactly one of them does a job such as delivering webhooks, a register of the servers
/// following the log, with how far each has got, and the answers to keyed requests, so a retry
/// gets the original answer whichever server it reaches.
///
/// A log only one process can open (LMDB: its writer lock) does not conform: there, the one
/// process holds every lease. Leases and announcements are timed by the store's own clock, so
/// servers whose clocks disagree still agree on who holds a lease; kept answers by the caller's.
public protocol SharedLog: EventStore {
    /// Claims lease `name` for `holder` for `duration`, or renews it if `holder` has it. Answers
    /// the lease as it stands after the claim, and after any claim committed before it: held by
    /// `holder`, or by another whose time is not up.
    func claimLease(_ name: String, holder: String, for duration: Duration) async throws -> Lease

    /// Gives lease `name` up, if `holder` has it, so another may take it at once.
    func releaseLease(_ name: String, holder: String) async throws

    /// The lease's holder now (nil: nobody, or their time is up).
    func leaseHolder(_ name: String) async throws -> Lease?

    /// Stores `checkpoint` if, and only if, `holder` holds lease `name` when it commits; answers
    /// false, writing nothing, if not. A claim by another waits for the write to commit, so a
    /// new holder reads every write its predecessor made.
    func storeCheckpoint(_ checkpoint: Checkpoint, holding name: String, holder: String) async throws -> Bool

    /// Records that `server` is alive, as it describes itself now.
    func announce(_ server: ServerAnnouncement) async throws

    /// The servers that announced themselves within `within`, in the order they started; those
    /// silent for longer than `forgetAfter` are forgotten.
    func servers(seenWithin within: Duration, forgetAfter: Duration) async throws -> [AnnouncedServer]

    /// The answer kept under request key `key` (a 32-byte digest of caller and key), unless there
    /// is none or it was kept before `notBefore` (microseconds since 1970: it has expired).
    func keptAnswer(_ key: [UInt8], keptSince notBefore: Int64) async throws -> KeptAnswer?

    /// Keeps `answer` under `key`, unless an answer kept since `notBefore` is there already (the
    /// first kept wins); removes up to 1,024 answers kept before `notBefore`, oldest first.
    /// Returns once the keeping is committed, with the answer that stands under `key`: `answer`,
    /// or the one kept first.
    @discardableResult
    func keepAnswer(_ answer: KeptAnswer, under key: [UInt8], expiringBefore notBefore: Int64) async throws -> KeptAnswer

    /// Appends `requests` as ``EventStore/append(batch:)`` does and, in the same commit, keeps
    /// for each request `i` that succeeds the answer `answers[i]` makes of its result (a keyed
    /// request's answer): the answer is kept if, and only if, the request's events are in the
    /// log. One result per request, in order, with the answer that then stands under its key
    /// (its own, or one kept first, which wins as in ``keepAnswer(_:under:expiringBefore:)``).
    func append(batch requests: [AppendRequest], keeping answers: [AnswerToKeep?]) async throws -> [KeepingAppendResult]

    // MARK: Each user's payload key

    /// How the log keeps its payloads (a ``PayloadFormat``'s raw value, for the Logbook to read):
    /// as recorded, or — when nothing is recorded yet — `proposed` if the log has no event, else
    /// `plaintext`, recorded now. Every server agrees: the first record wins.
    func payloadFormat(proposing proposed: String) async throws -> String

    /// What the log keeps for each of `users` that has a row (one without is absent).
    func userKeys(of users: [String]) async throws -> [String: StoredUserKey]

    /// Stores `keys` (32 bytes each) for the users that have no row, in one transaction committed
    /// before this returns, and answers each user's row as it then stands: a key another server
    /// made first wins over the one proposed, and an erased user gets none.
    func makeUserKeys(_ keys: [String: [UInt8]]) async throws -> [String: StoredUserKey]

    /// Records that `user`'s erasure has begun (before `user.erased` is appended), so that a
    /// server finishes it if a crash cuts it off after the append.
    func beginErasing(_ user: String) async throws

    /// Destroys `user`'s key (a tombstone in its place, for good) and rewrites the table so its
    /// bytes leave the table's file. False if it was destroyed already.
    @discardableResult
    func destroyUserKey(_ user: String) async throws -> Bool

    /// Rewrites the key table if a destroyed key's rewrite is still owed (a crash, or a snapshot
    /// that kept the old row, cut the last one short).
    func finishOwedKeyCompaction() async throws

    /// The users whose erasure has begun and whose key still exists, in byte order.
    func unfinishedErasures() async throws -> [String]

    /// The users whose key was destroyed, in byte order.
    func erasedUsers() async throws -> [String]
}

/// What a shared log keeps for one user's payloads: their key, or the tombstone of an erasure.
public enum StoredUserKey: Sendable, Hashable {
    /// The user's 32-byte key.
    case key([UInt8])
    /// Destroyed: the user was erased, for good.
    case erased
}

/// The answer to a keyed request (HTTP's `Idempotency-Key`), as a shared log keeps it for the
/// retries that reach any server.
public struct KeptAnswer: Sendable, Hashable {
    /// When it was kept, in microseconds since 1970.
    public var keptAt: Int64
    /// A digest of what the request asked: a retry asks the same.
    public var fingerprint: [UInt8]
    public var status: Int
    public var entityTag: String?
    public var body: [UInt8]

    /// The most a kept answer's body may take.
    public static let maxBodyBytes = 16 << 20

    public init(keptAt: Int64, fingerprint: [UInt8], status: Int, entityTag: String?, body: [UInt8]) {
        self.keptAt = keptAt
        self.fingerprint = fingerprint
        self.status = status
        self.entityTag = entityTag
        self.body = body
    }
}

/// A lease as the store holds it.
public struct Lease: Sendable, Hashable {
    public var holder: String
    /// Time left before anyone else may take it, in microseconds (by the store's clock; 0 or
    /// less once it has run out).
    public var remainingMicroseconds: Int64

    public init(holder: String, remainingMicroseconds: Int64) {
        self.holder = holder
        self.remainingMicroseconds = remainingMicroseconds
    }
}

/// What a server sharing a log says of itself when it announces it is alive.
public struct ServerAnnouncement: Sendable, Hashable {
    /// Unique to this run of the server.
    public var id: String
    /// For people: host and port, or what the operator named it.
    public var name: String
    /// Where it answers (empty when it is not known).
    public var url: String
    /// When it started, in microseconds since 1970.
    public var startedAt: Int64
    /// The log's head as it saw it, and the lowest position its read models have folded.
    public var head: Position
    public var readThrough: Position

    public init(id: String, name: String, url: String, startedAt: Int64, head: Position, readThrough: Position) {
        self.id = id
        self.name = name
        self.url = url
        self.startedAt = startedAt
        self.head = head
        self.readThrough = readThrough
    }
}

/// A server's last announcement and how long ago the store received it.
public struct AnnouncedServer: Sendable, Hashable {
    public var announcement: ServerAnnouncement
    public var silentMicroseconds: Int64

    public init(announcement: ServerAnnouncement, silentMicroseconds: Int64) {
        self.announcement = announcement
        self.silentMicroseconds = silentMicroseconds
    }
}

/// An answer to keep in the commit of an append: a keyed request's answer, made from the append's
/// result, so a retry that reaches any server answers the same bytes, and an answer is kept if,
/// and only if, the events it names are in the log (``SharedLog/append(batch:keeping:)``).
public struct AnswerToKeep: Sendable {
    /// The request's key: a 32-byte digest of caller and key.
    public var key: [UInt8]
    /// Answers kept under `key` before this (microseconds since 1970) have expired: replaced.
    public var expiringBefore: Int64
    /// The answer for the append's result; nil keeps nothing. Called inside the commit, once.
    public var make: @Sendable (AppendResult) -> KeptAnswer?

    public init(key: [UInt8], expiringBefore: Int64, make: @escaping @Sendable (AppendResult) -> KeptAnswer?) {
        self.key = key
        self.expiringBefore = expiringBefore
        self.make = make
    }
}

/// One request's result from ``SharedLog/append(batch:keeping:)``: the append's, and the answer
/// that stands under the request's key once the commit is made (nil: none was to be kept, or the
/// append failed).
public struct KeepingAppendResult: Sendable {
    public var result: Result<AppendResult, EventStoreError>
    public var kept: KeptAnswer?
    /// Whether `kept` is the answer this append made (false: one kept earlier stands).
    public var keptByThisAppend: Bool

    public init(result: Result<AppendResult, EventStoreError>, kept: KeptAnswer? = nil, keptByThisAppend: Bool = false) {
        self.result = result
        self.kept = kept
        self.keptByThisAppend = keptByThisAppend
    }
}
