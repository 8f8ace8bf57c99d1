import EventLog

/// A read model that counts only the primaries of groups of the same activity: it
/// embeds ``WorkoutGroups``, hands it the workout events, and adds a workout to its sums or takes
/// it back only when a ``CountChange`` says so. Stats, activities, collectibles, records and
/// intensity are such read models, so they count the same workouts.
protocol CountsPrimaries: ReadModel {
    /// The read model's own copy of the groups (its tables are the read model's, so each read
    /// model rebuilds and verifies alone).
    var groups: WorkoutGroups { get set }

    /// Adds `workoutId` to the read model's sums (`counts`) or takes it back out, at `fold`.
    mutating func setCounts(_ workoutId: String, _ counts: Bool, _ fold: FoldEvent, _ txn: (any TableReader)?) throws
}

extension CountsPrimaries {
    /// Applies what grouping decided, in its order.
    mutating func apply(_ changes: [CountChange], _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        for change in changes { try setCounts(change.workoutId, change.counts, fold, txn) }
    }

    /// A track part may make its workout the richer of its group.
    mutating func groupTrack(_ e: WorkoutTrackRecorded, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try apply(groups.tracked(e, txn), fold, txn)
    }

    /// The user keeps two workouts apart.
    mutating func groupKeptSeparate(_ e: WorkoutKeptSeparate, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try apply(groups.keptSeparate(user: fold.user, e.workoutId, e.otherWorkoutId, txn), fold, txn)
    }

    /// The user's preferred workout sources may change every group's primary.
    mutating func groupPreference(_ e: UserProfileUpdated, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard let kinds = e.preferredWorkoutSources else { return }
        try apply(groups.preferred(user: fold.user, kinds, txn), fold, txn)
    }
}

extension Folds where Model: CountsPrimaries {
    /// These folds and the two every primaries-counting read model shares: kept-apart pairs and
    /// the preferred sources (a read model adds its own fold of `workout.track_recorded`, calling
    /// ``CountsPrimaries/groupTrack(_:_:_:)``, since some fold tracks for their own reasons too).
    func grouping() -> Folds {
        on(.workoutKeptSeparate) { try $0.groupKeptSeparate($1, $2, $3) }
            .on(.userProfileUpdated) { try $0.groupPreference($1, $2, $3) }
    }
}

/// A primaries-counting read model that folds each step of a workout's life itself: started,
/// finished, imported, discarded, deleted and edited. Its fold table takes all six, and grouping's
/// two, in one call (``Folds/workoutLife()``), so the models that count workouts cannot drift
/// apart in which of those events they read.
protocol FoldsWorkoutLife: CountsPrimaries {
    mutating func onWorkoutStarted(_ e: WorkoutStarted, _ fold: FoldEvent, _ txn: (any TableReader)?) throws
    mutating func onWorkoutFinished(_ e: WorkoutFinished, _ fold: FoldEvent, _ txn: (any TableReader)?) throws
    mutating func onWorkoutImported(_ e: WorkoutImported, _ fold: FoldEvent, _ txn: (any TableReader)?) throws
    mutating func onWorkoutDiscarded(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws
    mutating func onWorkoutDeleted(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws
    mutating func onWorkoutEdited(_ e: WorkoutEdited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws
}

extension Folds where Model: FoldsWorkoutLife {
    /// These folds, the six of a workout's life and grouping's (``grouping()``). The read model
    /// adds its fold of `workout.track_recorded` itself (``CountsPrimaries/groupTrack(_:_:_:)``, or
    /// its own that calls it).
    func workoutLife() -> Folds {
        on(.workoutStarted) { try $0.onWorkoutStarted($1, $2, $3) }
            .on(.workoutFinished) { try $0.onWorkoutFinished($1, $2, $3) }
            .on(.workoutImported) { try $0.onWorkoutImported($1, $2, $3) }
            .on(.workoutDiscarded) { try $0.onWorkoutDiscarded($1, $2, $3) }
            .on(.workoutDeleted) { try $0.onWorkoutDeleted($1, $2, $3) }
            .on(.workoutEdited) { try $0.onWorkoutEdited($1, $2, $3) }
            .grouping()
    }
}
