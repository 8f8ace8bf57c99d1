public import EventLog

/// Why Logbook refused a command or a query. Every case names what was wrong; a refused command
/// wrote nothing.
public enum LogbookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A command broke a domain rule (DESIGN §4).
    case ruleViolation(rule: DomainRule, message: String)
    /// The user, workout or place does not exist.
    case notFound(kind: String, id: String)
    /// An argument or field is malformed.
    case invalidArgument(name: String, reason: String)
    /// Another command changed the same stream at the same time, and retrying would not be safe.
    case conflict(stream: String, reason: String)
    /// The caller pinned a stream version (optimistic concurrency) and the stream is elsewhere.
    case versionConflict(stream: String, expected: UInt64, current: UInt64?)
    /// The log refused the append.
    case log(EventStoreError)
    /// An event in the log could not be decoded.
    case coding(DomainCodingError)
    /// The storage failed.
    case storage(String)

    public var description: String {
        switch self {
        case .ruleViolation(let rule, let message): "\(rule.rawValue): \(message)"
        case .notFound(let kind, let id): "no \(kind) \"\(id)\""
        case .invalidArgument(let name, let reason): "invalid \(name): \(reason)"
        case .conflict(let stream, let reason): "conflict on \(stream): \(reason)"
        case .versionConflict(let stream, let expected, let current):
            "\(stream) is at version \(current.map(String.init) ?? "none"), not the expected \(expected)"
        case .log(let error): error.description
        case .coding(let error): error.description
        case .storage(let text): "storage failure: \(text)"
        }
    }
}

/// The rules of DESIGN §4, by name: what a ``LogbookError/ruleViolation(rule:message:)`` broke.
public enum DomainRule: String, Sendable, Hashable, Codable, CaseIterable {
    case userAlreadyRegistered = "user_already_registered"
    case userNotRegistered = "user_not_registered"
    case invalidTimeZone = "invalid_time_zone"
    case workoutLifecycle = "workout_lifecycle"
    case oneActiveWorkout = "one_active_workout"
    case workoutExists = "workout_exists"
    case nonNegativeQuantity = "non_negative_quantity"
    case endsAfterStart = "ends_after_start"
    case importNeedsSource = "import_needs_source"
    case stepSampleInvalid = "step_sample_invalid"
    case goalStepsRange = "goal_steps_range"
    case goalMinutesRange = "goal_minutes_range"
    case goalHorizon = "goal_horizon"
    case unknownPlace = "unknown_place"
    case placeExists = "place_exists"
    case placeInvalid = "place_invalid"
    case textTooLong = "text_too_long"
}
