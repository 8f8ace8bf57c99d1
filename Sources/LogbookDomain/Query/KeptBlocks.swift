import EventLog
import Synchronization

/// What a query works out from one block of a user's days (``DayBlock``), kept between queries
/// under a key naming everything it was made from — the user, the block, the stamps of the
/// records it read, and the query's own choices — so a block is worked out again only once it
/// changed: the same key means the same records, so a kept value is exact.
///
/// Bounded: at most ``maxBlocks`` values, the oldest kept first to go. Forget everything
/// (``clear()``) when the read models are replaced (a rebuild, an upgrade, an erasure), whose
/// stamps start again; a query finds and keeps values through ``pinned()``, taken before its
/// transaction begins, so one that read the read models from before a clear neither finds nor
/// keeps values after it.
package final class KeptBlocks<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var values: [Key: Value] = [:]
        var order: [Key] = []
        var evicted = 0
        /// How many times everything was forgotten.
        var generation: UInt64 = 0
    }

    /// The values as one query sees them: of the generation current when it was pinned.
    package struct Pinned: Sendable {
        let blocks: KeptBlocks
        let generation: UInt64

        func value(_ key: Key) -> Value? { blocks.value(key, generation) }
        func keep(_ value: Value, under key: Key) { blocks.keep(value, under: key, generation) }
    }

    private let state = Mutex(State())
    package let maxBlocks: Int

    package init(maxBlocks: Int) {
        self.maxBlocks = max(1, maxBlocks)
    }

    /// The values of the current generation, for one query (pin before its transaction begins).
    package func pinned() -> Pinned { Pinned(blocks: self, generation: state.withLock { $0.generation }) }

    /// The value kept under `key`, if any and if nothing was forgotten since `generation`.
    private func value(_ key: Key, _ generation: UInt64) -> Value? {
        state.withLock { $0.generation == generation ? $0.values[key] : nil }
    }

    /// Keeps `value` under `key` unless everything was forgotten since `generation`, letting the
    /// oldest values go past ``maxBlocks``.
    private func keep(_ value: Value, under key: Key, _ generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation, state.values.updateValue(value, forKey: key) == nil else { return }
            state.order.append(key)
            while state.values.count > maxBlocks, state.evicted < state.order.count {
                state.values[state.order[state.evicted]] = nil
                state.evicted += 1
            }
            if state.evicted > maxBlocks {
                state.order.removeFirst(state.evicted)
                state.evicted = 0
            }
        }
    }

    /// How many values are kept.
    package var count: Int { state.withLock { $0.values.count } }

    /// Forgets every value; queries pinned before keep none.
    package func clear() {
        state.withLock { $0 = State(generation: $0.generation &+ 1) }
    }
}
