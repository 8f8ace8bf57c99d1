import Logbook

/// Which domain rules each command route can break (422 with `rule`), for the OpenAPI document:
/// the rules no schema can express (lifecycle order, the goal horizon, what exists already).
enum CommandRuleCatalog {
    /// The rules of the command at `method path`, or nil if it is not a command.
    static func rules(of path: String, method: String) -> [DomainRule]? {
        let declared = DeclaredRoute.all.first { $0.method == method && $0.path == path }?.rules
        guard let specific = table["\(method) \(path)"] ?? declared else { return nil }
        // Every command on a user but the registration needs a registered, not erased user.
        let onRegisteredUser = path.hasPrefix("users/") && !(method == "POST" && path == "users/{user}")
        let user: [DomainRule] = onRegisteredUser ? [.userNotRegistered, .userErased] : []
        return specific + user
    }

    private static let table: [String: [DomainRule]] = [
        "POST users/{user}": [.userAlreadyRegistered, .invalidTimeZone, .textTooLong, .userErased],
        "PATCH users/{user}/profile": [.invalidTimeZone, .textTooLong, .heartRateInvalid],
        "DELETE users/{user}": [],
        "POST users/{user}/workouts": [.oneActiveWorkout, .workoutExists, .workoutLifecycle],
        "POST users/{user}/imports": [.workoutExists, .importNeedsSource, .nonNegativeQuantity, .quantityTooLarge, .endsAfterStart, .textTooLong, .trackInvalid],
        "POST users/{user}/workouts/{workoutId}/pause": [.workoutLifecycle, .endsAfterStart],
        "POST users/{user}/workouts/{workoutId}/resume": [.workoutLifecycle, .endsAfterStart],
        "POST users/{user}/workouts/{workoutId}/track": [.workoutLifecycle, .trackInvalid],
        "POST users/{user}/workouts/{workoutId}/finish": [.workoutLifecycle, .nonNegativeQuantity, .quantityTooLarge, .endsAfterStart],
        "POST users/{user}/workouts/{workoutId}/discard": [.workoutLifecycle],
        "PATCH users/{user}/workouts/{workoutId}": [.workoutLifecycle, .textTooLong],
        "DELETE users/{user}/workouts/{workoutId}": [.workoutLifecycle],
        "POST users/{user}/steps": [.stepSampleInvalid, .nonNegativeQuantity, .endsAfterStart, .textTooLong],
        "PUT users/{user}/goals/{date}": [.goalStepsRange, .goalMinutesRange, .goalHorizon],
        "DELETE users/{user}/goals/{date}": [],
        "PUT users/{user}/default-goal": [.goalStepsRange, .goalMinutesRange],
        "POST users/{user}/places/{placeId}/swipe": [.unknownPlace],
        "POST users/{user}/places/{placeId}/visit": [.unknownPlace],
        "PUT users/{user}/places/{placeId}/notes": [.unknownPlace, .textTooLong],
        "POST users/{user}/places/reset": [],
        "POST catalog/places": [.placeExists, .placeInvalid, .textTooLong],
        "POST catalog/places/import": [.placeInvalid, .textTooLong],
        "POST users/{user}/training/planned-workouts": [.planInvalid, .textTooLong],
        "PATCH users/{user}/training/planned-workouts/{plannedId}": [.planInvalid, .textTooLong],
        "POST users/{user}/training/plans": [.planInvalid],
    ]
}
