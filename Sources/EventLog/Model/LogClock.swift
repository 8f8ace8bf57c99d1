import Foundation

/// Where `recordedAt` comes from; inject one in tests for repeatable timestamps.
public protocol LogClock: Sendable {
    func now() -> Timestamp
}

/// The system's wall clock, in UTC.
public struct SystemLogClock: LogClock {
    public init() {}
    public func now() -> Timestamp { Timestamp(Date()) }
}
