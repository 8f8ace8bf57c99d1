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
            var view = DecisionView(state: ReadModelState(projections: store.projectionSet(), transaction: snapshot.transaction), streamVersions: versions)
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
            var projections = store.projectionSet(active: kinds)
            var checkpoints: [ReadModelKind: UInt64] = [:]
            for kind in kinds { checkpoints[kind] = try store.checkpoint(kind, txn)?.position ?? 0 }
            let from = checkpoints.values.min() ?? 0
            let head = try log.headPosition(in: txn).rawValue
            try log.scan(in: txn, after: Position(from)) { envelope, _, payload in
                guard let fold = try FoldEvent.decode(envelope, payload: payload, payloads) else { return true }
                projections.active = kinds.filter { checkpoints[$0, default: 0] < fold.position }
                try projections.apply(fold, txn)
                return true
            }
            projections.active = kinds
            try projections.flush(txn)
            for kind in kinds {
                try store.setCheckpoint(kind, .init(position: head, codeVersion: kind.codeVersion, rebuilding: false), txn)
            }
            control.goLive(kinds)
            return head
        }
    }

    func close() async {}
}
