import EventLog
import LMDB

/// How far a rebuild has come, for progress bars.
public struct RebuildProgress: Sendable, Hashable {
    public var projections: [ProjectionKind]
    /// The last position folded.
    public var position: UInt64
    /// The head of the log when the rebuild started (it may grow meanwhile).
    public var head: UInt64
    public var eventsFolded: Int
    public var finished: Bool
}

/// Rebuilding read models from the log: in chunks (one checkpoint per chunk), cancellable and
/// resumable, into the live store (then catching up inside a write transaction and going live)
/// or into a scratch store (for `verify`).
struct Replayer: Sendable {
    let log: LMDBEventStore
    let chunkSize: Int

    /// Folds events after each projection's checkpoint up to `end` into `store`, one write
    /// transaction and one checkpoint per chunk; returns the last position folded.
    func fold(
        _ kinds: Set<ProjectionKind>, into store: ReadModelStore, through end: UInt64,
        progress: (RebuildProgress) -> Void
    ) async throws -> UInt64 {
        var checkpoints: [ProjectionKind: UInt64] = [:]
        try store.environment.read { txn in
            for kind in kinds { checkpoints[kind] = try store.checkpoint(kind, txn)?.position ?? 0 }
        }
        var position = checkpoints.values.min() ?? end
        var projections = store.projectionSet(active: kinds)
        var folded = 0
        let ordered = kinds.sorted()
        while position < end {
            try Task.checkCancellation()
            var chunk: [FoldEvent] = []
            chunk.reserveCapacity(min(chunkSize, Int(end - position)))
            try log.scan(after: Position(position), through: Position(end), chunkSize: chunkSize) { envelope, _, payload in
                if let fold = try FoldEvent.decode(envelope, payload: payload) { chunk.append(fold) }
                return chunk.count < chunkSize
            }
            let last = chunk.last?.position ?? end
            do {
                try store.environment.read { txn in
                    for fold in chunk {
                        projections.active = kinds.filter { checkpoints[$0, default: 0] < fold.position }
                        try projections.apply(fold, txn)
                    }
                }
                projections.active = kinds
                try store.environment.write { txn in
                    try projections.flush(txn)
                    for kind in kinds where checkpoints[kind, default: 0] < last {
                        try store.setCheckpoint(kind, .init(position: last, codeVersion: kind.codeVersion, rebuilding: true), txn)
                        checkpoints[kind] = last
                    }
                }
            } catch {
                projections.dropCache()
                throw error
            }
            if projections.cachedCount > 500_000 { projections.dropCache() }
            folded += chunk.count
            position = last
            progress(RebuildProgress(projections: ordered, position: position, head: end, eventsFolded: folded, finished: false))
        }
        return position
    }

    /// Prepares `kinds` for a rebuild: empties them (from scratch) or keeps their checkpoints
    /// (resuming), and marks them as rebuilding.
    func prepare(_ kinds: Set<ProjectionKind>, in store: ReadModelStore, fresh: Bool) throws {
        try store.environment.write { txn in
            for kind in kinds {
                let current = try store.checkpoint(kind, txn)
                let resumable = !fresh && current?.rebuilding == true && current?.codeVersion == kind.codeVersion
                let stale = current.map { $0.codeVersion != kind.codeVersion } ?? false
                if resumable { continue }
                if fresh || stale || current == nil {
                    try store.clear(kind, txn)
                    try store.setCheckpoint(kind, .init(position: 0, codeVersion: kind.codeVersion, rebuilding: true), txn)
                } else if let current {
                    // Catching up a live projection that fell behind: keep its tables and position.
                    try store.setCheckpoint(kind, .init(position: current.position, codeVersion: kind.codeVersion, rebuilding: true), txn)
                }
            }
        }
    }

    /// Folds what remains up to the head inside one write transaction — no append can commit
    /// meanwhile — and puts the projections back into inline folding in that same transaction.
    func finishLive(_ kinds: Set<ProjectionKind>, store: ReadModelStore, control: ProjectionControl) throws -> UInt64 {
        try store.environment.write { txn in
            var projections = store.projectionSet(active: kinds)
            var checkpoints: [ProjectionKind: UInt64] = [:]
            for kind in kinds { checkpoints[kind] = try store.checkpoint(kind, txn)?.position ?? 0 }
            let from = checkpoints.values.min() ?? 0
            let head = try log.headPosition(in: txn).rawValue
            try log.scan(in: txn, after: Position(from)) { envelope, _, payload in
                guard let fold = try FoldEvent.decode(envelope, payload: payload) else { return true }
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
}
