import EventLog

// DomainEvent and EventType themselves are generated from the declarations (Generated/DomainEvent.swift).

extension DomainEvent {
    /// The stream the event belongs to, for the user it concerns (see <doc:DomainRules>).
    public func stream(user: String) -> String {
        switch type.family {
        case .user: "user-\(user)"
        case .workout: Self.workoutStreamPrefix + (workoutId ?? "")
        case .steps: "steps-\(user)"
        case .goals: "goals-\(user)"
        case .places: "places-\(user)"
        case .training: "training-\(user)"
        case .stats: "stats-\(user)"
        case .catalog: Self.catalogStream
        }
    }

    /// The stream of the shared places catalog.
    public static let catalogStream = "catalog"

    /// What a workout's stream is named by: `workout-` and the workout's id.
    static let workoutStreamPrefix = "workout-"

    /// The id of the workout whose stream is `stream`, or nil if it is no workout's (compared as
    /// bytes).
    public static func workoutId(ofStream stream: String) -> String? {
        let prefix = workoutStreamPrefix.utf8
        guard stream.utf8.starts(with: prefix) else { return nil }
        return String(decoding: stream.utf8.dropFirst(prefix.count), as: UTF8.self)
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
