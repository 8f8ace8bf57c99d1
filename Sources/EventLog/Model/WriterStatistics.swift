import Synchronization

/// Counters of the writer's work, for metrics and benchmarks.
public final class WriterStatistics: Sendable {
    package init() {}

    private let transactionsCounter = Atomic<Int>(0)
    private let eventsCounter = Atomic<Int>(0)
    private let appendsCounter = Atomic<Int>(0)
    private let rejectedCounter = Atomic<Int>(0)

    /// Write transactions committed (each one `fsync` in durable mode).
    public var transactions: Int { transactionsCounter.load(ordering: .relaxed) }
    /// Events written.
    public var events: Int { eventsCounter.load(ordering: .relaxed) }
    /// Appends (requests) committed, including idempotent repeats.
    public var appends: Int { appendsCounter.load(ordering: .relaxed) }
    /// Appends refused for a conflict.
    public var rejected: Int { rejectedCounter.load(ordering: .relaxed) }

    /// Upper bounds of the commit-size buckets: 1, 2, 4, … 2¹⁶ events, then everything larger.
    public static let commitSizeBounds: [Int] = (0...16).map { 1 << $0 }
    private let commitSizeBuckets = Mutex([Int](repeating: 0, count: 18))

    /// How many commits wrote at most each of ``commitSizeBounds`` events (not cumulative; the
    /// last entry counts commits larger than every bound).
    public var commitSizes: [Int] { commitSizeBuckets.withLock { $0 } }

    package func record(events: Int, appends: Int, rejected: Int) {
        let bucket = events <= 1 ? 0 : min(Self.commitSizeBounds.count, Int.bitWidth - (events - 1).leadingZeroBitCount)
        commitSizeBuckets.withLock { $0[bucket] += 1 }
        transactionsCounter.add(1, ordering: .relaxed)
        eventsCounter.add(events, ordering: .relaxed)
        appendsCounter.add(appends, ordering: .relaxed)
        rejectedCounter.add(rejected, ordering: .relaxed)
    }
}
