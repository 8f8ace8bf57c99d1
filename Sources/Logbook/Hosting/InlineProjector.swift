import EventLog
import EventLogLMDB
import LMDB
import Synchronization
import LogbookStorage

/// The inline projections: folds every committed batch into the live read models inside the
/// log's write transaction (so read models commit atomically with their events), moves each live
/// projection's checkpoint, and tells the query caches what changed once the commit is durable.
final class InlineProjector: LogCommitObserver {
    private struct State: Sendable {
        var projections: ReadModelSet
        var generations: [ReadModelKind: Int] = [:]
        /// Which tables are live must be read again (a generation changed).
        var stale = true
        var pending = CommitSummary()
        /// Set between a fold and the end of its transaction: still set at the next fold, it means
        /// the transaction was rolled back and run again, and the caches hold the rolled-back fold.
        var inFlight = false
    }

    private let store: ReadModelStore
    private let control: ReadModelControl
    private let payloads: PayloadKeys
    private let committed: @Sendable (CommitSummary) -> Void
    private let state: Mutex<State>
    /// Past this many cached records, caches are dropped after a commit.
    private let cacheLimit: Int

    init(
        store: ReadModelStore, control: ReadModelControl, payloads: PayloadKeys, cacheLimit: Int = 200_000,
        committed: @escaping @Sendable (CommitSummary) -> Void
    ) {
        self.store = store
        self.control = control
        self.payloads = payloads
        self.committed = committed
        self.cacheLimit = cacheLimit
        state = Mutex(State(projections: store.projectionSet(.init())))
    }

    func logWillCommit(_ batch: borrowing CommittedBatch, in transaction: WriteTransaction) throws {
        let control = self.control.snapshot
        var live = Set(ReadModelKind.allCases).subtracting(control.rebuilding)
        let older = Set(control.liveCodeVersion.keys)
        try state.withLock { state in
            if state.inFlight { state.projections.dropCache() }
            state.inFlight = true
            // A projection that was rebuilt meanwhile: what is cached of it is stale. One that an
            // upgrade switched lives in its other tables now: read which, in this transaction.
            for kind in ReadModelKind.allCases where state.generations[kind, default: 0] != control.generation[kind, default: 0] {
                state.projections.dropCache([kind])
                state.generations[kind] = control.generation[kind, default: 0]
                state.stale = true
            }
            if state.stale {
                state.projections = try store.projectionSet(transaction)
                state.stale = false
            }
            state.projections.active = live
            var summary = CommitSummary(position: batch.lastPosition.rawValue)
            // The batch's users' keys, looked up once per user and batch.
            let events = Int(batch.lastPosition.rawValue - batch.firstPosition.rawValue) + 1
            var memo = payloads.keyMemo(events: events)
            try batch.forEach { envelope, _, payload, decoded in
                // Commands hand over the value they encoded — unless its user was erased since.
                if let user = envelope.header.subject, try payloads.isErased(user, remembering: &memo) { return }
                let known = (decoded as? DomainEvent).map { FoldEvent(position: envelope.position.rawValue, envelope: envelope, event: $0) }
                guard let fold = try known ?? FoldEvent.decode(envelope, payload: payload, payloads, remembering: &memo) else { return }
                let failed = try state.projections.apply(fold, transaction, isolating: older)
                if !failed.isEmpty {
                    live.subtract(failed)
                    state.projections.dropCache(failed)
                    try self.control.suspend(failed, store: store, transaction)
                }
                summary.add(fold)
            }
            state.projections.active = live
            try state.projections.flush(transaction)
            try store.setLiveCheckpoints(live, position: batch.lastPosition.rawValue, codeVersion: control.codeVersion, transaction)
            state.pending = summary
        }
    }

    func logDidCommit() {
        let summary = state.withLock { state in
            state.inFlight = false
            state.projections.markFlushed()
            if state.projections.cachedCount > cacheLimit { state.projections.dropCache() }
            defer { state.pending = CommitSummary() }
            return state.pending
        }
        if !summary.isEmpty { committed(summary) }
    }

    func logDidAbort() {
        state.withLock { state in
            state.inFlight = false
            state.projections.dropCache()
            state.pending = CommitSummary()
        }
    }
}
