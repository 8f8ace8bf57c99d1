package import EventLog

/// One event as the read models see it: where it is, what it is, when it happened.
package struct FoldEvent: Sendable {
    package let position: UInt64
    package let envelope: EventEnvelope
    package let event: DomainEvent

    package init(position: UInt64, envelope: EventEnvelope, event: DomainEvent) {
        self.position = position
        self.envelope = envelope
        self.event = event
    }

    /// The user the event concerns, or "" for catalog events.
    var user: String { envelope.subject ?? "" }
}

/// A read model: a pure fold of events into tables, and what the rest of Logbook needs to know
/// about it. Each read model lives in one file that declares all of it, and one line of
/// ``ReadModelRegistry`` makes it part of Logbook (see the DocC article "Adding a read model").
///
/// The same code runs inline (inside the log's write transaction), following a log from a
/// subscription, in rebuilds (in chunks, from the log) and for as-of queries (in memory). A read
/// model reads nothing but its own tables and the events: no clock, no randomness, no dependence
/// on hash order, locale or time zone.
protocol ReadModel: Sendable {
    /// The read model's name: its checkpoint's and its databases' names (`rm.<name>.<table>`).
    static var kind: ReadModelKind { get }
    /// Bumped whenever the fold or the stored form changes: the read model then rebuilds on open.
    static var codeVersion: Int { get }
    /// The fold of each event type the read model reads (``Folds``): what it reads and how it
    /// folds are declared once, together.
    static var folds: Folds<Self> { get }

    /// The read model over `tables` (each table made with ``ReadModelTables/table(_:_:_:)``).
    init(_ tables: ReadModelTables)

    /// Folds one event in (by its type's entry in ``folds``; only events of the types it reads
    /// are handed to it).
    mutating func apply(_ event: FoldEvent, _ txn: (any TableReader)?) throws

    /// Hands every table to `visitor`, once each: flushing, forgetting and counting cached
    /// records, and the table names all go through this one list.
    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws

    /// Whether the read model adds notes to timeline lines (default false).
    static var notesTimeline: Bool { get }

    /// Whether a replay folds the read model on a task of its own, beside the others (default
    /// false): for a read model that takes a large share of a replay's time by itself.
    static var foldsApart: Bool { get }

    /// The note the read model adds to the audit timeline's line of `user`'s event at
    /// `position` ("Personal record: longest distance"), if any. Asked only of read models whose
    /// ``notesTimeline`` is true; the default has none.
    mutating func timelineNote(user: String, position: UInt64, _ txn: (any TableReader)?) throws -> String?
}

/// Work done on each table of a read model (see ``ReadModel/visitTables(_:)``).
protocol TableVisitor {
    mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) throws
}

extension ReadModel {
    static var notesTimeline: Bool { false }
    static var foldsApart: Bool { false }

    mutating func apply(_ event: FoldEvent, _ txn: (any TableReader)?) throws {
        try Self.folds.apply(event, to: &self, txn)
    }

    /// Whether the read model folds events of `type`. Caches of the queries that read this model
    /// are invalidated by exactly these types (``CachedQuery``).
    static func reads(_ type: EventType) -> Bool { folds.types.contains(type) }

    mutating func timelineNote(user: String, position: UInt64, _ txn: (any TableReader)?) throws -> String? { nil }

    /// The names of the read model's tables (without the `rm.<name>.` prefix).
    static var tableNames: [String] {
        var model = Self(ReadModelTables(inMemory: ()))
        var names = TableNames()
        try? model.visitTables(&names)
        return names.names
    }

    /// The event types the fold reads.
    static var readTypes: EventTypeSet { folds.types }

    /// Writes the tables' changed records (again, if the transaction is retried).
    mutating func flush(_ txn: any TableWriter) throws {
        var flusher = TableFlusher(txn: txn)
        try visitTables(&flusher)
    }

    /// Forgets which records changed, after the flushing transaction committed.
    mutating func markFlushed() {
        var marker = TableFlushMarker()
        try? visitTables(&marker)
    }

    /// Forgets which records changed, flushed into writes that commit later (see
    /// ``ReadModelTable/markHandedOff()``).
    mutating func markHandedOff() {
        var marker = TableHandOffMarker()
        try? visitTables(&marker)
    }

    /// The writes of the records handed off committed.
    mutating func markWritten() {
        var marker = TableWrittenMarker()
        try? visitTables(&marker)
    }

    /// Forgets cached records.
    mutating func dropCache() {
        var dropper = TableCacheDropper()
        try? visitTables(&dropper)
    }

    /// How many records are cached (to bound memory during rebuilds).
    var cachedCount: Int {
        mutating get {
            var counter = TableCacheCounter()
            try? visitTables(&counter)
            return counter.count
        }
    }
}

private struct TableNames: TableVisitor {
    var names: [String] = []
    mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) { names.append(table.name) }
}

private struct TableFlusher: TableVisitor {
    let txn: any TableWriter
    mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) throws { try table.flush(txn) }
}

private struct TableFlushMarker: TableVisitor {
    mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) { table.markFlushed() }
}

private struct TableHandOffMarker: TableVisitor {
    mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) { table.markHandedOff() }
}

private struct TableWrittenMarker: TableVisitor {
    mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) { table.markWritten() }
}

private struct TableCacheDropper: TableVisitor {
    mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) { table.dropCache() }
}

private struct TableCacheCounter: TableVisitor {
    var count = 0
    mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) { count += table.cachedCount }
}

/// Where a read model's tables live: a store's tables (``StoredTable``), or memory.
package struct ReadModelTables: Sendable {
    private let databases: [String: StoredTable]
    let inMemory: Bool

    package init(databases: [String: StoredTable]) {
        self.databases = databases
        self.inMemory = false
    }

    init(inMemory: Void) {
        self.databases = [:]
        self.inMemory = true
    }

    /// The table named `name`, backed by its database or by memory.
    func table<K: TableKey, V: TableValue>(_ name: String, _: K.Type = K.self, _: V.Type = V.self) -> ReadModelTable<K, V> {
        if inMemory { return ReadModelTable(inMemory: name) }
        guard let database = databases[name] else { preconditionFailure("no database for table \(name)") }
        return ReadModelTable(name: name, database: database)
    }
}

/// The full name of a read model's database.
package func databaseName(projection: String, table: String) -> String { "rm.\(projection).\(table)" }
