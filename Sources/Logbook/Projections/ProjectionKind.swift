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

    /// The kind's bit in a ``ProjectionSet``'s mask.
    var bit: UInt8 {
        switch self {
        case .profiles: 1
        case .stats: 2
        case .goals: 4
        case .places: 8
        case .activities: 16
        case .timeline: 32
        case .collectibles: 64
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
    /// Which projections fold and flush (a bit per kind, for a cheap test per event).
    private var mask: UInt8 = 0
    var active: Set<ProjectionKind> {
        get { Set(ProjectionKind.allCases.filter { mask & $0.bit != 0 }) }
        set { mask = newValue.reduce(0) { $0 | $1.bit } }
    }

    init(tables: (ProjectionKind) -> ProjectionTables, active: Set<ProjectionKind> = Set(ProjectionKind.allCases)) {
        profiles = ProfilesProjection(tables(.profiles))
        stats = StatsProjection(tables(.stats))
        goals = GoalsProjection(tables(.goals))
        places = PlacesProjection(tables(.places))
        activities = ActivitiesProjection(tables(.activities))
        timeline = TimelineProjection(tables(.timeline))
        collectibles = CollectiblesProjection(tables(.collectibles))
        self.mask = active.reduce(0) { $0 | $1.bit }
    }

    /// Every projection in memory, for as-of queries and tests.
    static func inMemory() -> ProjectionSet { ProjectionSet(tables: { _ in ProjectionTables(inMemory: ()) }) }

    mutating func apply(_ fold: FoldEvent, _ txn: ReadTransaction?) throws {
        if mask & ProjectionKind.profiles.bit != 0 { try profiles.apply(fold, txn) }
        if mask & ProjectionKind.stats.bit != 0 { try stats.apply(fold, txn) }
        if mask & ProjectionKind.goals.bit != 0 { try goals.apply(fold, txn) }
        if mask & ProjectionKind.places.bit != 0 { try places.apply(fold, txn) }
        if mask & ProjectionKind.activities.bit != 0 { try activities.apply(fold, txn) }
        if mask & ProjectionKind.timeline.bit != 0 { try timeline.apply(fold, txn) }
        if mask & ProjectionKind.collectibles.bit != 0 { try collectibles.apply(fold, txn) }
    }

    mutating func flush(_ txn: WriteTransaction) throws {
        if mask & ProjectionKind.profiles.bit != 0 { try profiles.flush(txn) }
        if mask & ProjectionKind.stats.bit != 0 { try stats.flush(txn) }
        if mask & ProjectionKind.goals.bit != 0 { try goals.flush(txn) }
        if mask & ProjectionKind.places.bit != 0 { try places.flush(txn) }
        if mask & ProjectionKind.activities.bit != 0 { try activities.flush(txn) }
        if mask & ProjectionKind.timeline.bit != 0 { try timeline.flush(txn) }
        if mask & ProjectionKind.collectibles.bit != 0 { try collectibles.flush(txn) }
    }

    mutating func markFlushed() {
        profiles.markFlushed()
        stats.markFlushed()
        goals.markFlushed()
        places.markFlushed()
        activities.markFlushed()
        timeline.markFlushed()
        collectibles.markFlushed()
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
