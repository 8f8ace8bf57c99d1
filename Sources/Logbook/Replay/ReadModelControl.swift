import Synchronization

/// Which projections fold inline, shared by the writer thread's inline projector and rebuilds.
///
/// A rebuilding projection is skipped inline; when its rebuild has caught up (inside a write
/// transaction, so no append commits in between) it goes live again with a new generation, and
/// the inline projector drops whatever it had cached of it.
final class ReadModelControl: Sendable {
    struct State: Sendable {
        /// Not folded inline: a rebuild owns them.
        var rebuilding: Set<ReadModelKind> = []
        /// A rebuild task is running for them.
        var running: Set<ReadModelKind> = []
        var generation: [ReadModelKind: Int] = [:]
    }

    private let state = Mutex(State())

    var snapshot: State { state.withLock { $0 } }

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

    /// Puts projections back into inline folding (call inside the write transaction that
    /// caught them up to the head).
    func goLive(_ kinds: Set<ReadModelKind>) {
        state.withLock { state in
            state.rebuilding.subtract(kinds)
            for kind in kinds { state.generation[kind, default: 0] += 1 }
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
