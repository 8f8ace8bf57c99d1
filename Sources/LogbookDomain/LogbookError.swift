public import EventLog

/// Why Logbook refused a command or a query. Every error names what was wrong; a refused command
/// wrote nothing.
///
/// A struct rather than an enum, so new kinds of refusal can be added without breaking the code
/// that handles them: compare ``code`` with the named constants and read the details the code
/// carries (``rule``, ``field``, ``stream``, ``currentVersion``…). The static functions named after
/// the codes build errors; equal errors compare equal.
public struct LogbookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal this is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A command broke a domain rule (see <doc:DomainRules>): ``rule`` names it.
        public static let ruleViolation = Code(rawValue: "rule_violation")
        /// The user, workout or place does not exist: ``kind`` and ``id`` say which.
        public static let notFound = Code(rawValue: "not_found")
        /// An argument or field is malformed: ``field`` names it.
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// Another command changed the same stream at the same time, and retrying would not be safe.
        public static let conflict = Code(rawValue: "conflict")
        /// The caller pinned a stream version (optimistic concurrency) and the stream is elsewhere.
        public static let versionConflict = Code(rawValue: "version_conflict")
        /// The log refused the append: ``logError`` says why.
        public static let log = Code(rawValue: "log")
        /// An event in the log could not be decoded: ``codingError`` says why.
        public static let coding = Code(rawValue: "coding")
        /// The read models did not reach a position in time (a read of one's own write on a
        /// server whose read models follow the log from elsewhere).
        public static let notCaughtUp = Code(rawValue: "not_caught_up")
        /// The storage failed.
        public static let storage = Code(rawValue: "storage")
        /// An idempotency key already answered a different request (``LogbookError/id`` is the key).
        public static let idempotencyConflict = Code(rawValue: "idempotency_conflict")
        /// The user has as much uncached query work waiting as allowed, or has used up their
        /// budget of it for now: ``retryAfterSeconds`` says when to ask again (``kind`` is the user).
        public static let busy = Code(rawValue: "busy")
    }

    /// What kind of refusal this is.
    public let code: Code
    /// For ``Code/ruleViolation``: the rule broken.
    public let rule: DomainRule?
    /// For ``Code/notFound``: what was looked for (`user`, `workout`, `place`) and its id.
    public let kind: String?
    public let id: String?
    /// For ``Code/invalidArgument``: the argument or field.
    public let field: String?
    /// For conflicts: the stream concerned.
    public let stream: String?
    /// For ``Code/versionConflict``: the version the caller pinned, and where the stream is (nil: no stream).
    public let expectedVersion: UInt64?
    public let currentVersion: UInt64?
    /// For ``Code/log``: the log's own error.
    public let logError: EventStoreError?
    /// For ``Code/coding``: the codec's own error.
    public let codingError: DomainCodingError?
    /// For ``Code/notCaughtUp``: the position waited for.
    public let position: UInt64?
    /// For ``Code/busy``: whole seconds after which the same request may be answered.
    public let retryAfterSeconds: Int?
    /// The explanation in words (the rule's message, the reason, the storage's text).
    public let message: String

    private init(
        _ code: Code, rule: DomainRule? = nil, kind: String? = nil, id: String? = nil, field: String? = nil,
        stream: String? = nil, expected: UInt64? = nil, current: UInt64? = nil, logError: EventStoreError? = nil,
        codingError: DomainCodingError? = nil, position: UInt64? = nil, retryAfter: Int? = nil, message: String
    ) {
        self.code = code
        self.rule = rule
        self.kind = kind
        self.id = id
        self.field = field
        self.stream = stream
        self.expectedVersion = expected
        self.currentVersion = current
        self.logError = logError
        self.codingError = codingError
        self.position = position
        self.retryAfterSeconds = retryAfter
        self.message = message
    }

    public var description: String {
        switch code {
        case .ruleViolation: "\(rule?.rawValue ?? "rule"): \(message)"
        case .notFound: "no \(kind ?? "item") \"\(id ?? "")\""
        case .invalidArgument: "invalid \(field ?? "argument"): \(message)"
        case .conflict: "conflict on \(stream ?? ""): \(message)"
        case .versionConflict:
            "\(stream ?? "") is at version \(currentVersion.map(String.init) ?? "none"), not the expected \(expectedVersion.map(String.init) ?? "?")"
        case .log: logError?.description ?? message
        case .coding: codingError?.description ?? message
        case .notCaughtUp: "the read models did not reach position \(position ?? 0) in time: \(message)"
        case .idempotencyConflict: "idempotency key \"\(id ?? "")\": \(message)"
        case .busy: "\(message); retry after \(retryAfterSeconds ?? 1) s"
        default: "storage failure: \(message)"
        }
    }
}

