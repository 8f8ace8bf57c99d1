/// A family of cached query answers, and what they read: the read models whose folds change
/// them. A commit invalidates a user's entries of this cache exactly when it carries an event
/// type one of those read models reads (``ReadModel/reads(_:)``) — no second list to keep in step.
public struct CachedQuery: Sendable, Hashable, CustomStringConvertible {
    /// The cache's name, as `cacheStatus()` and metrics report it.
    public let name: String
    /// The read models the answers are computed from.
    package let readModels: [ReadModelKind]
    /// The answers also list the user's events straight from the log (the timeline), so every
    /// event of the user changes them.
    let readsUserLog: Bool
    /// An append of one of these types for a user invalidates that user's entries.
    let dependsOn: EventTypeSet
    /// Catalog changes (places added) invalidate every user's entries of this cache.
    let dependsOnCatalog: Bool

    /// `readsCatalog`: the answers also read the shared catalog's entries (names, categories) from
    /// the places read model without reading its users' side, so catalog changes invalidate them
    /// and a user's swipes and visits do not.
    init(name: String, reads readModels: [ReadModelKind], readsUserLog: Bool = false, readsCatalog: Bool = false) {
        self.name = name
        self.readModels = readModels
        self.readsUserLog = readsUserLog
        var types = EventTypeSet()
        for kind in readModels { types.formUnion(ReadModelRegistry.model(kind).readTypes) }
        if readsCatalog { for type in EventType.allCases where type.family == .catalog { types.insert(type) } }
        if readsUserLog { types = .all }
        dependsOn = types
        dependsOnCatalog = EventType.allCases.contains { $0.family == .catalog && types.contains($0) }
    }

    public var description: String { name }

    /// The wire names of the event types whose appends for a user change that user's answers, in
    /// name order (every type, for answers that read the user's log).
    package var eventTypeNames: [String] { EventType.allCases.filter { dependsOn.contains($0) }.map(\.rawValue).sorted() }
    /// Whether changes every user shares (the places catalog) change the answers too.
    package var changesWithSharedData: Bool { dependsOnCatalog }

    public static func == (lhs: CachedQuery, rhs: CachedQuery) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension CachedQuery {
    /// Profiles and statistics.
    public static let stats = CachedQuery(name: "stats", reads: [.profiles, .stats])
    /// Goal weeks and streaks (steps and active minutes come from the stats).
    public static let goals = CachedQuery(name: "goals", reads: [.profiles, .stats, .goals])
    /// The deck, saved and visited places.
    public static let places = CachedQuery(name: "places", reads: [.profiles, .places])
    /// Activity lists, details, calendars and insights.
    public static let activities = CachedQuery(name: "activities", reads: [.profiles, .activities])
    /// Timeline pages: the user's events from the log, described with the timeline's context.
    public static let timeline = CachedQuery(name: "timeline", reads: [.timeline], readsUserLog: true)
    /// Collectibles (workout milestones from the ledger, step and goal milestones from stats and goals).
    public static let collectibles = CachedQuery(name: "collectibles", reads: [.profiles, .stats, .goals, .collectibles])
    /// Training targets (a target change invalidates them; a plan change does not).
    public static let trainingTargets = CachedQuery(name: "training-targets", reads: [.profiles, .targets])
    /// The plan with each planned workout's status: targets, plans, workouts and profile changes invalidate it.
    public static let trainingPlan = CachedQuery(name: "training-plan", reads: [.profiles, .targets, .plan, .intensity])
    /// The weekly summary (the Training article): targets, plans, workouts and profile changes invalidate it.
    public static let trainingWeek = CachedQuery(name: "training-week", reads: [.profiles, .targets, .plan, .intensity])
    /// Daily load with acute, chronic and ACWR: workouts and profile changes (heart-rate settings) invalidate it.
    public static let trainingLoad = CachedQuery(name: "training-load", reads: [.profiles, .intensity])
}
