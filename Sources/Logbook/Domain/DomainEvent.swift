import EventLog

/// Every fact Logbook records, as a value: the payload of one event of the log.
public enum DomainEvent: Sendable, Hashable {
    case userRegistered(UserRegistered)
    case userProfileUpdated(UserProfileUpdated)
    case workoutStarted(WorkoutStarted)
    case workoutPaused(WorkoutPauseChange)
    case workoutResumed(WorkoutPauseChange)
    case workoutFinished(WorkoutFinished)
    case workoutDiscarded(WorkoutReference)
    case workoutImported(WorkoutImported)
    case workoutEdited(WorkoutEdited)
    case workoutDeleted(WorkoutReference)
    case workoutTrackRecorded(WorkoutTrackRecorded)
    case stepsRecorded(StepsRecorded)
    case goalSet(GoalSet)
    case goalCleared(GoalCleared)
    case goalDefaultSet(GoalDefaultSet)
    case placeAdded(PlaceAdded)
    case placeSwiped(PlaceSwiped)
    case placeVisited(PlaceVisited)
    case placeNotesEdited(PlaceNotesEdited)
    case placesReset
    /// The user asked to be forgotten: their key is destroyed right after this event is
    /// appended, so it and every earlier event of theirs read as erased (DESIGN §7).
    case userErased

    /// The event's type (its name on the wire and in the log).
    public var type: EventType {
        switch self {
        case .userRegistered: .userRegistered
        case .userProfileUpdated: .userProfileUpdated
        case .workoutStarted: .workoutStarted
        case .workoutPaused: .workoutPaused
        case .workoutResumed: .workoutResumed
        case .workoutFinished: .workoutFinished
        case .workoutDiscarded: .workoutDiscarded
        case .workoutImported: .workoutImported
        case .workoutEdited: .workoutEdited
        case .workoutDeleted: .workoutDeleted
        case .workoutTrackRecorded: .workoutTrackRecorded
        case .stepsRecorded: .stepsRecorded
        case .goalSet: .goalSet
        case .goalCleared: .goalCleared
        case .goalDefaultSet: .goalDefaultSet
        case .placeAdded: .placeAdded
        case .placeSwiped: .placeSwiped
        case .placeVisited: .placeVisited
        case .placeNotesEdited: .placeNotesEdited
        case .placesReset: .placesReset
        case .userErased: .userErased
        }
    }

    /// The workout the event concerns, for workout events.
    public var workoutId: String? {
        switch self {
        case .workoutStarted(let e): e.workoutId
        case .workoutPaused(let e), .workoutResumed(let e): e.workoutId
        case .workoutFinished(let e): e.workoutId
        case .workoutDiscarded(let e), .workoutDeleted(let e): e.workoutId
        case .workoutImported(let e): e.workoutId
        case .workoutEdited(let e): e.workoutId
        case .workoutTrackRecorded(let e): e.workoutId
        default: nil
        }
    }

    /// The stream the event belongs to, for the user it concerns (DESIGN §4).
    public func stream(user: String) -> String {
        switch type.family {
        case .user: "user-\(user)"
        case .workout: "workout-\(workoutId ?? "")"
        case .steps: "steps-\(user)"
        case .goals: "goals-\(user)"
        case .places: "places-\(user)"
        case .catalog: Self.catalogStream
        }
    }

    /// The stream of the shared places catalog.
    public static let catalogStream = "catalog"
}

/// The names of Logbook's event types, their current schema versions and families.
public enum EventType: String, Sendable, Hashable, CaseIterable, Codable {
    case userRegistered = "user.registered"
    case userProfileUpdated = "user.profile_updated"
    case workoutStarted = "workout.started"
    case workoutPaused = "workout.paused"
    case workoutResumed = "workout.resumed"
    case workoutFinished = "workout.finished"
    case workoutDiscarded = "workout.discarded"
    case workoutImported = "workout.imported"
    case workoutEdited = "workout.edited"
    case workoutDeleted = "workout.deleted"
    case stepsRecorded = "steps.recorded"
    case goalSet = "goal.set"
    case goalCleared = "goal.cleared"
    case goalDefaultSet = "goal.default_set"
    case placeAdded = "place.added"
    case placeSwiped = "place.swiped"
    case placeVisited = "place.visited"
    case placeNotesEdited = "place.notes_edited"
    case placesReset = "places.reset"
    case workoutTrackRecorded = "workout.track_recorded"
    case userErased = "user.erased"

    /// The schema version written today. Older versions are upcast when read.
    public var currentSchemaVersion: UInt32 {
        switch self {
        case .stepsRecorded, .workoutFinished, .workoutImported: 2
        default: 1
        }
    }

    /// Every schema version of this type the code reads.
    public var schemaVersions: ClosedRange<UInt32> { 1...currentSchemaVersion }

    /// Which group of streams the type's events live in.
    public var family: Family {
        switch self {
        case .userRegistered, .userProfileUpdated, .userErased: .user
        case .workoutStarted, .workoutPaused, .workoutResumed, .workoutFinished, .workoutDiscarded,
             .workoutImported, .workoutEdited, .workoutDeleted, .workoutTrackRecorded: .workout
        case .stepsRecorded: .steps
        case .goalSet, .goalCleared, .goalDefaultSet: .goals
        case .placeAdded: .catalog
        case .placeSwiped, .placeVisited, .placeNotesEdited, .placesReset: .places
        }
    }

    /// Groups of event types, one per kind of stream.
    public enum Family: Sendable, Hashable {
        case user, workout, steps, goals, places, catalog
    }
}

/// A set of event types as a bit mask: cheap to build per commit and to intersect.
public struct EventTypeSet: Sendable, Hashable {
    public private(set) var bits: UInt64 = 0

    public init() {}

    public init(_ types: some Sequence<EventType>) {
        for type in types { insert(type) }
    }

    public mutating func insert(_ type: EventType) { bits |= 1 << UInt64(type.index) }
    public mutating func formUnion(_ other: EventTypeSet) { bits |= other.bits }
    public func contains(_ type: EventType) -> Bool { bits & (1 << UInt64(type.index)) != 0 }
    public func intersects(_ other: EventTypeSet) -> Bool { bits & other.bits != 0 }
    public var isEmpty: Bool { bits == 0 }
    public static let all = EventTypeSet(EventType.allCases)
}

extension EventType {
    /// The type's place in ``allCases``.
    var index: Int {
        switch self {
        case .userRegistered: 0
        case .userProfileUpdated: 1
        case .workoutStarted: 2
        case .workoutPaused: 3
        case .workoutResumed: 4
        case .workoutFinished: 5
        case .workoutDiscarded: 6
        case .workoutImported: 7
        case .workoutEdited: 8
        case .workoutDeleted: 9
        case .stepsRecorded: 10
        case .goalSet: 11
        case .goalCleared: 12
        case .goalDefaultSet: 13
        case .placeAdded: 14
        case .placeSwiped: 15
        case .placeVisited: 16
        case .placeNotesEdited: 17
        case .placesReset: 18
        case .workoutTrackRecorded: 19
        case .userErased: 20
        }
    }
}
