/// The rules of one activity recorded by several devices, as pure functions: when two counted
/// workouts are one activity, and which workout of a group is its primary. ``WorkoutGroups`` keeps the state; this is the rule it applies.
///
/// Everything here is exact integer arithmetic on microseconds and byte order on ids, so the same
/// workouts give the same groups and primaries on any machine, in any order of arrival.
enum SameActivity {
    /// A counted workout as the rule sees it.
    struct Workout: Equatable, Sendable {
        /// Recorded live (`workout.started`) rather than imported: part of the source.
        var live: Bool
        var kind: SourceKind
        var type: ActivityType
        /// The interval: [start, end] in microseconds since 1970, end = start + elapsed, else + moving seconds.
        var start: Int64
        var end: Int64
        var hasTrack: Bool
        var hasLaps: Bool
        var hasHeartRate: Bool
        var movingSeconds: Int
        /// The log position of the workout's first event.
        var firstPosition: UInt64
    }

    /// A start instant (µs) as the rule keeps it: within ±2^60, far beyond any timestamp Logbook
    /// accepts, so that no difference of two instants leaves 64 bits whatever a stored record holds.
    static func start(_ instant: Int64) -> Int64 { min(max(instant, -(1 << 60)), 1 << 60) }

    /// The interval's end for a workout started at `start` (µs) lasting `elapsed`, else `moving`,
    /// seconds. Durations beyond the domain's limit (a log written before the limits) are taken
    /// at the limit, so the arithmetic cannot leave 64 bits.
    static func intervalEnd(start: Int64, elapsedSeconds: Int?, movingSeconds: Int) -> Int64 {
        let seconds = min(max(elapsedSeconds ?? movingSeconds, 0), Rules.quantityLimits["movingSeconds"] ?? 0)
        let (end, overflow) = start.addingReportingOverflow(Int64(seconds) * 1_000_000)
        return overflow ? 1 << 61 : min(end, 1 << 61)
    }

    /// Whether `a` and `b` are the same activity, before any `workout.kept_separate`: different
    /// sources, equal types (or one `other`), intervals overlapping by at least half the shorter.
    static func related(_ a: Workout, _ b: Workout) -> Bool {
        guard a.live != b.live || a.kind != b.kind else { return false }
        guard a.type == b.type || a.type == .other || b.type == .other else { return false }
        let overlap = min(a.end, b.end) - max(a.start, b.start)
        let shorter = min(a.end - a.start, b.end - b.start)
        return overlap >= 0 && overlap * 2 >= shorter
    }

    /// Whether `a` is richer than `b`: a track before none, then laps, then a heart rate, then the
    /// longer moving time, then the lower first position (ids break a tie no log can make).
    static func richer(_ a: (id: String, workout: Workout), than b: (id: String, workout: Workout)) -> Bool {
        let x = a.workout, y = b.workout
        if x.hasTrack != y.hasTrack { return x.hasTrack }
        if x.hasLaps != y.hasLaps { return x.hasLaps }
        if x.hasHeartRate != y.hasHeartRate { return x.hasHeartRate }
        if x.movingSeconds != y.movingSeconds { return x.movingSeconds > y.movingSeconds }
        if x.firstPosition != y.firstPosition { return x.firstPosition < y.firstPosition }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }

    /// The primary of a group: the richest workout of the first kind in `preference` the group
    /// holds, else the richest of all. `group` is not empty.
    static func primary(of group: [(id: String, workout: Workout)], preference: [SourceKind]) -> String {
        let candidates = preference.lazy.map { kind in group.filter { $0.workout.kind == kind } }.first { !$0.isEmpty } ?? group
        var best = candidates[0]
        for candidate in candidates.dropFirst() where richer(candidate, than: best) { best = candidate }
        return best.id
    }
}
