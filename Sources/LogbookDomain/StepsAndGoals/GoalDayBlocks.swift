import EventLog

/// What goal queries fold from a user's history — each day's steps, whether its goal was met,
/// and the last position that changed it — worked out a block of 32 days at a time
/// (``DayBlock``) and kept between queries (``KeptBlocks``) under its user and first day, the
/// stamps of its stats and goal records, the stamp of the user's defaults and the step source
/// chosen. Streaks, a goal week's streaks and the step collectibles then read a few stamps and
/// fold days in memory, instead of reading and resolving every day of the user's history again.
/// At most 16,384 blocks (about 1 KB each) are kept.
package enum GoalDayBlocks {
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
        /// The preferred step source, compared as bytes as the stats read model compares sources.
        var source: BytewiseString?
    }

    /// The kept blocks of one Logbook.
    package typealias Kept = KeptBlocks<Key, [Day]>

    /// A store of kept blocks of the stated size.
    package static func kept() -> Kept { Kept(maxBlocks: 16_384) }
}
