package import EventLog
import Foundation

/// What deciding a command produced: events to append (with when they occurred), or the answer
/// of a command that needs no new event (a repeated import).
package struct Decision {
    package var events: [(DomainEvent, occurredAt: Timestamp)] = []
    package var workoutId: String?
    /// Set when nothing is to be written: the existing workout of a repeated import.
    package var existingWorkout: String?

    /// Whether the decision begins a workout (its first event starts or imports one). The
    /// workout's stream must then be new: a workout's id is never used twice, not even one of a
    /// user since erased, whose records are gone but whose events keep the stream — so a
    /// workout's stream only ever holds its own user's events.
    package var beginsWorkout: Bool {
        guard let first = events.first?.0.type else { return false }
        return first == .workoutStarted || first == .workoutImported
    }
}

/// Judges commands against a ``DecisionState`` and the rules of the DomainRules article: pure,
/// given the state and the moment `now` (the goal horizon and the times of events without their
/// own).
package struct Decider<State: DecisionState> {
    package var state: State
    package var now: Timestamp

    package init(state: State, now: Timestamp) {
        self.state = state
        self.now = now
    }

    package mutating func decide(_ command: Command) throws(LogbookError) -> Decision {
        do {
            return try decideUnchecked(command)
        } catch let error as LogbookError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    private mutating func decideUnchecked(_ command: Command) throws -> Decision {
        switch command {
        case .pauseWorkout(let user, let id, let at):
            let workout = try ownWorkout(user, id)
            guard workout.status == .running else { throw rule(.workoutLifecycle, "workout \(id) is \(workout.status.rawValue), not running: it cannot pause") }
            guard try state.pauses(of: id).count < Rules.maxPausesPerWorkout else {
                throw rule(.workoutLifecycle, "workout \(id) has paused \(Rules.maxPausesPerWorkout) times, the most a workout may")
            }
            let moment = at ?? Rules.local(now, workout.startedAt.utcOffsetSeconds)
            guard moment.instant >= workout.startedAt.instant else { throw rule(.endsAfterStart, "a pause cannot come before the start") }
            return Decision(events: [(.workoutPaused(WorkoutPauseChange(workoutId: id, at: moment)), moment)], workoutId: id)
        case .resumeWorkout(let user, let id, let at):
            let workout = try ownWorkout(user, id)
            guard workout.status == .paused else { throw rule(.workoutLifecycle, "workout \(id) is \(workout.status.rawValue), not paused: it cannot resume") }
            let moment = at ?? Rules.local(now, workout.startedAt.utcOffsetSeconds)
            guard moment.instant >= workout.startedAt.instant else { throw rule(.endsAfterStart, "a resume cannot come before the start") }
            return Decision(events: [(.workoutResumed(WorkoutPauseChange(workoutId: id, at: moment)), moment)], workoutId: id)
        case .importWorkout(let user, let e, let track):
            _ = try registered(user)
            try Rules.id(e.workoutId, "workoutId")
            guard e.source.kind != .manual, let sourceId = e.source.sourceId, !sourceId.isEmpty else {
                throw rule(.importNeedsSource, "an import names its source kind (not manual) and the workout's id there")
            }
            try Rules.text(sourceId, "source.sourceId", required: true, limit: 256)
            if let existing = try state.importedWorkout(user: user, kind: e.source.kind, sourceId: sourceId) {
                return Decision(workoutId: existing, existingWorkout: existing)
            }
            if e.workoutId.hasPrefix(WorkoutImported.derivedIdPrefix),
               e.workoutId != WorkoutImported.derivedWorkoutId(user: user, kind: e.source.kind, sourceId: sourceId) {
                try reservedId(e.workoutId)
            }
            if let existing = try state.workout(e.workoutId) {
                // The same import after the user deleted that workout: it stays deleted (a no-op).
                guard existing.status == .deleted, existing.user == user, existing.source == e.source else {
                    throw rule(.workoutExists, "workout \(e.workoutId) already exists")
                }
                return Decision(workoutId: e.workoutId, existingWorkout: e.workoutId)
            }
            guard e.endedAt.instant > e.startedAt.instant else { throw rule(.endsAfterStart, "endedAt must be after startedAt") }
            try Rules.totals(distance: e.distanceMeters, moving: e.movingSeconds, steps: e.steps, kcal: e.activeKcal, heartRate: e.avgHeartRate,
                             laps: e.laps, elapsed: e.elapsedSeconds, maxHeartRate: e.maxHeartRate)
            if let title = e.title { try Rules.text(title, "title") }
            let occurredAt = Rules.local(now, e.endedAt.utcOffsetSeconds)
            var events: [(DomainEvent, occurredAt: Timestamp)] = [(.workoutImported(e), occurredAt)]
            if let track {
                try Rules.track(track)
                for part in WorkoutTrackRecorded.events(workoutId: e.workoutId, track: track) {
                    events.append((.workoutTrackRecorded(part), occurredAt))
                }
            }
            return Decision(events: events, workoutId: e.workoutId)
        case .recordTrack(let user, let id, let track):
            let workout = try ownWorkout(user, id)
            try Rules.track(track)
            let occurredAt = Rules.local(now, workout.startedAt.utcOffsetSeconds)
            switch workout.status {
            case .running, .paused:
                // Recorded live: each call continues the track, up to the track limit in all.
                guard track.points <= Rules.maxTrackPoints - workout.trackPoints else {
                    throw rule(.trackInvalid, "workout \(id) holds \(workout.trackPoints) track points: \(track.points) more would pass the limit of \(Rules.maxTrackPoints)")
                }
                if let last = try state.lastTrackPart(of: workout)?[.offsetMillis]?.last(where: { $0 != nil }) ?? nil,
                   let first = track[.offsetMillis]?.first(where: { $0 != nil }) ?? nil, first < last {
                    throw rule(.trackInvalid, "track point 0 (offset \(first) ms) is earlier than the last point recorded so far (\(last) ms)")
                }
            case .finished:
                guard workout.trackParts == 0 else { throw rule(.trackInvalid, "workout \(id) already has its track") }
            case .discarded, .deleted:
                throw rule(.workoutLifecycle, "workout \(id) is \(workout.status.rawValue): a track is recorded while it runs or once it is finished")
            }
            let parts = WorkoutTrackRecorded.events(workoutId: id, track: track, firstPart: workout.trackParts)
            return Decision(events: parts.map { (.workoutTrackRecorded($0), occurredAt) }, workoutId: id)
        case .importPlaces(let entries):
            return try importPlaces(entries)
        case .changePlannedWorkout(let user, let plannedId, let changes):
            return try changePlannedWorkout(user: user, plannedId: plannedId, changes)
        case .generatePlan(let user, let request):
            return try generatePlan(user: user, request)
        case .eraseUser(let user):
            let profile = try registered(user)
            return Decision(events: [(.userErased, Rules.local(now, try Rules.timeZone(profile.timeZone)))])
        case .record(let user, let event):
            // The catalog is no user's: a catalog event recorded for a user would carry them as its
            // subject, and erasing them would erase it for everyone. Every other family is one user's.
            let forNoUser = event.type.family == .catalog
            guard forNoUser == (user == nil) else {
                throw LogbookError.invalidArgument(
                    name: "user", reason: forNoUser ? "\(event.type.rawValue) is recorded for no user (Command(user: \"\", …))"
                        : "\(event.type.rawValue) is recorded for the user it concerns")
            }
            return try decideDeclared(event, user: user)
        }
    }

    package func rule(_ rule: DomainRule, _ message: String) -> LogbookError { .ruleViolation(rule: rule, message: message) }

    /// Workout ids of the derived prefix belong to file imports (each to one user's workout at one source).
    func reservedId(_ workoutId: String) throws {
        if workoutId.hasPrefix(WorkoutImported.derivedIdPrefix) {
            throw LogbookError.invalidArgument(
                name: "workoutId", reason: "ids starting \(WorkoutImported.derivedIdPrefix) are given by file imports; choose another")
        }
    }

    package mutating func registered(_ user: String) throws -> Profile {
        try Rules.id(user, "user")
        guard let profile = try state.profile(user) else {
            throw rule(.userNotRegistered, "user \(user) is not registered")
        }
        return profile
    }

    package mutating func ownWorkout(_ user: String, _ id: String) throws -> ActivityRecord {
        _ = try registered(user)
        try Rules.id(id, "workoutId")
        guard let workout = try state.workout(id), workout.user == user else {
            throw LogbookError.notFound(kind: "workout", id: id)
        }
        return workout
    }

    package mutating func knownPlace(_ id: String) throws {
        try Rules.id(id, "placeId")
        guard try state.placeExists(id) else { throw rule(.unknownPlace, "no place \(id) in the catalog") }
    }
}
