import EventLog
import LMDB

/// The kinds of names the log interns into small numbers.
enum NameKind: Int, CaseIterable, Sendable {
    case stream
    case subject
    case type
}

/// The pair of databases that intern one kind of name: name → number and number → name.
struct NameTables: Sendable {
    let numbers: Database
    let names: Database
}

/// Every LMDB database the event log keeps, opened once per environment.
///
/// - `events`: big-endian position → record (appended with `MDB_APPEND`).
/// - `stream.*`, `subject.*`, `type.*`: interned names (name ↔ number).
/// - `stream.heads`, `subject.heads`: number → ``ChainHead``: one small record per chain, the only
///   index entries an append rewrites, so a batch dirties few pages.
/// - `ids.ordered`, `ids.other`, `ids.journal`: every event id of the log, so ids are unique in
///   the whole log. Time-ordered (version 7) ids — what the log and Logbook make — that arrive
///   newer than every indexed one are kept as runs in `ids.ordered`, one entry per batch
///   (``OrderedIdRuns``); any other id (a client's own) is appended to `ids.journal`
///   (position → id) and folded into `ids.other` (id → position, 8 bytes little-endian) in large
///   sorted batches (``IdJournal``).
/// - `checkpoints`: name → position and blob.
/// - `meta`: the storage format version, and `ids` once every event's id is indexed.
///
/// A class (immutable, shared): every read session keeps a reference, and copying one
/// reference costs one retain where copying the handles and their names cost a dozen.
final class LogDatabases: Sendable {
    let events: Database
    let orderedIds: Database
    let otherIds: Database
    let idJournal: Database
    let streamHeads: Database
    let subjectHeads: Database
    let checkpoints: Database
    let meta: Database
    private let tables: [NameTables]

    static let formatKey = Array("format".utf8)
    static let formatVersion: [UInt8] = [1]
    /// Present (value 1) once the id index holds every event's id; stores written before the
    /// index existed have it built when a writer opens them.
    static let idsIndexedKey = Array("ids".utf8)
    /// Meta key: the newest time-ordered id an old log held when it was indexed (they are in
    /// `ids.other`); only ids newer than it and every run skip the lookup.
    static let orderedFloorKey = Array("ids.floor".utf8)

    private init(
        events: Database, orderedIds: Database, otherIds: Database, idJournal: Database, streamHeads: Database,
        subjectHeads: Database, checkpoints: Database, meta: Database, tables: [NameTables]
    ) {
        self.events = events
        self.orderedIds = orderedIds
        self.otherIds = otherIds
        self.idJournal = idJournal
        self.streamHeads = streamHeads
        self.subjectHeads = subjectHeads
        self.checkpoints = checkpoints
        self.meta = meta
        self.tables = tables
    }

    func tables(_ kind: NameKind) -> NameTables { tables[kind.rawValue] }

    static func open(in environment: Environment) throws -> LogDatabases {
        let create = !environment.options.readOnly
        func db(_ name: String) throws -> Database { try environment.openDatabase(named: name, create: create) }
        let tables = try NameKind.allCases.map { kind in
            let prefix = switch kind { case .stream: "stream"; case .subject: "subject"; case .type: "type" }
            return NameTables(numbers: try db("\(prefix).numbers"), names: try db("\(prefix).names"))
        }
        let databases = LogDatabases(
            events: try db("events"), orderedIds: try db("ids.ordered"), otherIds: try db("ids.other"), idJournal: try db("ids.journal"), streamHeads: try db("stream.heads"), subjectHeads: try db("subject.heads"),
            checkpoints: try db("checkpoints"), meta: try db("meta"), tables: tables)
        try databases.checkFormat(in: environment)
        return databases
    }

    /// Stamps a new log with the format version, or refuses a log written in another format.
    private func checkFormat(in environment: Environment) throws {
        let stored = try environment.read { txn in try txn.bytes(meta, key: Self.formatKey.span) }
        if let stored {
            guard stored == Self.formatVersion else {
                throw EventStoreError.storage("the log at \(environment.path) has storage format \(stored), this build reads \(Self.formatVersion)")
            }
        } else if !environment.options.readOnly {
            try environment.write { txn in
                try txn.put(meta, key: Self.formatKey.span, value: Self.formatVersion.span)
            }
        }
    }
}
