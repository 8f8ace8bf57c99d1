import EventLog
import LMDB

/// One event as the projections see it: where it is, what it is, when it happened.
struct FoldEvent {
    let position: UInt64
    let envelope: EventEnvelope
    let event: DomainEvent

    /// The user the event concerns, or "" for catalog events.
    var user: String { envelope.subject ?? "" }
}

/// A read model: a pure fold of events into tables.
///
/// The same code runs inline (inside the log's write transaction), in rebuilds (in chunks, from
/// the log) and for as-of queries (in memory). A projection reads nothing but its own tables
/// and the events: no clock, no randomness, no dependence on hash order, locale or time zone.
protocol Projection {
    /// The projection's name, used for its checkpoint and its databases' names.
    static var name: String { get }
    /// Bumped whenever the fold or the stored form changes: the projection then rebuilds on open.
    static var codeVersion: Int { get }
    /// The names of the databases the projection owns (without the `rm.<name>.` prefix).
    static var tableNames: [String] { get }

    init(_ tables: ProjectionTables)

    /// Folds one event in.
    mutating func apply(_ event: FoldEvent, _ txn: ReadTransaction?) throws
    /// Writes the tables' changed records (again, if the transaction is retried).
    mutating func flush(_ txn: WriteTransaction) throws
    /// Forgets which records changed, after the flushing transaction committed.
    mutating func markFlushed()
    /// Forgets cached records.
    mutating func dropCache()
    /// How many records are cached (to bound memory during rebuilds).
    var cachedCount: Int { get }
}

/// Where a projection's tables live: named LMDB databases, or memory.
struct ProjectionTables: Sendable {
    private let databases: [String: Database]
    let inMemory: Bool

    init(databases: [String: Database]) {
        self.databases = databases
        self.inMemory = false
    }

    init(inMemory: Void) {
        self.databases = [:]
        self.inMemory = true
    }

    /// The table named `name`, backed by its database or by memory.
    func table<K: TableKey, V: TableValue>(_ name: String, _: K.Type = K.self, _: V.Type = V.self) -> ReadModelTable<K, V> {
        if inMemory { return ReadModelTable(inMemory: ()) }
        guard let database = databases[name] else { preconditionFailure("no database for table \(name)") }
        return ReadModelTable(database)
    }
}

/// The full name of a projection's database.
func databaseName(projection: String, table: String) -> String { "rm.\(projection).\(table)" }
