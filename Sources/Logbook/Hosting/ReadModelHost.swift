import EventLog
import LMDB
import LogbookStorage

/// Where Logbook's read models live and how they keep up with the log: the seam between the
/// domain and a backend's transactions.
///
/// Two hosts exist. ``InlineReadModels`` folds every commit inside the LMDB log's own write
/// transaction (the embedded default: read-your-writes for free, the fastest path).
/// ``FollowingReadModels`` keeps the read models in a local LMDB environment of their own and
/// follows any ``EventStore`` by subscription, like a read replica (a log in PostgreSQL, shared
/// by several servers). Everything else — commands, queries, rebuilds, verification — is written
/// once against this protocol.
protocol ReadModelHost: Sendable {
    /// The read models' storage: a local LMDB environment and their databases in it.
    var store: ReadModelStore { get }

    /// Brings the read models up to date and starts keeping them so. Called once, by ``Logbook``.
    func start(_ logbook: Logbook, progress: (RebuildProgress) -> Void) async throws

    /// Runs `body` with the read models and the current versions of `streams`, consistent with
    /// each other: every event of those streams, and of the users `subjects` (the consistency
    /// boundary of the rules that read across a user's streams), is folded into what `body` reads.
    /// The view says whether the read models the rules read are whole in it (``DecisionView/whole``).
    func withDecisionView<R>(streams: [String], subjects: [String], _ body: (inout DecisionView) throws -> R) async throws -> R

    /// Returns once every live read model has folded `position` (read-your-writes), or throws
    /// ``LogbookError/Code/notCaughtUp`` after the configured wait.
    func waitUntilFolded(_ position: UInt64) async throws

    /// The log's head as far as status reports are concerned, read with the checkpoints.
    func headPosition(in txn: ReadTransaction) throws -> UInt64

    /// Ends a rebuild of `kinds` whose fold reached the log's head: folds what was appended
    /// meanwhile and puts them back into live folding. Returns the position they stand at.
    func finishRebuild(_ kinds: Set<ReadModelKind>, control: ReadModelControl) async throws -> UInt64

    /// Whether live read models left behind the log are caught up by the host itself (a
    /// follower subscribes from their checkpoints); otherwise a rebuild catches them up.
    var catchesUpLiveReadModels: Bool { get }

    /// The position an upgrade in the background folds the next tables of `kinds` through
    /// before ``finishUpgrade(_:control:)`` switches them in.
    func upgradeTarget(_ kinds: Set<ReadModelKind>) async throws -> UInt64

    /// Folds into the next tables of `kinds` what their live ones hold beyond them and makes them
    /// live in one write transaction (the caller empties the old ones after); returns the
    /// position they stand at. Nil, switching nothing, when that cannot be done inside the
    /// transaction (the live tables moved past what the next ones folded): fold again, through
    /// ``upgradeTarget(_:)``.
    func finishUpgrade(_ kinds: Set<ReadModelKind>, control: ReadModelControl) async throws -> UInt64?

    /// Stops following the log.
    func close() async
}

/// What a command is decided against: the read models, and the versions of the streams the
/// commands write to, as of one consistent moment.
struct DecisionView: ~Copyable {
    var state: ReadModelState
    /// False while a rebuild owns one of the read models the rules read
    /// (``ReadModelState/kinds``): they hold part of the log, and no command may be judged on them.
    var whole = true
    /// The version of each stream asked for (nil inside: the stream does not exist).
    let streamVersions: [String: UInt64?]
    /// Where each user asked for stood when the decision read the log (its last event's position),
    /// when the log is shared with other writers: appends then carry a ``SubjectCondition`` so a
    /// decision made on a user's state is refused if another server changed that user meanwhile.
    /// Empty when this process is the log's only writer and serialises each user's commands.
    var subjectPositions: [String: Position] = [:]

    /// The version of `stream` (nil: it does not exist).
    func version(of stream: String) -> UInt64? { streamVersions[stream] ?? nil }

    /// The condition an append decided on this view carries for `subject`, if the log is shared.
    func condition(for subject: String?) -> SubjectCondition? {
        guard let subject, let position = subjectPositions[subject] else { return nil }
        return SubjectCondition(subject: subject, lastPosition: position)
    }
}
