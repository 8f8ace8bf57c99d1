import EventLog

/// The rules of a live workout's life and of edits to a workout (imports, pauses and tracks are
/// commands of their own).
extension Decider {
    /// `workout.started`: a new, unreserved id, no other workout of the user running or paused, and
    /// a manual source (a device's workouts are imported).
    mutating func startWorkout(_ e: WorkoutStarted, user: String?) throws -> Decision {
        let user = user ?? ""
        _ = try registered(user)
        try Rules.id(e.workoutId, "workoutId")
        try reservedId(e.workoutId)
        guard try state.workout(e.workoutId) == nil else {
            throw rule(.workoutExists, "workout \(e.workoutId) already exists")
        }
        if let active = try state.activeWorkout(of: user) {
            throw rule(.oneActiveWorkout, "workout \(active) is still running; finish or discard it first")
        }
        guard e.source.kind == .manual else {
            throw rule(.workoutLifecycle, "a live workout's source kind is manual; use import for \(e.source.kind.rawValue)")
        }
        return Decision(events: [(.workoutStarted(e), e.startedAt)], workoutId: e.workoutId)
    }

    /// `workout.finished`: the user's running workout, ending after its start, with valid totals.
    mutating func finishWorkout(_ e: WorkoutFinished, user: String?) throws -> Decision {
        let user = user ?? ""
        let workout = try ownWorkout(user, e.workoutId)
        guard workout.status == .running else {
            throw rule(.workoutLifecycle, "workout \(e.workoutId) is \(workout.status.rawValue), not running: it cannot finish")
        }
        guard e.endedAt.instant > workout.startedAt.instant else { throw rule(.endsAfterStart, "endedAt must be after the start") }
        try Rules.totals(distance: e.distanceMeters, moving: e.movingSeconds, steps: e.steps, kcal: e.activeKcal, heartRate: e.avgHeartRate, laps: e.laps)
        return Decision(events: [(.workoutFinished(e), e.endedAt)], workoutId: e.workoutId)
    }

    /// `workout.discarded`: the user's running or paused workout.
    mutating func discardWorkout(_ e: WorkoutReference, user: String?) throws -> Decision {
        let user = user ?? ""
        let id = e.workoutId
        let workout = try ownWorkout(user, id)
        guard workout.status.isActive else { throw rule(.workoutLifecycle, "workout \(id) is \(workout.status.rawValue): only a running or paused workout can be discarded") }
        return Decision(events: [(.workoutDiscarded(WorkoutReference(workoutId: id)), Rules.local(now, workout.startedAt.utcOffsetSeconds))], workoutId: id)
    }

    /// `workout.edited`: the user's workout, not deleted; title and notes within their limits.
    mutating func editWorkout(_ e: WorkoutEdited, user: String?) throws -> Decision {
        let user = user ?? ""
        let workout = try ownWorkout(user, e.workoutId)
        guard workout.status != .deleted else { throw rule(.workoutLifecycle, "workout \(e.workoutId) was deleted") }
        if let title = e.title { try Rules.text(title, "title") }
        if let notes = e.notes { try Rules.text(notes, "notes", limit: 4000) }
        return Decision(events: [(.workoutEdited(e), Rules.local(now, workout.startedAt.utcOffsetSeconds))], workoutId: e.workoutId)
    }

    /// `workout.deleted`: the user's finished or discarded workout.
    mutating func deleteWorkout(_ e: WorkoutReference, user: String?) throws -> Decision {
        let user = user ?? ""
        let id = e.workoutId
        let workout = try ownWorkout(user, id)
        guard workout.status == .finished || workout.status == .discarded else {
            throw rule(.workoutLifecycle, "workout \(id) is \(workout.status.rawValue): only a finished or discarded workout can be deleted")
        }
        return Decision(events: [(.workoutDeleted(WorkoutReference(workoutId: id)), Rules.local(now, workout.startedAt.utcOffsetSeconds))], workoutId: id)
    }
}
