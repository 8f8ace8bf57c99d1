/// Logbook's read models, by name. The order is the order they fold in and are digested.
public enum ProjectionKind: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case profiles, stats, goals, places, activities, timeline, collectibles

    /// The projection's code version: a change makes it rebuild on open.
    public var codeVersion: Int {
        switch self {
        case .profiles: ProfilesProjection.codeVersion
        case .stats: StatsProjection.codeVersion
        case .goals: GoalsProjection.codeVersion
        case .places: PlacesProjection.codeVersion
        case .activities: ActivitiesProjection.codeVersion
        case .timeline: TimelineProjection.codeVersion
        case .collectibles: CollectiblesProjection.codeVersion
        }
    }

    /// The names of the projection's tables.
    var tableNames: [String] {
        switch self {
        case .profiles: ProfilesProjection.tableNames
        case .stats: StatsProjection.tableNames
        case .goals: GoalsProjection.tableNames
        case .places: PlacesProjection.tableNames
        case .activities: ActivitiesProjection.tableNames
        case .timeline: TimelineProjection.tableNames
        case .collectibles: CollectiblesProjection.tableNames
        }
    }

    public static func < (lhs: ProjectionKind, rhs: ProjectionKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Every projection, folding together: the unit that runs inline, in rebuilds and for as-of
/// queries. Only the projections in ``active`` fold and flush.
struct ProjectionSet: Sendable {
    var profiles: ProfilesProjection
    var stats: StatsProjection
    var goals: GoalsProjection
    var places: PlacesProjection
    var activities: ActivitiesProjection
    var timeline: TimelineProjection
    var collectibles: CollectiblesProjection
    var active: Set<ProjectionKind>

    init(tables: (ProjectionKind) -> ProjectionTables, active: Set<ProjectionKind> = Set(ProjectionKind.allCases)) {
        profiles = ProfilesProjection(tables(.profiles))
        stats = StatsProjection(tables(.stats))
        goals = GoalsProjection(tables(.goals))
        places = PlacesProjection(tables(.places))
        activities = ActivitiesProjection(tables(.activities))
        timeline = TimelineProjection(tables(.timeline))
        collectibles = CollectiblesProjection(tables(.collectibles))
        self.active = active
    }

    /// Every projection in memory, for as-of queries and tests.
    static func inMemory() -> ProjectionSet { ProjectionSet(tables: { _ in ProjectionTables(inMemory: ()) }) }

    mutating func apply(_ fold: FoldEvent, _ txn: ReadTransaction?) throws {
        if active.contains(.profiles) { try profiles.apply(fold, txn) }
        if active.contains(.stats) { try stats.apply(fold, txn) }
        if active.contains(.goals) { try goals.apply(fold, txn) }
        if active.contains(.places) { try places.apply(fold, txn) }
        if active.contains(.activities) { try activities.apply(fold, txn) }
        if active.contains(.timeline) { try timeline.apply(fold, txn) }
        if active.contains(.collectibles) { try collectibles.apply(fold, txn) }
    }

    mutating func flush(_ txn: WriteTransaction) throws {
        if active.contains(.profiles) { try profiles.flush(txn) }
        if active.contains(.stats) { try stats.flush(txn) }
        if active.contains(.goals) { try goals.flush(txn) }
        if active.contains(.places) { try places.flush(txn) }
        if active.contains(.activities) { try activities.flush(txn) }
        if active.contains(.timeline) { try timeline.flush(txn) }
        if active.contains(.collectibles) { try collectibles.flush(txn) }
    }

    mutating func dropCache(_ kinds: Set<ProjectionKind> = Set(ProjectionKind.allCases)) {
        if kinds.contains(.profiles) { profiles.dropCache() }
        if kinds.contains(.stats) { stats.dropCache() }
        if kinds.contains(.goals) { goals.dropCache() }
        if kinds.contains(.places) { places.dropCache() }
        if kinds.contains(.activities) { activities.dropCache() }
        if kinds.contains(.timeline) { timeline.dropCache() }
        if kinds.contains(.collectibles) { collectibles.dropCache() }
    }

    var cachedCount: Int {
        profiles.cachedCount + stats.cachedCount + goals.cachedCount + places.cachedCount + activities.cachedCount
            + timeline.cachedCount + collectibles.cachedCount
    }
}

import LMDB
