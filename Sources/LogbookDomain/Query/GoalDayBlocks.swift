import EventLog
import Synchronization

/// What goal queries fold from a user's history — each day's steps, whether its goal was met,
/// and the last position that changed it — worked out a block of 32 days at a time
/// (``DayBlock``) and kept between queries under the stamps of the records each block was made
/// from. Streaks, a goal week's streaks and the step collectibles then read a few stamps and
/// fold days in memory, instead of reading and resolving every day of the user's history again.
///
/// A block is kept under its user and first day, the stamps of its stats and goal records, the
/// stamp of the user's defaults and the step source chosen: the same key means the same
/// records, so a kept block is exact. Bounded: at most ``maxBlocks`` blocks (about 1 KB each),
/// the oldest kept first to go. Forget everything (``clear()``) when the read models are
/// replaced (a rebuild, an upgrade, an erasure), whose stamps start again; a query reads and
/// keeps blocks through ``pinned()``, taken before its transaction begins, so one that read the
/// read models from before a clear neither finds nor keeps blocks after it.
package final class GoalDayBlocks: Sendable {
    /// One day of a block.
    package struct Day: Sendable, Equatable {
        /// The day's steps (from the step source chosen).
        var steps: Int
        /// The last position that changed the day's stats; 0: the day has no stats (no data).
        var lastPosition: UInt64
        var met: Bool
    }

    /// What a block was made from.
    package struct Key: Hashable, Sendable {
        var user: BytewiseString
        var first: Int32
        var stats: UInt64
        var goals: UInt64
        var defaults: UInt64
        var source: String?
    }

    private struct State {
        var blocks: [Key: [Day]] = [:]
        var order: [Key] = []
        var evicted = 0
        /// How many times everything was forgotten.
        var generation: UInt64 = 0
    }

    /// The blocks as one query sees them: of the generation current when it was pinned.
    package struct Pinned: Sendable {
        let blocks: GoalDayBlocks
        let generation: UInt64

        func block(_ key: Key) -> [Day]? { blocks.block(key, generation) }
        func keep(_ days: [Day], under key: Key) { blocks.keep(days, under: key, generation) }
    }

    private let state = Mutex(State())
    package let maxBlocks: Int

    package init(maxBlocks: Int = 16_384) {
        self.maxBlocks = max(1, maxBlocks)
    }

    /// The blocks of the current generation, for one query (pin before its transaction begins).
    package func pinned() -> Pinned { Pinned(blocks: self, generation: state.withLock { $0.generation }) }

    /// The block kept under `key`, if any and if nothing was forgotten since `generation`.
    private func block(_ key: Key, _ generation: UInt64) -> [Day]? {
        state.withLock { $0.generation == generation ? $0.blocks[key] : nil }
    }

    /// Keeps `days` under `key` unless everything was forgotten since `generation`, letting the
    /// oldest blocks go past ``maxBlocks``.
    private func keep(_ days: [Day], under key: Key, _ generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation, state.blocks.updateValue(days, forKey: key) == nil else { return }
            state.order.append(key)
            while state.blocks.count > maxBlocks, state.evicted < state.order.count {
                state.blocks[state.order[state.evicted]] = nil
                state.evicted += 1
            }
            if state.evicted > maxBlocks {
                state.order.removeFirst(state.evicted)
                state.evicted = 0
            }
        }
    }

    /// How many blocks are kept.
    package var count: Int { state.withLock { $0.blocks.count } }

    /// Forgets every block; queries pinned before keep none.
    package func clear() {
        state.withLock { $0 = State(generation: $0.generation &+ 1) }
    }
}
