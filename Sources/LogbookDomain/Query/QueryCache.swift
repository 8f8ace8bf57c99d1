import EventLog
import Synchronization

/// One cache's counters, as the status query reports them.
public struct CacheStatus: Sendable, Hashable, Codable {
    public var name: String
    public var entries: Int
    public var bytes: Int
    public var hits: Int
    public var misses: Int
    /// How many times an answer was computed (less than misses when identical queries shared one).
    public var computed: Int
    /// The position of the last commit that removed entries from this cache (0: none yet).
    public var lastInvalidatingPosition: UInt64
}

/// Computed query answers, keyed by query and parameters, per user.
///
/// - Invalidation is exact: a commit removes the entries of the users it touched, in the caches
///   that depend on the event types it carried (catalog changes: every user's places entries).
///   It runs after the commit and before any appender is answered, so no cache answers older
///   than the caller's own acknowledged write.
/// - An answer computed from a snapshot taken before an invalidation is returned but not kept.
/// - Identical concurrent queries share one computation (single flight).
/// - Each cache is bounded by entries and bytes; the oldest entries go first.
package final class QueryCache: Sendable {
    /// A cached answer's key: the user and the parameters are compared as bytes, as ids are
    /// everywhere (``BytewiseString``), so two ids Unicode calls equal never share an answer.
    package struct Key: Hashable, Sendable {
        var query: CachedQuery
        var user: BytewiseString
        var parameters: BytewiseString

        package init(query: CachedQuery, user: String, parameters: String) {
            self.query = query
            self.user = BytewiseString(user)
            self.parameters = BytewiseString(parameters)
        }
    }

    private struct Entry {
        var value: any Sendable
        /// The steps recorded while it was computed (``AnswerTrail``), replayed on each hit.
        var steps: [AnswerTrail.Step]
        var bytes: Int
        var serial: UInt64
    }

    /// A computed answer and the steps recorded while computing it.
    struct Computed: Sendable {
        var value: any Sendable
        var steps: [AnswerTrail.Step]
    }

    private struct Counters {
        var hits = 0
        var misses = 0
        var computed = 0
        var lastInvalidation: UInt64 = 0
        var bytes = 0
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The keys of each user's entries, to invalidate them without looking at everyone's.
        var keysByUser: [BytewiseString: Set<Key>] = [:]
        var order: [CachedQuery: [(serial: UInt64, key: Key)]] = [:]
        var counters: [CachedQuery: Counters] = [:]
        /// Computations running, each with the epochs it started under: a request joins one only
        /// if no invalidation happened since it started (else it would be handed what a commit it
        /// has seen already made stale).
        var inFlight: [Key: Flight] = [:]
        /// Bumped for (query, user) when a commit invalidates it while the user has cached entries
        /// or computations in flight; globally for catalog changes.
        var epochs: [EpochKey: UInt64] = [:]
        /// Users with computations in flight, and how many.
        var computing: [BytewiseString: Int] = [:]
        var catalogEpoch: UInt64 = 0
        /// Bumped by ``clear()``: nothing computed before it is kept.
        var generation: UInt64 = 0
        var serial: UInt64 = 0
    }

    /// A computation in flight and what it started under.
    struct Flight {
        var task: Task<Computed, any Error>
        var id: UInt64
        var epoch: UInt64
        var catalogEpoch: UInt64
        var generation: UInt64
    }

    private enum Lookup {
        case hit(Computed)
        case wait(Task<Computed, any Error>)
    }

    private let state = Mutex(State())
    private let enabled = Atomic<Bool>(true)
    package let maxEntries: Int
    package let maxBytes: Int

    package init(maxEntries: Int = 10_000, maxBytes: Int = 64 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    package struct EpochKey: Hashable {
        var query: CachedQuery
        var user: BytewiseString
    }

    private static func epochKey(_ query: CachedQuery, _ user: BytewiseString) -> EpochKey { EpochKey(query: query, user: user) }

    /// The cached answer for `key`, or the answer `compute` gives (shared with identical
    /// concurrent calls, and kept unless an invalidation happened meanwhile). What `compute`
    /// records in its ``AnswerTrail`` is kept with the answer and replayed into the caller's.
    package func value<V: Sendable>(_ key: Key, bytes: @escaping @Sendable (V) -> Int, compute: @escaping @Sendable () async throws -> V) async throws -> V {
        guard enabled.load(ordering: .relaxed) else { return try await compute() }
        let lookup: Lookup = state.withLock { state in
            if let entry = state.entries[key] {
                state.counters[key.query, default: Counters()].hits += 1
                return .hit(Computed(value: entry.value, steps: entry.steps))
            }
            state.counters[key.query, default: Counters()].misses += 1
            let epoch = state.epochs[Self.epochKey(key.query, key.user), default: 0]
            let catalogEpoch = state.catalogEpoch
            let generation = state.generation
            if let running = state.inFlight[key], running.epoch == epoch, running.generation == generation,
               !key.query.dependsOnCatalog || running.catalogEpoch == catalogEpoch {
                return .wait(running.task)
            }
            state.serial += 1
            let id = state.serial
            state.counters[key.query, default: Counters()].computed += 1
            state.computing[key.user, default: 0] += 1
            let task = Task<Computed, any Error> { [self] in
                do {
                    let trail = AnswerTrail()
                    let value = try await AnswerTrail.$current.withValue(trail) { try await compute() }
                    let computed = Computed(value: value, steps: trail.recorded)
                    self.store(key, computed, bytes: bytes(value), flight: id, epoch: epoch, catalogEpoch: catalogEpoch, generation: generation)
                    return computed
                } catch {
                    self.state.withLock { state in
                        if state.inFlight[key]?.id == id { state.inFlight[key] = nil }
                        Self.doneComputing(key.user, &state)
                    }
                    throw error
                }
            }
            state.inFlight[key] = Flight(task: task, id: id, epoch: epoch, catalogEpoch: catalogEpoch, generation: generation)
            return .wait(task)
        }
        let computed: Computed
        switch lookup {
        case .hit(let hit): computed = hit
        case .wait(let task): computed = try await task.value
        }
        AnswerTrail.replay(computed.steps)
        return computed.value as! V
    }

    private func store(_ key: Key, _ computed: Computed, bytes: Int, flight: UInt64, epoch: UInt64, catalogEpoch: UInt64, generation: UInt64) {
        state.withLock { state in
            // A later computation of the same key may have taken this one's place: leave it.
            if state.inFlight[key]?.id == flight { state.inFlight[key] = nil }
            Self.doneComputing(key.user, &state)
            guard state.generation == generation, state.epochs[Self.epochKey(key.query, key.user), default: 0] == epoch,
                  !key.query.dependsOnCatalog || state.catalogEpoch == catalogEpoch
            else { return }
            state.serial += 1
            state.entries[key] = Entry(value: computed.value, steps: computed.steps, bytes: bytes, serial: state.serial)
            state.keysByUser[key.user, default: []].insert(key)
            state.order[key.query, default: []].append((state.serial, key))
            state.counters[key.query, default: Counters()].bytes += bytes
            Self.evict(key.query, &state, maxEntries: maxEntries, maxBytes: maxBytes)
        }
    }

    private static func doneComputing(_ user: BytewiseString, _ state: inout State) {
        let remaining = (state.computing[user] ?? 1) - 1
        state.computing[user] = remaining > 0 ? remaining : nil
    }

    private static func evict(_ query: CachedQuery, _ state: inout State, maxEntries: Int, maxBytes: Int) {
        var queue = state.order[query] ?? []
        var count = queue.count
        var dropped = 0
        while (count > maxEntries || state.counters[query, default: Counters()].bytes > maxBytes), dropped < queue.count {
            let (serial, key) = queue[dropped]
            dropped += 1
            if let entry = state.entries[key], entry.serial == serial {
                state.entries[key] = nil
                state.keysByUser[key.user]?.remove(key)
                state.counters[query, default: Counters()].bytes -= entry.bytes
                count -= 1
            }
        }
        if dropped > 0 { queue.removeFirst(dropped) }
        // Forget queue slots of entries that were invalidated or replaced.
        if queue.count > 2 * max(maxEntries, 1) {
            queue = queue.filter { state.entries[$0.key]?.serial == $0.serial }
        }
        state.order[query] = queue
    }

    /// Removes exactly what a commit made stale.
    package func invalidate(_ summary: CommitSummary) {
        state.withLock { state in
            if summary.catalogChanged { state.catalogEpoch += 1 }
            var removed: [CachedQuery: Bool] = [:]
            var stale: [Key] = []
            for (name, types) in summary.users {
                let user = BytewiseString(name)
                // Users with nothing cached and nothing being computed need no bookkeeping: any
                // computation that starts from now on reads the committed state.
                let cached = state.keysByUser[user]
                guard cached?.isEmpty == false || state.computing[user] != nil else { continue }
                for query in ReadModelRegistry.cachedQueries where query.dependsOn.intersects(types) {
                    state.epochs[Self.epochKey(query, user), default: 0] += 1
                }
                for key in cached ?? [] where key.query.dependsOn.intersects(types) { stale.append(key) }
            }
            if summary.catalogChanged {
                stale += state.entries.keys.filter { $0.query.dependsOnCatalog }
            }
            for key in stale {
                if let entry = state.entries.removeValue(forKey: key) {
                    state.counters[key.query, default: Counters()].bytes -= entry.bytes
                    state.keysByUser[key.user]?.remove(key)
                    removed[key.query] = true
                }
            }
            for query in removed.keys where removed[query] == true {
                state.counters[query, default: Counters()].lastInvalidation = summary.position
            }
            if summary.catalogChanged {
                for query in ReadModelRegistry.cachedQueries where query.dependsOnCatalog {
                    state.counters[query, default: Counters()].lastInvalidation = summary.position
                }
            }
        }
    }

    /// Counters of every cache.
    package func status() -> [CacheStatus] {
        state.withLock { state in
            ReadModelRegistry.cachedQueries.map { query in
                let counters = state.counters[query] ?? Counters()
                return CacheStatus(
                    name: query.name, entries: state.entries.keys.filter { $0.query == query }.count, bytes: counters.bytes,
                    hits: counters.hits, misses: counters.misses, computed: counters.computed,
                    lastInvalidatingPosition: counters.lastInvalidation)
            }
        }
    }

    /// Turns caching on or off (off: every query is computed, nothing is kept).
    package func setEnabled(_ on: Bool) {
        enabled.store(on, ordering: .relaxed)
        if !on { clear() }
    }

    /// Forgets every entry (after a rebuild).
    package func clear() {
        state.withLock { state in
            state.entries.removeAll()
            state.keysByUser.removeAll()
            state.order.removeAll()
            for query in ReadModelRegistry.cachedQueries { state.counters[query, default: Counters()].bytes = 0 }
            state.generation += 1
        }
    }
}
