import EventLog
import LMDB

/// Every read model, folding together: the unit that runs inline, in rebuilds and for as-of
/// queries. Only the read models in ``active`` fold and flush.
///
/// Built from ``ReadModelRegistry``; a query reaches one read model by its type
/// (`projections[StatsProjection.self]`, or the accessor its file declares, `projections.stats`).
struct ProjectionSet: Sendable {
    private var members: [any ReadModel]
    /// Which read models fold and flush (a bit per registry index, for a cheap test per event).
    private var mask: UInt64 = 0

    var active: Set<ProjectionKind> {
        get { Set(ProjectionKind.allCases.filter { mask & Self.bit($0) != 0 }) }
        set { mask = newValue.reduce(0) { $0 | Self.bit($1) } }
    }

    private static func bit(_ kind: ProjectionKind) -> UInt64 { 1 << UInt64(kind.index) }

    init(tables: (ProjectionKind) -> ProjectionTables, active: Set<ProjectionKind> = Set(ProjectionKind.allCases)) {
        members = ReadModelRegistry.models.map { $0.init(tables($0.kind)) }
        self.active = active
    }

    /// Every read model in memory, for as-of queries and tests.
    static func inMemory() -> ProjectionSet { ProjectionSet(tables: { _ in ProjectionTables(inMemory: ()) }) }

    /// The read model of type `P`, changed in place.
    subscript<P: ReadModel>(_ type: P.Type) -> P {
        get {
            guard let model = members[P.kind.index] as? P else { preconditionFailure("registry order broken for \(P.kind)") }
            return model
        }
        _modify {
            let index = P.kind.index
            guard var model = members[index] as? P else { preconditionFailure("registry order broken for \(P.kind)") }
            // Leave nothing behind that shares the model's storage, so changing it copies nothing.
            members[index] = Vacant()
            defer { members[index] = model }
            yield &model
        }
    }

    /// Hands each read model, in registry order, to `body`, which may change it in place.
    mutating func forEachMember(_ body: (inout any ReadModel) throws -> Void) rethrows {
        for index in members.indices { try body(&members[index]) }
    }

    mutating func apply(_ fold: FoldEvent, _ txn: ReadTransaction?) throws {
        var bits = mask
        while bits != 0 {
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            try members[index].apply(fold, txn)
        }
    }

    mutating func flush(_ txn: WriteTransaction) throws {
        for index in members.indices where mask & (1 << UInt64(index)) != 0 { try members[index].flush(txn) }
    }

    mutating func markFlushed() {
        for index in members.indices { members[index].markFlushed() }
    }

    mutating func dropCache(_ kinds: Set<ProjectionKind> = Set(ProjectionKind.allCases)) {
        for kind in kinds { members[kind.index].dropCache() }
    }

    var cachedCount: Int {
        mutating get {
            var total = 0
            for index in members.indices { total += members[index].cachedCount }
            return total
        }
    }
}

/// What stands in a ``ProjectionSet``'s slot while its read model is being changed in place.
private struct Vacant: ReadModel {
    static let kind = ProjectionKind(declared: "")
    static let codeVersion = 0
    static func reads(_ type: EventType) -> Bool { false }
    init(_ tables: ProjectionTables) {}
    init() {}
    mutating func apply(_ event: FoldEvent, _ txn: ReadTransaction?) throws {}
    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {}
}
