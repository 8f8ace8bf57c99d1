import Logbook

/// Tells a read model that is behind the log and not moving (stalled) from one that is caught up
/// or folding: it remembers, per read model, its last position and since when it has been there.
/// Times are the caller's (seconds on any clock), so the rule is a pure function of what it is fed.
struct StallDetector: Sendable {
    /// Behind and still for at least this many seconds is stalled.
    let stallAfterSeconds: Double
    /// Per read model: its last position, whether it was behind then, and since when it has been there.
    private var last: [ReadModelKind: (position: UInt64, behind: Bool, since: Double)] = [:]

    init(stallAfterSeconds: Double) {
        self.stallAfterSeconds = stallAfterSeconds
    }

    /// Seconds `projection` has been behind (`lag > 0`) at `position` without moving, as of
    /// `now` (0 when caught up or moving), and whether that makes it stalled.
    mutating func observe(_ projection: ReadModelKind, position: UInt64, lag: UInt64, at now: Double) -> (seconds: Double, stalled: Bool) {
        // The stall clock starts at the first observation behind at this position (a read model
        // that was caught up before fell behind some time since, at most now).
        var since = now
        if let seen = last[projection], seen.position == position, seen.behind, lag > 0 { since = seen.since }
        last[projection] = (position, lag > 0, since)
        let seconds = lag > 0 ? max(0, now - since) : 0
        return (seconds, seconds >= stallAfterSeconds)
    }
}
