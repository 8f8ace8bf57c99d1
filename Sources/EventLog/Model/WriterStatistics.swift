import Synchronization

/// Counters of the writer's work, for metrics and benchmarks.
public final class WriterStatistics: Sendable {
    package init() {}

    private let transactionsCounter = Atomic<Int>(0)
    private let eventsCounter = Atomic<Int>(0)
    private let appendsCounter = Atomic<Int>(0)
    private let rejectedCounter = Atomic<Int>(0)
    private let commitMicrosecondsCounter = Atomic<Int>(0)
    private let waitingCounter = Atomic<Int>(0)

    /// Write transactions committed (each one `fsync` in durable mode).
    public var transactions: Int { transactionsCounter.load(ordering: .relaxed) }
    /// Events written.
    public var events: Int { eventsCounter.load(ordering: .relaxed) }
    /// Appends (requests) committed, including idempotent repeats.
    public var appends: Int { appendsCounter.load(ordering: .relaxed) }
    /// Appends refused for a conflict.
    public var rejected: Int { rejectedCounter.load(ordering: .relaxed) }
    /// Microseconds spent in committed write transactions, summed (with ``transactions``, the mean
    /// commit latency over any interval).
    public var commitMicroseconds: Int { commitMicrosecondsCounter.load(ordering: .relaxed) }
    /// Appends handed to the writer and not answered yet: the writer's queue, including the
    /// transaction being committed.
    public var waitingAppends: Int { max(0, waitingCounter.load(ordering: .relaxed)) }

    /// Upper bounds of the commit-size buckets: 1, 2, 4, … 2¹⁶ events, then everything larger.
    public static let commitSizeBounds: [Int] = (0...16).map { 1 << $0 }
    private let commitSizeBuckets = Mutex([Int](repeating: 0, count: 18))

    /// How many commits wrote at most each of ``commitSizeBounds`` events (not cumulative; the
    /// last entry counts commits larger than every bound).
    public var commitSizes: [Int] { commitSizeBuckets.withLock { $0 } }

    /// `appends` more appends wait for the writer.
    package func enqueued(_ appends: Int) {
        waitingCounter.add(appends, ordering: .relaxed)
    }

    /// `appends` of the waiting appends have their answer (committed or failed).
    package func answered(_ appends: Int) {
        waitingCounter.subtract(appends, ordering: .relaxed)
    }

    /// One transaction committed: `events` written for `appends` appends (`rejected` refused),
    /// taking `duration`.
    package func record(events: Int, appends: Int, rejected: Int, duration: Duration) {
        commitMicrosecondsCounter.add(Int(clamping: duration.microseconds), ordering: .relaxed)
        let bucket = events <= 1 ? 0 : min(Self.commitSizeBounds.count, Int.bitWidth - (events - 1).leadingZeroBitCount)
        commitSizeBuckets.withLock { $0[bucket] += 1 }
        transactionsCounter.add(1, ordering: .relaxed)
        eventsCounter.add(events, ordering: .relaxed)
        appendsCounter.add(appends, ordering: .relaxed)
        rejectedCounter.add(rejected, ordering: .relaxed)
    }
}
