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

    /// The hand-written command routes' rules (a declared route's are in its declaration).
    private static let table: [String: [DomainRule]] = [
        "POST users/{user}/workouts": [.oneActiveWorkout, .workoutExists, .workoutLifecycle],
        "POST users/{user}/imports": [.workoutExists, .importNeedsSource, .nonNegativeQuantity, .quantityTooLarge, .endsAfterStart, .textTooLong, .trackInvalid],
        "POST users/{user}/workouts/{workoutId}/pause": [.workoutLifecycle, .endsAfterStart],
        "POST users/{user}/workouts/{workoutId}/resume": [.workoutLifecycle, .endsAfterStart],
        "POST users/{user}/workouts/{workoutId}/track": [.workoutLifecycle, .trackInvalid],
        "POST catalog/places/import": [.placeInvalid, .textTooLong],
        "POST users/{user}/training/planned-workouts": [.planInvalid, .textTooLong],
        "PATCH users/{user}/training/planned-workouts/{plannedId}": [.planInvalid, .textTooLong],
        "POST users/{user}/training/plans": [.planInvalid],
    ]
}