extension LogbookError {
    /// A command broke `rule`.
    public static func ruleViolation(rule: DomainRule, message: String) -> Self { Self(.ruleViolation, rule: rule, message: message) }
    /// No `kind` with this id.
    public static func notFound(kind: String, id: String) -> Self { Self(.notFound, kind: kind, id: id, message: "not found") }
    /// The argument or field `name` is malformed.
    public static func invalidArgument(name: String, reason: String) -> Self { Self(.invalidArgument, field: name, message: reason) }
    /// Another writer moved `stream` meanwhile.
    public static func conflict(stream: String, reason: String) -> Self { Self(.conflict, stream: stream, message: reason) }

    /// The stream is not at the version the caller pinned.
    public static func versionConflict(stream: String, expected: UInt64, current: UInt64?) -> Self {
        Self(.versionConflict, stream: stream, expected: expected, current: current, message: "the stream moved")
    }

    /// The log refused the append.
    public static func log(_ error: EventStoreError) -> Self { Self(.log, stream: error.stream, logError: error, message: error.description) }
    /// An event could not be decoded.
    public static func coding(_ error: DomainCodingError) -> Self { Self(.coding, codingError: error, message: error.description) }

    /// The read models did not reach `position` within the wait allowed.
    public static func notCaughtUp(position: UInt64, reason: String) -> Self { Self(.notCaughtUp, position: position, message: reason) }

    /// Idempotency key `key` was used before for another request.
    public static func idempotencyConflict(key: String, reason: String) -> Self { Self(.idempotencyConflict, id: key, message: reason) }

    /// The storage failed, with its own text.
    public static func storage(_ text: String) -> Self { Self(.storage, message: text) }

    /// `user` has too much uncached query work (``Code/busy``); it may ask again after `retryAfter` seconds.
    public static func busy(user: String, retryAfter: Int, reason: String) -> Self {
        Self(.busy, kind: "user", id: user, retryAfter: max(1, retryAfter), message: reason)
    }
}

/// The rules of <doc:DomainRules>, by name: what a ``LogbookError/Code/ruleViolation`` broke.
///
/// A struct of named constants rather than an enum, so a rule can be added without breaking
/// code that switches over the rules it knows.
public struct DomainRule: RawRepresentable, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let userAlreadyRegistered = DomainRule(rawValue: "user_already_registered")
    public static let userNotRegistered = DomainRule(rawValue: "user_not_registered")
    public static let invalidTimeZone = DomainRule(rawValue: "invalid_time_zone")
    public static let workoutLifecycle = DomainRule(rawValue: "workout_lifecycle")
    public static let oneActiveWorkout = DomainRule(rawValue: "one_active_workout")
    public static let workoutExists = DomainRule(rawValue: "workout_exists")
    public static let nonNegativeQuantity = DomainRule(rawValue: "non_negative_quantity")
    /// A workout or lap quantity beyond its limit (100,000 km, 400 days, 100 million steps, 10 million kcal, 300 bpm).
    public static let quantityTooLarge = DomainRule(rawValue: "quantity_too_large")
    public static let endsAfterStart = DomainRule(rawValue: "ends_after_start")
    public static let importNeedsSource = DomainRule(rawValue: "import_needs_source")
    public static let stepSampleInvalid = DomainRule(rawValue: "step_sample_invalid")
    public static let goalStepsRange = DomainRule(rawValue: "goal_steps_range")
    public static let goalMinutesRange = DomainRule(rawValue: "goal_minutes_range")
    public static let goalHorizon = DomainRule(rawValue: "goal_horizon")
    public static let unknownPlace = DomainRule(rawValue: "unknown_place")
    public static let placeExists = DomainRule(rawValue: "place_exists")
    public static let placeInvalid = DomainRule(rawValue: "place_invalid")
    public static let textTooLong = DomainRule(rawValue: "text_too_long")
    /// A recorded track is malformed: columns of the wrong length, times going backwards, implausible values.
    public static let trackInvalid = DomainRule(rawValue: "track_invalid")
    /// The user was erased: nothing more is recorded for them.
    public static let userErased = DomainRule(rawValue: "user_erased")
    /// A training target is out of range: its race is not after the user's today, or more than two years ahead.
    public static let targetInvalid = DomainRule(rawValue: "target_invalid")
    /// A planned workout is out of range: more than 26 weeks ahead, without a distance or a duration, or its id is taken.
    public static let planInvalid = DomainRule(rawValue: "plan_invalid")
    /// Heart-rate settings out of range (max 100–240, resting 25–120 and below the max).
    public static let heartRateInvalid = DomainRule(rawValue: "heart_rate_invalid")

    /// Every rule Logbook checks.
    public static let allCases: [DomainRule] = [
        .userAlreadyRegistered,
        .userNotRegistered,
        .invalidTimeZone,
        .workoutLifecycle,
        .oneActiveWorkout,
        .workoutExists,
        .nonNegativeQuantity,
        .quantityTooLarge,
        .endsAfterStart,
        .importNeedsSource,
        .stepSampleInvalid,
        .goalStepsRange,
        .goalMinutesRange,
        .goalHorizon,
        .unknownPlace,
        .placeExists,
        .placeInvalid,
        .textTooLong,
        .trackInvalid,
        .userErased,
        .targetInvalid,
        .planInvalid,
        .heartRateInvalid,
    ]
}
