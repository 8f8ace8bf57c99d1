import EventLog
import EventLogLMDB
import LMDB
import LogbookStorage

/// The read models folded inline, in the LMDB log's own write transactions: the embedded
/// default and the fastest path.
///
/// The read models live in the log's environment; an ``InlineProjector`` attached to the log
/// folds each commit before it commits, so an acknowledged append is already in every live read
/// model (read-your-writes needs no waiting), and a decision reads the read models and the
/// streams' versions in one read transaction.
final class InlineReadModels: ReadModelHost {
    let log: LMDBEventStore
    /// Opens payloads for the catch-up folds.
    let payloads: PayloadKeys
    let store: ReadModelStore
    private let cache: QueryCache

    init(log: LMDBEventStore, cache: QueryCache, payloads: PayloadKeys) throws {
        self.log = log
        self.cache = cache
        self.payloads = payloads
        store = try ReadModelStore(environment: log.environment)
    }

    func start(_ logbook: Logbook, progress: (RebuildProgress) -> Void) async throws {
        guard !log.configuration.readOnly else { return }
        let cache = self.cache
        let projector = InlineProjector(store: store, control: logbook.control, payloads: payloads) { summary in cache.invalidate(summary) }
        try log.attach(projector)
        try await logbook.bringReadModelsUpToDate(progress: progress)
    }

    func withDecisionView<R>(streams: [String], subjects: [String], _ body: (inout DecisionView) throws -> R) async throws -> R {
        try log.withSnapshot { snapshot in
            var versions: [String: UInt64?] = [:]
            for stream in streams { versions[stream] = try snapshot.streamVersion(stream) }
            let projections = try store.projectionSet(snapshot.transaction)
            var view = DecisionView(state: ReadModelState(projections: projections, transaction: snapshot.transaction), streamVersions: versions)
            view.whole = try store.whole(ReadModelState.kinds, snapshot.transaction)
            return try body(&view)
        }
    }

    /// Nothing to wait for: a commit's events are folded before the commit.
    func waitUntilFolded(_ position: UInt64) async throws {}

    func headPosition(in txn: ReadTransaction) throws -> UInt64 { try log.headPosition(in: txn).rawValue }

    /// Folds what remains up to the head inside one write transaction of the log's environment —
    /// no append can commit meanwhile — and puts the read models back into inline folding in that
    /// same transaction.
    func finishRebuild(_ kinds: Set<ReadModelKind>, control: ReadModelControl) async throws -> UInt64 {
        try store.environment.write { txn in
            let head = try foldRemainder(kinds, .live, txn)
            for kind in kinds {
                try store.setCheckpoint(kind, .init(position: head, codeVersion: kind.codeVersion, rebuilding: false), txn)
            }
            control.goLive(kinds)
            return head
        }
    }

    var catchesUpLiveReadModels: Bool { false }

    func upgradeTarget(_ kinds: Set<ReadModelKind>) async throws -> UInt64 { try await log.headPosition().rawValue }

    /// The same for an upgrade: what remains is folded into the next tables, and they switch in,
    /// in one write transaction (the caller empties the old tables afterwards).
    func finishUpgrade(_ kinds: Set<ReadModelKind>, control: ReadModelControl) async throws -> UInt64? {
        try store.environment.write { txn in
            let head = try foldRemainder(kinds, .next, txn)
            try store.switchToNext(kinds, at: head, txn)
            control.goLive(kinds)
            return head
        }
    }

    /// Folds every event after the checkpoints of `kinds` (their live or next tables) up to the
    /// head into those tables, in `txn`; returns the head.
    private func foldRemainder(_ kinds: Set<ReadModelKind>, _ build: ReadModelStore.Build, _ txn: WriteTransaction) throws -> UInt64 {
        var projections = store.projectionSet(try store.slots(txn), next: build == .next ? kinds : [], active: kinds)
        var checkpoints: [ReadModelKind: UInt64] = [:]
        for kind in kinds { checkpoints[kind] = try store.checkpoint(kind, build, txn)?.position ?? 0 }
        let from = checkpoints.values.min() ?? 0
        let head = try log.headPosition(in: txn).rawValue
        var memo = payloads.keyMemo(events: .max)
        try log.scan(in: txn, after: Position(from)) { envelope, _, payload in
            guard let fold = try FoldEvent.decode(envelope, payload: payload, payloads, remembering: &memo) else { return true }
            projections.active = kinds.filter { checkpoints[$0, default: 0] < fold.position }
            try projections.apply(fold, txn)
            return true
        }
        projections.active = kinds
        try projections.flush(txn)
        return head
    }

    func close() async {}
}
