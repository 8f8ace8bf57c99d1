public import EventLog

extension Command {
    /// The command that asks for `event` on behalf of `user` (empty for the catalog): what a client
    /// sends when it speaks in events (the HTTP API's bodies are event payloads). Pauses, resumes,
    /// tracks, imports and erasures go to their own commands; every other type is recorded by the
    /// rule its declaration names.
    public init(user: String, event: DomainEvent) {
        switch event {
        case .workoutPaused(let e): self = .pauseWorkout(user: user, workoutId: e.workoutId, at: e.at)
        case .workoutResumed(let e): self = .resumeWorkout(user: user, workoutId: e.workoutId, at: e.at)
        case .workoutImported(let e): self = .importWorkout(user: user, e)
        case .workoutTrackRecorded(let e): self = .recordTrack(user: user, workoutId: e.workoutId, e.samples)
        case .userErased: self = .eraseUser(user: user)
        default: self = .record(user: event.type.family == .catalog && user.isEmpty ? nil : user, event)
        }
    }
}

/// Shorthands for the commands that record one event by its declared rule: each is
/// ``Command/record(user:_:)`` of that event.
extension Command {
    public static func registerUser(user: String, _ e: UserRegistered) -> Command { .record(user: user, .userRegistered(e)) }
    public static func updateProfile(user: String, _ e: UserProfileUpdated) -> Command { .record(user: user, .userProfileUpdated(e)) }
    public static func startWorkout(user: String, _ e: WorkoutStarted) -> Command { .record(user: user, .workoutStarted(e)) }
    public static func finishWorkout(user: String, _ e: WorkoutFinished) -> Command { .record(user: user, .workoutFinished(e)) }
    public static func discardWorkout(user: String, workoutId: String) -> Command {
        .record(user: user, .workoutDiscarded(WorkoutReference(workoutId: workoutId)))
    }
    public static func editWorkout(user: String, _ e: WorkoutEdited) -> Command { .record(user: user, .workoutEdited(e)) }
    public static func deleteWorkout(user: String, workoutId: String) -> Command {
        .record(user: user, .workoutDeleted(WorkoutReference(workoutId: workoutId)))
    }
    public static func recordSteps(user: String, _ e: StepsRecorded) -> Command { .record(user: user, .stepsRecorded(e)) }
    public static func setGoal(user: String, _ e: GoalSet) -> Command { .record(user: user, .goalSet(e)) }
    public static func clearGoal(user: String, date: CivilDate) -> Command { .record(user: user, .goalCleared(GoalCleared(date: date))) }
    public static func setDefaultGoal(user: String, _ e: GoalDefaultSet) -> Command { .record(user: user, .goalDefaultSet(e)) }
    /// Adds a place to the shared catalog (no user's).
    public static func addPlace(_ e: PlaceAdded) -> Command { .record(user: nil, .placeAdded(e)) }
    public static func swipePlace(user: String, _ e: PlaceSwiped) -> Command { .record(user: user, .placeSwiped(e)) }
    public static func visitPlace(user: String, _ e: PlaceVisited) -> Command { .record(user: user, .placeVisited(e)) }
    public static func editPlaceNotes(user: String, _ e: PlaceNotesEdited) -> Command { .record(user: user, .placeNotesEdited(e)) }
    public static func resetPlaces(user: String) -> Command { .record(user: user, .placesReset) }
}
