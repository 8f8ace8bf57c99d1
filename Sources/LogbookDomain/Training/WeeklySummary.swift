/// Arithmetic of the weekly summary (the Training article, "The weekly summary"): the counts of a week's matching and
/// its compliance.
package enum WeeklySummary {
    /// floor(100 × completed / planned sessions); nil with nothing planned. `completed` is clamped to
    /// 0…planned (it cannot exceed it in a real week), so the answer is always 0…100.
    package static func compliancePercent(completed: Int, plannedSessions: Int) -> Int? {
        guard plannedSessions > 0 else { return nil }
        let done = min(max(completed, 0), plannedSessions)
        return plannedSessions.dividingFullWidth(done.multipliedFullWidth(by: 100)).quotient
    }

    /// The days of the week holding `day` (seven days from its first day).
    package static func week(containing day: Int, weekStart: FirstWeekday) -> ClosedRange<Int> {
        let first = DayNumbers.firstDayOfWeek(containing: day, weekStart: weekStart)
        return first...(first + 6)
    }

    /// The counts and planned totals of one week's ``PlanMatching/Result`` (match the week's days only).
    package struct Tally: Sendable, Hashable {
        package var plannedSessions = 0
        /// Sum of the planned distances that are given.
        package var plannedDistanceMeters = 0
        /// Sum of the planned durations that are given.
        package var plannedDurationSeconds = 0
        package var completed = 0
        package var partial = 0
        package var missed = 0
        package var upcoming = 0
        package var extra = 0
        /// Every counted workout of the week (matched and extra).
        package var doneSessions = 0
        package var doneDistanceMeters = 0
        package var doneMovingSeconds = 0

        /// The tally of a matching result. The done totals need the matched workouts too, so they are passed.
        package init<Activity>(_ result: PlanMatching.Result<Activity>, workouts: [CountedWorkout<Activity>]) {
            for outcome in result.outcomes {
                plannedSessions += 1
                plannedDistanceMeters = plannedDistanceMeters.saturatingAdd(max(outcome.planned.distanceMeters ?? 0, 0))
                plannedDurationSeconds = plannedDurationSeconds.saturatingAdd(max(outcome.planned.durationSeconds ?? 0, 0))
                switch outcome.status {
                case .completed: completed += 1
                case .partial: partial += 1
                case .missed: missed += 1
                case .upcoming: upcoming += 1
                }
            }
            extra = result.extras.count
            for workout in workouts {
                doneSessions += 1
                doneDistanceMeters = doneDistanceMeters.saturatingAdd(max(workout.distanceMeters, 0))
                doneMovingSeconds = doneMovingSeconds.saturatingAdd(max(workout.movingSeconds, 0))
            }
        }

        /// ``WeeklySummary/compliancePercent(completed:plannedSessions:)`` of this week.
        package var compliancePercent: Int? {
            WeeklySummary.compliancePercent(completed: completed, plannedSessions: plannedSessions)
        }
    }
}
