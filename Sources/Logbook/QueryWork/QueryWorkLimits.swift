import Foundation

/// Where uncached query work runs and how much of it each user may have, so that no user can
/// slow another: every query the cache does not answer (and every as-of fold) runs on threads of
/// its own, off the pool that serves requests, each user's share of them is capped, and each
/// user's CPU time has a budget. A user past a bound is refused with ``LogbookError/Code/busy``
/// (HTTP 429 with `Retry-After`), never queued without end.
public struct QueryWorkLimits: Sendable, Hashable {
    /// Threads that run uncached query work (default: one per core). They run at a lower
    /// scheduling priority than the threads that serve requests, so cached answers and commands
    /// go first when the machine is busy.
    public var threads: Int
    /// One user's uncached queries running at once (default 1): the other threads stay free for
    /// everyone else however many requests one user sends.
    public var runningPerUser = 1
    /// One user's uncached queries waiting to run, beyond which the next is refused (busy).
    public var waitingPerUser = 16
    /// CPU time one user's uncached queries may spend in a burst.
    public var burst: Duration = .seconds(5)
    /// CPU seconds one user's budget regains per second (0.5: half a core for as long as they like).
    public var refillPerSecond = 0.5

    /// The defaults: one thread per core, one running query per user, 16 waiting, 5 s of CPU in
    /// a burst regaining half a second per second.
    public init() {
        threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Why the limits cannot be used (counts out of range, a burst or refill not positive), or nil.
    public var problem: String? {
        if threads < 1 || threads > 1_024 { return "threads must be 1 to 1,024, not \(threads)" }
        if runningPerUser < 1 { return "runningPerUser must be at least 1, not \(runningPerUser)" }
        if waitingPerUser < 1 { return "waitingPerUser must be at least 1 (a query waits its turn before it runs)" }
        if burst <= .zero { return "burst must be positive" }
        if !(refillPerSecond > 0) || !refillPerSecond.isFinite { return "refillPerSecond must be a positive number" }
        return nil
    }
}
