public import EventLog
public import Foundation

/// Everything a user (or an operator, for the catalog) can ask Logbook to do.
///
/// Most commands ask for one event whose type's declaration names the rule that decides it:
/// ``record(user:_:)``, made by ``Command/init(user:event:)`` or by the shorthands
/// (``registerUser(user:_:)``, ``recordSteps(user:_:)``, …). The cases of their own are the
/// commands that are not one event's payload: an optional time, a workout with its track, track
/// pieces, a file of places, changes to a planned workout, a plan to generate, an erasure.
public enum Command: Sendable, Hashable {
    /// Pauses the user's running workout at `at` (nil: now, in the workout's offset).
    case pauseWorkout(user: String, workoutId: String, at: Timestamp?)
    /// Resumes the user's paused workout at `at` (nil: now, in the workout's offset).
    case resumeWorkout(user: String, workoutId: String, at: Timestamp?)
    /// A finished workout from an external source, with the track its device recorded (written as
    /// `workout.track_recorded` events in the same append).
    case importWorkout(user: String, WorkoutImported, track: TrackSamples? = nil)
    /// Track points of a workout: while it runs or is paused, each piece continues its track
    /// (recorded live); a finished workout that has none yet takes its whole track once (e.g. a
    /// route file that arrives after the workout).
    case recordTrack(user: String, workoutId: String, TrackSamples)
    /// Places for the catalog from a file, all or none: the new ones added, the changed ones
    /// updated, the equal ones left (see ``PlaceImportEntry``); appended in one commit.
    case importPlaces([PlaceImportEntry])
    /// An event decided by the rule its type's declaration names (`Schemas/declarations`):
    /// `user` is who it concerns, nil for the shared catalog. ``Command/init(user:event:)`` makes
    /// the command of any event.
    case record(user: String?, DomainEvent)
    /// Changes some fields of a planned workout, the others staying: decided against the plan as
    /// it stands and recorded as the whole planned workout (`plan.workout_changed`).
    case changePlannedWorkout(user: String, plannedId: String, PlannedWorkoutChanges)
    /// A plan generated towards a target (the Training article), appended whole, replacing the future
    /// workouts of an earlier plan for the same target.
    case generatePlan(user: String, TrainingPlanRequest)
    /// Forget the user (see <doc:Privacy>): appends `user.erased`, destroys the user's key, and rebuilds
    /// the read models without them. Executed alone, never in a batch.
    case eraseUser(user: String)

    /// The user the command acts for (nil for catalog management).
    public var user: String? {
        switch self {
        case .pauseWorkout(let user, _, _), .resumeWorkout(let user, _, _), .importWorkout(let user, _, _), .recordTrack(let user, _, _),
             .eraseUser(let user), .changePlannedWorkout(let user, _, _), .generatePlan(let user, _):
            user
        case .importPlaces:
            nil
        case .record(let user, _):
            user
        }
    }

    /// The stream the command's events go to (a pure function of the command).
    public var stream: String {
        switch self {
        case .eraseUser(let user): "user-\(user)"
        case .pauseWorkout(_, let id, _), .resumeWorkout(_, let id, _): "workout-\(id)"
        case .importWorkout(_, let e, _): "workout-\(e.workoutId)"
        case .recordTrack(_, let id, _): "workout-\(id)"
        case .importPlaces: DomainEvent.catalogStream
        case .record(let user, let event): event.stream(user: user ?? "")
        case .changePlannedWorkout(let user, _, _), .generatePlan(let user, _): "training-\(user)"
        }
    }

    /// Commands sharing a lock key are decided one at a time.
    package var lockKey: String { user.map { "user:" + $0 } ?? "catalog" }
}

/// What a command needs besides its data.
public struct CommandContext: Sendable, Hashable {
    /// The moment the command is judged at (default: the Logbook's clock).
    public var now: Timestamp?
    /// A client-supplied id for the (first) event: re-sending the same command with the same id
    /// is a safe retry that answers the original result.
    public var eventId: UUID?
    /// The stream version the client expects (optimistic concurrency); nil: whatever it is now.
    public var expectedVersion: UInt64?
    public var correlationId: UUID?
    public var causationId: UUID?
    /// Stamp `recordedAt` with ``now`` instead of the log's clock (generated or replayed data).
    public var recordAtNow = false

    public init(
        now: Timestamp? = nil, eventId: UUID? = nil, expectedVersion: UInt64? = nil, correlationId: UUID? = nil,
        causationId: UUID? = nil, recordAtNow: Bool = false
    ) {
        self.now = now
        self.eventId = eventId
        self.expectedVersion = expectedVersion
        self.correlationId = correlationId
        self.causationId = causationId
        self.recordAtNow = recordAtNow
    }
}

/// What a command wrote (or, for a retry or a repeated import, had written before).
public struct CommandResult: Sendable, Hashable, Codable {
    public var stream: String
    public var firstPosition: UInt64
    public var lastPosition: UInt64
    /// The stream's version after the command.
    public var streamVersion: UInt64
    /// Nothing was written: the command had already been applied.
    public var alreadyApplied: Bool
    /// For workout commands: the workout (for a repeated import, the existing one).
    public var workoutId: String?

    package init(stream: String, firstPosition: UInt64, lastPosition: UInt64, streamVersion: UInt64, alreadyApplied: Bool, workoutId: String?) {
        self.stream = stream
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.streamVersion = streamVersion
        self.alreadyApplied = alreadyApplied
        self.workoutId = workoutId
    }
}
