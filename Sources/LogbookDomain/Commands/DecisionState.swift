import EventLog

/// What the rules (the DomainRules article) read when they judge a command: a user's profile, a
/// workout, the user's running workout, an earlier import of the same file, whether a place exists.
///
/// The read models answer it in production (``ReadModelState``); the same type over read models
/// folded in memory (`ReadModelSet.inMemory()`, no transaction) judges commands without a disk,
/// which is how each rule is unit-tested.
package protocol DecisionState {
    /// The profile of `user`, if registered.
    mutating func profile(_ user: String) throws -> Profile?
    /// The workout with this id, whoever it belongs to.
    mutating func workout(_ workoutId: String) throws -> ActivityRecord?
    /// The id of the user's running or paused workout, if any.
    mutating func activeWorkout(of user: String) throws -> String?
    /// The pauses of a recorded workout so far, in order.
    mutating func pauses(of workoutId: String) throws -> [WorkoutPause]
    /// The last part of the workout's recorded track, nil without a track.
    mutating func lastTrackPart(of workout: ActivityRecord) throws -> TrackSamples?
    /// The workout an earlier import from the same source created, if any.
    mutating func importedWorkout(user: String, kind: SourceKind, sourceId: String) throws -> String?
    /// The catalog's place as it stands (its edits applied), if the catalog holds it.
    mutating func catalogPlace(_ placeId: String) throws -> PlaceAdded?
    /// The user's training target, if set and not cleared.
    mutating func target(user: String, _ targetId: String) throws -> TargetRecord?
    /// The user's planned workout, if planned and not removed.
    mutating func plannedWorkout(user: String, _ plannedId: String) throws -> PlannedRecord?
    /// The user's planned workouts dated `from`…`to` (day numbers), by date and plan order.
    mutating func plannedWorkouts(user: String, from: Int, to: Int) throws -> [(id: String, record: PlannedRecord)]
    /// The user's counted workouts started on local days `from`…`to` (day numbers).
    mutating func countedWorkouts(user: String, from: Int, to: Int) throws -> [CountedWorkout<ActivityType>]
}

extension DecisionState {
    /// Whether the catalog holds the place.
    mutating func placeExists(_ placeId: String) throws -> Bool { try catalogPlace(placeId) != nil }
}

/// The read models as a ``DecisionState``: read in `txn`, or in memory when `txn` is nil.
package struct ReadModelState: DecisionState {
    /// The read models this state reads: a command is judged only where all of them are whole.
    package static let kinds: Set<ReadModelKind> = [.profiles, .activities, .places, .targets, .plan, .intensity]

    package var projections: ReadModelSet
    let txn: (any TableReader)?

    /// The read models, read in `txn` (nil: in memory).
    package init(projections: ReadModelSet, txn: (any TableReader)?) {
        self.projections = projections
        self.txn = txn
    }

    package mutating func profile(_ user: String) throws -> Profile? { try projections.profiles.profile(user, txn) }

    package mutating func workout(_ workoutId: String) throws -> ActivityRecord? {
        try projections.activities.workouts.get(WorkoutKey(workoutId), txn)
    }

    package mutating func activeWorkout(of user: String) throws -> String? {
        try projections.activities.active.get(UserKey(user), txn)?.text
    }

    package mutating func pauses(of workoutId: String) throws -> [WorkoutPause] {
        try projections.activities.pauses.get(WorkoutKey(workoutId), txn)?.pauses ?? []
    }

    package mutating func lastTrackPart(of workout: ActivityRecord) throws -> TrackSamples? {
        try projections.activities.lastTrackPart(of: workout, txn)
    }

    package mutating func importedWorkout(user: String, kind: SourceKind, sourceId: String) throws -> String? {
        try projections.activities.imports.get(ImportKey(user, kind, sourceId), txn)?.text
    }

    package mutating func catalogPlace(_ placeId: String) throws -> PlaceAdded? { try projections.places.catalogPlace(placeId, txn) }

    package mutating func target(user: String, _ targetId: String) throws -> TargetRecord? { try projections.targets.target(user: user, targetId, txn) }

    package mutating func plannedWorkout(user: String, _ plannedId: String) throws -> PlannedRecord? {
        try projections.plan.plannedWorkout(user: user, plannedId, txn)
    }

    package mutating func plannedWorkouts(user: String, from: Int, to: Int) throws -> [(id: String, record: PlannedRecord)] {
        try projections.plan.plannedWorkouts(user: user, from: Int32(clamping: from), to: Int32(clamping: to), txn)
    }

    package mutating func countedWorkouts(user: String, from: Int, to: Int) throws -> [CountedWorkout<ActivityType>] {
        try projections.intensity.counted(user: user, from: Int32(clamping: from), to: Int32(clamping: to), txn).map { $0.workout.counted(id: $0.id) }
    }
}
