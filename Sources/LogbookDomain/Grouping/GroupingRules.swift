import EventLog

extension Decider {
    /// `workout.kept_separate`: two different workouts, both the user's and not
    /// deleted. Keeping apart a pair that is not grouped is allowed: it stays apart if a later
    /// change (an edit of type, a third workout) would relate it.
    mutating func keepSeparate(_ e: WorkoutKeptSeparate, user: String?) throws -> Decision {
        let user = user ?? ""
        guard !e.workoutId.utf8.elementsEqual(e.otherWorkoutId.utf8) else {
            throw LogbookError.invalidArgument(name: "otherWorkoutId", reason: "names workout \(e.workoutId) itself")
        }
        let workout = try ownWorkout(user, e.workoutId)
        let other = try ownWorkout(user, e.otherWorkoutId)
        for (id, record) in [(e.workoutId, workout), (e.otherWorkoutId, other)] where record.status == .deleted {
            throw rule(.workoutLifecycle, "workout \(id) is deleted")
        }
        return Decision(events: [(.workoutKeptSeparate(e), Rules.local(now, workout.startedAt.utcOffsetSeconds))], workoutId: e.workoutId)
    }
}
