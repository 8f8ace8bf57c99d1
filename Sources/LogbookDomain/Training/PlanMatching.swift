/// Matching a plan to what was done (the Training article, "Matching plan to done").
///
/// On each local date, planned workouts, in the order they were planned (``Planned/ordinal``: the position
/// of their `plan.workout_planned` event), take in turn the earliest-starting unmatched counted workout of
/// that date with the same activity type. Ties on the start instant go to the lowest workout id compared
/// **bytewise** (its UTF-8 bytes, ``ByteOrder``), so the result never depends on input order, locale or
/// hashing. A matched planned workout is `completed` when the workout reaches 90% of the planned distance
/// (when a distance is planned, it alone decides), else 90% of the planned duration, else — nothing planned
/// to reach — `completed`; otherwise `partial`. An unmatched one is `missed` before `today`, else
/// `upcoming`. Counted workouts left unmatched are extras. The 90% tests are integer: done × 10 ≥ planned × 9.
package enum PlanMatching {
    /// A planned workout as matching needs it.
    package struct Planned<Activity: Hashable & Sendable>: Hashable, Sendable {
        /// The planned id, compared as bytes.
        package var id: String
        /// Planning order: the log position of its `plan.workout_planned` (kept through changes). Unique per user.
        package var ordinal: Int
        /// Its local date (day number).
        package var date: Int
        package var activity: Activity
        package var distanceMeters: Int?
        package var durationSeconds: Int?

        /// A planned workout of every field.
        package init(id: String, ordinal: Int, date: Int, activity: Activity, distanceMeters: Int? = nil, durationSeconds: Int? = nil) {
            self.id = id
            self.ordinal = ordinal
            self.date = date
            self.activity = activity
            self.distanceMeters = distanceMeters
            self.durationSeconds = durationSeconds
        }
    }

    /// What became of a planned workout.
    package enum Status: String, Sendable, Hashable, CaseIterable {
        case completed, partial, missed, upcoming
    }

    /// One planned workout, its status and the workout that matched it (for completed and partial).
    package struct Outcome<Activity: Hashable & Sendable>: Hashable, Sendable {
        package var planned: Planned<Activity>
        package var status: Status
        package var workoutId: String?
    }

    /// The whole answer, in a fixed order.
    package struct Result<Activity: Hashable & Sendable>: Hashable, Sendable {
        /// Every planned workout once, by date, then ordinal, then id (bytewise).
        package var outcomes: [Outcome<Activity>]
        /// Unmatched counted workouts, by date, then start instant, then id (bytewise).
        package var extras: [CountedWorkout<Activity>]
    }

    /// Matches `planned` against `workouts` (counted workouts only) as of `today` (the user's local day).
    ///
    /// The inputs may come in any order; the answer is the same. Ids are assumed unique (planned ids among
    /// planned workouts, workout ids among workouts), as the log guarantees. O((p + w) log (p + w)).
    package static func match<Activity>(planned: [Planned<Activity>], workouts: [CountedWorkout<Activity>], today: Int) -> Result<Activity> {
        let plans = planned.sorted(by: plannedPrecedes)
        let done = workouts.sorted(by: workoutPrecedes)
        // Per (date, activity): indices into `done`, earliest first, and how many are taken.
        var queues: [Key<Activity>: (indices: [Int], taken: Int)] = [:]
        for (index, workout) in done.enumerated() {
            queues[Key(date: workout.localDate, activity: workout.activity), default: ([], 0)].indices.append(index)
        }
        var matched = [Bool](repeating: false, count: done.count)
        var outcomes: [Outcome<Activity>] = []
        outcomes.reserveCapacity(plans.count)
        for plan in plans {
            let key = Key(date: plan.date, activity: plan.activity)
            if let queue = queues[key], queue.taken < queue.indices.count {
                let index = queue.indices[queue.taken]
                queues[key]?.taken += 1
                matched[index] = true
                let workout = done[index]
                let status: Status = isCompleted(workout: workout, planned: plan) ? .completed : .partial
                outcomes.append(Outcome(planned: plan, status: status, workoutId: workout.id))
            } else {
                outcomes.append(Outcome(planned: plan, status: plan.date < today ? .missed : .upcoming, workoutId: nil))
            }
        }
        let extras = done.indices.filter { !matched[$0] }.map { done[$0] }
        return Result(outcomes: outcomes, extras: extras)
    }

    /// Whether a matched workout completes its planned workout: distance decides when one is planned,
    /// else duration; with neither planned, it is completed.
    package static func isCompleted<Activity>(workout: CountedWorkout<Activity>, planned: Planned<Activity>) -> Bool {
        if let distance = planned.distanceMeters {
            return reachesNinetyPercent(workout.distanceMeters, of: distance)
        }
        if let duration = planned.durationSeconds {
            return reachesNinetyPercent(workout.movingSeconds, of: duration)
        }
        return true
    }

    /// done × 10 ≥ planned × 9, exact for every `Int`.
    package static func reachesNinetyPercent(_ done: Int, of planned: Int) -> Bool {
        productIsAtLeast(done, 10, planned, 9)
    }

    static func plannedPrecedes<A>(_ a: Planned<A>, _ b: Planned<A>) -> Bool {
        if a.date != b.date { return a.date < b.date }
        if a.ordinal != b.ordinal { return a.ordinal < b.ordinal }
        return ByteOrder.precedes(a.id, b.id)
    }

    static func workoutPrecedes<A>(_ a: CountedWorkout<A>, _ b: CountedWorkout<A>) -> Bool {
        if a.localDate != b.localDate { return a.localDate < b.localDate }
        if a.startInstant != b.startInstant { return a.startInstant < b.startInstant }
        return ByteOrder.precedes(a.id, b.id)
    }

    /// A date and an activity: the pool a planned workout draws from (used for lookups only, never iterated).
    private struct Key<Activity: Hashable>: Hashable {
        var date: Int
        var activity: Activity
    }
}
