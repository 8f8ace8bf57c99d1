import EventLog
import LMDB

/// What the rules (the DomainRules article) read when they judge a command: a user's profile, a
/// workout, the user's running workout, an earlier import of the same file, whether a place exists.
///
/// The read models answer it in production (``ReadModelState``); the same type over read models
/// folded in memory (`ReadModelSet.inMemory()`, no transaction) judges commands without a disk,
/// which is how each rule is unit-tested.
protocol DecisionState {
    /// The profile of `user`, if registered.
    mutating func profile(_ user: String) throws -> Profile?
    /// The workout with this id, whoever it belongs to.
    mutating func workout(_ workoutId: String) throws -> ActivityRecord?
    /// The id of the user's running or paused workout, if any.
    mutating func activeWorkout(of user: String) throws -> String?
    /// The workout an earlier import from the same source created, if any.
    mutating func importedWorkout(user: String, kind: SourceKind, sourceId: String) throws -> String?
    /// Whether the catalog holds the place.
    mutating func placeExists(_ placeId: String) throws -> Bool
}

/// The read models as a ``DecisionState``: read in `txn`, or in memory when `txn` is nil.
struct ReadModelState: DecisionState {
    var projections: ReadModelSet
    let txn: ReadTransaction?

    mutating func profile(_ user: String) throws -> Profile? { try projections.profiles.profile(user, txn) }

    mutating func workout(_ workoutId: String) throws -> ActivityRecord? {
        try projections.activities.workouts.get(WorkoutKey(workoutId), txn)
    }

    mutating func activeWorkout(of user: String) throws -> String? {
        try projections.activities.active.get(UserKey(user), txn)?.text
    }

    mutating func importedWorkout(user: String, kind: SourceKind, sourceId: String) throws -> String? {
        try projections.activities.imports.get(ImportKey(user, kind, sourceId), txn)?.text
    }

    mutating func placeExists(_ placeId: String) throws -> Bool { try projections.places.exists(placeId, txn) }
}
