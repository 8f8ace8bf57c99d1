import EventLog

extension Command {
    /// The command that asks for `event` on behalf of `user` (empty for the catalog): what a client
    /// sends when it speaks in events (the HTTP API's bodies are event payloads). Pauses and resumes
    /// keep their `at`. A type without a command of its own is recorded by its declared rule.
    public init(user: String, event: DomainEvent) {
        switch event {
        case .userRegistered(let e): self = .registerUser(user: user, e)
        case .userProfileUpdated(let e): self = .updateProfile(user: user, e)
        case .workoutStarted(let e): self = .startWorkout(user: user, e)
        case .workoutPaused(let e): self = .pauseWorkout(user: user, workoutId: e.workoutId, at: e.at)
        case .workoutResumed(let e): self = .resumeWorkout(user: user, workoutId: e.workoutId, at: e.at)
        case .workoutFinished(let e): self = .finishWorkout(user: user, e)
        case .workoutDiscarded(let e): self = .discardWorkout(user: user, workoutId: e.workoutId)
        case .workoutImported(let e): self = .importWorkout(user: user, e)
        case .workoutTrackRecorded(let e): self = .recordTrack(user: user, workoutId: e.workoutId, e.samples)
        case .workoutEdited(let e): self = .editWorkout(user: user, e)
        case .workoutDeleted(let e): self = .deleteWorkout(user: user, workoutId: e.workoutId)
        case .stepsRecorded(let e): self = .recordSteps(user: user, e)
        case .goalSet(let e): self = .setGoal(user: user, e)
        case .goalCleared(let e): self = .clearGoal(user: user, date: e.date)
        case .goalDefaultSet(let e): self = .setDefaultGoal(user: user, e)
        case .placeAdded(let e): self = .addPlace(e)
        case .placeSwiped(let e): self = .swipePlace(user: user, e)
        case .placeVisited(let e): self = .visitPlace(user: user, e)
        case .placeNotesEdited(let e): self = .editPlaceNotes(user: user, e)
        case .placesReset: self = .resetPlaces(user: user)
        case .userErased: self = .eraseUser(user: user)
        default: self = .record(user: user.isEmpty ? nil : user, event)
        }
    }
}
