import LogbookStorage
import Synchronization

/// Read models a replay folds together, on one task: a replay folds its groups side by side, each
/// over the same decoded events, so the cores share the folding as well as the decoding. Read
/// models are independent of each other (each rebuilds alone), so their order across groups does
/// not matter; within a group they fold in registry order, as everywhere.
final class FoldGroup: Sendable {
    let kinds: Set<ReadModelKind>
    /// The group's read models: touched by one task at a time (the replay waits for every group
    /// before it flushes them), the lock only hands them over between tasks.
    private let projections: Mutex<ReadModelSet>

    init(kinds: Set<ReadModelKind>, projections: ReadModelSet) {
        self.kinds = kinds
        self.projections = Mutex(projections)
    }

    /// The groups `kinds` fold in: each read model that folds apart (``ReadModelKind/foldsApart``)
    /// alone, the others together.
    static func split(_ kinds: Set<ReadModelKind>) -> [Set<ReadModelKind>] {
        let apart = kinds.filter(\.foldsApart).sorted()
        let together = kinds.subtracting(apart)
        return (together.isEmpty ? [] : [together]) + apart.map { [$0] }
    }

    /// Folds `parts`, in order, into the read models of the group whose checkpoint is before each
    /// event (all of them when `behindAll`), reading their tables in a read transaction of `store`.
    func fold(_ parts: [[FoldEvent]], after checkpoints: [ReadModelKind: UInt64], behindAll: Bool, in store: ReadModelStore) throws {
        let kinds = self.kinds
        try projections.withLock { projections in
            defer { projections.active = kinds }
            try store.environment.read { txn in
                projections.active = kinds
                for part in parts {
                    for index in part.indices {
                        if !behindAll { projections.active = kinds.filter { checkpoints[$0, default: 0] < part[index].position } }
                        try projections.apply(part[index], txn)
                    }
                }
            }
        }
    }

    /// Runs `body` with the group's read models (to flush them, or forget their caches).
    func withProjections<R>(_ body: (inout ReadModelSet) throws -> R) rethrows -> R {
        try projections.withLock { try body(&$0) }
    }
}
