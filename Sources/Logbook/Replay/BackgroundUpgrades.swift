import Synchronization

/// The upgrades in the background that are running, each a task building some read models' next
/// version: so that a rebuild of the same read models (which makes them current anyway) and
/// closing the Logbook can stop them first.
final class BackgroundUpgrades: Sendable {
    private struct Running: Sendable {
        var kinds: Set<ReadModelKind>
        var task: Task<Void, any Error>
    }

    private let running = Mutex<[Int: Running]>([:])
    private let nextId = Atomic<Int>(0)

    /// Runs `work` as a task of its own, registered until it ends.
    @discardableResult
    func start(_ kinds: Set<ReadModelKind>, _ work: @escaping @Sendable () async throws -> Void) -> Task<Void, any Error> {
        let id = nextId.add(1, ordering: .relaxed).newValue
        return running.withLock { running in
            let task = Task {
                defer { _ = self.running.withLock { $0.removeValue(forKey: id) } }
                try await work()
            }
            running[id] = Running(kinds: kinds, task: task)
            return task
        }
    }

    /// Cancels the upgrades of any of `kinds` (nil: every upgrade) and waits until they stop;
    /// returns every read model those upgrades were building and did not finish (one that switched
    /// in before it saw the cancellation has nothing left to resume).
    @discardableResult
    func stop(overlapping kinds: Set<ReadModelKind>?) async -> Set<ReadModelKind> {
        let stopped = running.withLock { running in
            running.values.filter { upgrade in kinds.map { !upgrade.kinds.isDisjoint(with: $0) } ?? true }
        }
        for upgrade in stopped { upgrade.task.cancel() }
        var unfinished: Set<ReadModelKind> = []
        for upgrade in stopped {
            if case .failure = await upgrade.task.result { unfinished.formUnion(upgrade.kinds) }
        }
        return unfinished
    }
}
