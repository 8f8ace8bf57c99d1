import Synchronization

/// Which projections fold inline, shared by the writer thread's inline projector and rebuilds.
///
/// A rebuilding projection is skipped inline; when its rebuild has caught up (inside a write
/// transaction, so no append commits in between) it goes live again with a new generation, and
/// the inline projector drops whatever it had cached of it. A projection upgrading in the
/// background stays live (its old version keeps answering and folding) until its next version
/// switches in, again with a new generation: whoever folds then reads which tables are live anew.
final class ReadModelControl: Sendable {
    struct State: Sendable {
        /// Not folded inline: a rebuild owns them.
        var rebuilding: Set<ReadModelKind> = []
        /// A rebuild task is running for them.
        var running: Set<ReadModelKind> = []
        var generation: [ReadModelKind: Int] = [:]
        /// The code version the live tables were built with, for projections whose live tables
        /// an older version built and an upgrade in the background replaces: their checkpoints
        /// keep saying so until the switch.
        var liveCodeVersion: [ReadModelKind: Int] = [:]
        /// An upgrade in the background is running for them.
        var upgrading: Set<ReadModelKind> = []
        /// An erasure is removing users from every read model: until it is done, the live
        /// tables still hold the users whose keys it destroyed.
        var erasing = false

        /// The code version to record in `kind`'s live checkpoint.
        func codeVersion(_ kind: ReadModelKind) -> Int { liveCodeVersion[kind] ?? kind.codeVersion }
    }

    private let state = Mutex(State())

    var snapshot: State { state.withLock { $0 } }

    /// True if none of `kinds` is out of live folding, neither when `before` was taken nor now,
    /// and none went live again in between: a rebuild in place takes its read models out before
    /// it empties their tables and puts them back, with a new generation, once they are whole, so
    /// whatever was read of them between the two was read whole.
    func stayedLive(_ kinds: Set<ReadModelKind>, since before: State) -> Bool {
        let now = snapshot
        return before.rebuilding.isDisjoint(with: kinds) && now.rebuilding.isDisjoint(with: kinds)
            && kinds.allSatisfy { before.generation[$0] == now.generation[$0] }
    }

    /// Takes projections out of inline folding for a rebuild; false if a rebuild of one of them
    /// is already running.
    func beginRebuild(_ kinds: Set<ReadModelKind>) -> Bool {
        state.withLock { state in
            guard state.running.isDisjoint(with: kinds) else { return false }
            state.running.formUnion(kinds)
            state.rebuilding.formUnion(kinds)
            return true
        }
    }

    /// Puts projections back into live folding, built by this code version (call inside the
    /// write transaction that caught them up to the head, or that switched their next version in:
    /// those tables are complete, whatever the old ones did).
    func goLive(_ kinds: Set<ReadModelKind>) {
        state.withLock { state in
            state.rebuilding.subtract(kinds)
            for kind in kinds {
                state.generation[kind, default: 0] += 1
                state.liveCodeVersion[kind] = nil
            }
        }
    }

    /// Gives `kinds` a new generation without taking them out of live folding: their records
    /// changed outside a fold (an erasure deleted a user's), so whoever folds them forgets what it
    /// cached of them, as after a rebuild.
    func invalidateCaches(_ kinds: Set<ReadModelKind>) {
        state.withLock { state in
            for kind in kinds { state.generation[kind, default: 0] += 1 }
        }
    }

    /// Records that the live tables of `kinds` were built by other code versions.
    func keepLiveCodeVersions(_ versions: [ReadModelKind: Int]) {
        state.withLock { $0.liveCodeVersion.merge(versions) { $1 } }
    }

    /// Starts an upgrade in the background of `kinds` (an erasure's, `erasing`: see
    /// ``State/erasing``); false if a rebuild or upgrade of one of them is already running.
    func beginUpgrade(_ kinds: Set<ReadModelKind>, erasing: Bool = false) -> Bool {
        state.withLock { state in
            guard state.running.isDisjoint(with: kinds) else { return false }
            state.running.formUnion(kinds)
            state.upgrading.formUnion(kinds)
            if erasing { state.erasing = true }
            return true
        }
    }

    /// Takes live tables an older code version built out of live folding: the running code
    /// failed to fold into them (their stored form changed). They stay out until their upgrade
    /// switches the new version in.
    func suspend(_ kinds: Set<ReadModelKind>) {
        state.withLock { $0.rebuilding.formUnion(kinds) }
    }

    /// Ends an upgrade task, switched or not (and, `erasing`, the erasure's).
    func endUpgrade(_ kinds: Set<ReadModelKind>, erasing: Bool = false) {
        state.withLock { state in
            state.running.subtract(kinds)
            state.upgrading.subtract(kinds)
            if erasing { state.erasing = false }
        }
    }

    /// Ends a rebuild task. If it failed, the projections stay out of inline folding (their
    /// checkpoints say so too) until a rebuild finishes them.
    func endRebuild(_ kinds: Set<ReadModelKind>, live: Bool) {
        state.withLock { state in
            state.running.subtract(kinds)
            if !live { state.rebuilding.formUnion(kinds) }
        }
    }
}
