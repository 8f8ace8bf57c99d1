public import EventLog
import Synchronization

/// A clock a test moves by hand (a microsecond further on each reading, so the log's times still
/// advance): what "today" is for queries that default to it.
public final class HandClock: LogClock, Sendable {
    private let current: Mutex<Int64>
    public init(_ start: Timestamp) { current = Mutex(start.instant) }
    public func set(_ time: Timestamp) { current.withLock { $0 = time.instant } }
    public func now() -> Timestamp { Timestamp(microsecondsSinceEpoch: current.withLock { value in defer { value += 1 }; return value }) }
}
