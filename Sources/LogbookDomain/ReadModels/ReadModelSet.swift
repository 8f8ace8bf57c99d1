import EventLog

/// Every read model, folding together: the unit that runs inline, in rebuilds and for as-of
/// queries. Only the read models in ``active`` fold and flush.
///
/// Built from ``ReadModelRegistry``; a query reaches one read model by its type
/// (`projections[StatsReadModel.self]`, or the accessor its file declares, `projections.stats`).
package struct ReadModelSet: Sendable {
    /// The read models, in registry order, each made when first used.
    private var members: [(any ReadModel)?]
    /// Where each read model's tables live, in registry order.
    private let tables: [ReadModelTables]
    /// Which read models fold and flush (a bit per registry index, for a cheap test per event).
    private var mask: UInt64
    /// Which members are made (a bit per registry index), so folding an event does not test an
    /// existential optional per read model.
    private var made: UInt64 = 0
    /// Goal days kept between queries of the live read models (nil: work them out each time, as
    /// a fold in memory for an as-of query does).
    package var goalDayBlocks: GoalDayBlocks.Kept.Pinned?
    /// The read models whose live tables an older code version built (an upgrade replaces them):
    /// queries read them without what this version adds (block stamps and block sums: the blocks
    /// come from the records themselves).
    package var olderTables: Set<ReadModelKind> = []

    /// The stats or goals tables keep no block stamps (an older code version built them).
    var unstampedDays: Bool { olderTables.contains(.stats) || olderTables.contains(.goals) }

    package var active: Set<ReadModelKind> {
        get { Set(ReadModelKind.allCases.filter { mask & Self.bit($0) != 0 }) }
        set { mask = newValue.reduce(0) { $0 | Self.bit($1) } }
    }

    private static func bit(_ kind: ReadModelKind) -> UInt64 { 1 << UInt64(kind.index) }

    /// Read models over `tables` (one per registry entry, in order); all of them active unless
    /// `active` says otherwise.
    package init(tables: [ReadModelTables], active: Set<ReadModelKind>? = nil) {
        precondition(tables.count == ReadModelRegistry.models.count, "one set of tables per read model")
        self.tables = tables
        members = Array(repeating: nil, count: tables.count)
        mask = active.map { $0.reduce(0) { $0 | Self.bit($1) } } ?? (UInt64.max >> (64 - UInt64(tables.count)))
    }

    /// Every read model in memory, for as-of queries and tests.
    package static func inMemory() -> ReadModelSet {
        ReadModelSet(tables: Array(repeating: ReadModelTables(inMemory: ()), count: ReadModelRegistry.models.count))
    }

    /// The read model of type `P`, changed in place.
    subscript<P: ReadModel>(_ type: P.Type) -> P {
        get { members[P.kind.index] as? P ?? P(tables[P.kind.index]) }
        _modify {
            let index = P.kind.index
            var model = members[index] as? P ?? P(tables[index])
            // Leave nothing behind that shares the model's storage, so changing it copies nothing.
            members[index] = nil
            defer {
                members[index] = model
                made |= 1 << UInt64(index)
            }
            yield &model
        }
    }

    /// The member at registry `index`, made if needed.
    @inline(__always)
    private mutating func prepare(_ index: Int) {
        guard made & (1 << UInt64(index)) == 0 else { return }
        members[index] = ReadModelRegistry.models[index].init(tables[index])
        made |= 1 << UInt64(index)
    }

    /// For each event type (by its ``EventType/index``), the registry indices of the read models
    /// that read it, as bits: an event is handed only to those (``ReadModel/readTypes``) — a step
    /// batch to one read model, not to all eight.
    private static let readers: [UInt64] = EventType.allCases.map { type in
        ReadModelRegistry.models.indices.reduce(UInt64(0)) { ReadModelRegistry.models[$1].readTypes.contains(type) ? $0 | 1 << UInt64($1) : $0 }
    }

    /// Folds `fold` into the active read models that read its type, in registry order.
    package mutating func apply(_ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        var bits = mask & Self.readers[fold.event.type.index]
        while bits != 0 {
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            prepare(index)
            try members[index]!.apply(fold, txn)
        }
    }

    package mutating func flush(_ txn: any TableWriter) throws {
        for index in members.indices where mask & (1 << UInt64(index)) != 0 { try members[index]?.flush(txn) }
    }

    package mutating func markFlushed() {
        for index in members.indices { members[index]?.markFlushed() }
    }

    /// Forgets which records changed, flushed into writes that commit later: range reads take
    /// them from the cache until ``markWritten()``, and the cache must be kept until then.
    package mutating func markHandedOff() {
        for index in members.indices { members[index]?.markHandedOff() }
    }

    /// The writes of the records handed off committed.
    package mutating func markWritten() {
        for index in members.indices { members[index]?.markWritten() }
    }

    package mutating func dropCache(_ kinds: Set<ReadModelKind>? = nil) {
        for index in members.indices where kinds?.contains(ReadModelRegistry.kinds[index]) ?? true { members[index]?.dropCache() }
    }

    package var cachedCount: Int {
        mutating get {
            var total = 0
            for index in members.indices { total += members[index]?.cachedCount ?? 0 }
            return total
        }
    }

    /// The notes the read models add to the timeline line of `user`'s event at `position`, in
    /// registry order (see ``ReadModel/timelineNote(user:position:_:)``).
    package mutating func timelineNotes(user: String, position: UInt64, _ txn: (any TableReader)?) throws -> [String] {
        var notes: [String] = []
        for index in Self.annotating {
            prepare(index)
            if let note = try members[index]!.timelineNote(user: user, position: position, txn) { notes.append(note) }
        }
        return notes
    }

    /// The registry indices of the read models that note timeline lines.
    private static let annotating = ReadModelRegistry.models.indices.filter { ReadModelRegistry.models[$0].notesTimeline }
}
