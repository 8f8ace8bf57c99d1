import EventLog
import LMDB
import LogbookStorage

extension ReadModelSet {
    /// Folds `fold` into the active read models, those in `older` each on its own: their live
    /// tables were built by an older code version (an upgrade replaces them), and if the running
    /// code cannot fold into them (their stored form changed), that must fail them alone — not
    /// the append, nor the other read models. Returns the ones that failed, left out of ``active``
    /// (what they hold of this fold is dropped with their cache by the caller).
    mutating func apply(_ fold: FoldEvent, _ txn: ReadTransaction, isolating older: Set<ReadModelKind>) throws -> Set<ReadModelKind> {
        if older.isEmpty {
            try apply(fold, txn)
            return []
        }
        let active = self.active
        let isolated = active.intersection(older)
        if isolated.isEmpty {
            try apply(fold, txn)
            return []
        }
        self.active = active.subtracting(isolated)
        try apply(fold, txn)
        var failed: Set<ReadModelKind> = []
        for kind in isolated.sorted() {
            self.active = [kind]
            do { try apply(fold, txn) } catch { failed.insert(kind) }
        }
        self.active = active.subtracting(failed)
        return failed
    }
}

extension ReadModelControl {
    /// Takes read models whose older tables the running code failed to fold into out of live
    /// folding, their checkpoints marked as rebuilding in `txn` (`/ready` says so), until their
    /// upgrade switches the new version in.
    func suspend(_ kinds: Set<ReadModelKind>, store: ReadModelStore, _ txn: WriteTransaction) throws {
        for kind in kinds {
            guard var checkpoint = try store.checkpoint(kind, txn) else { continue }
            checkpoint.rebuilding = true
            try store.setCheckpoint(kind, checkpoint, txn)
        }
        suspend(kinds)
    }
}
