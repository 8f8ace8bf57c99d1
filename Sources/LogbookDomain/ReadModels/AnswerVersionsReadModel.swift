import BinaryCoding
import EventLog

/// The last log position of each event type among one user's events (and, under the user "",
/// among the shared catalog's): what a conditional read's version is derived from.
///
/// An answer of a ``CachedQuery`` can change only when an event of a type it depends on is
/// appended for its user (or for the catalog, if it reads places), so the largest of those
/// positions is the answer's version: it moves exactly when the answer can, it is the same on
/// every server that has folded as far, and a write of another user never moves it. It is read in
/// the same snapshot as the answer (``AnswerTrail``), so a version never names a newer state than
/// the answer it is paired with.
struct AnswerVersionsReadModel: ReadModel {
    static let kind = ReadModelKind.answerVersions
    static let codeVersion = 1

    static let folds = Folds<AnswerVersionsReadModel>().onEvery { model, fold, txn in try model.note(fold, txn) }

    var users: ReadModelTable<UserKey, TypePositions>

    init(_ tables: ReadModelTables) { users = tables.table("users") }

    mutating func note(_ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        // The two fields the change needs, not the event: a closure holding the event copies it.
        let (type, position) = (fold.event.type, fold.position)
        try users.modify(UserKey(fold.user), txn, initial: { TypePositions() }) { $0.set(type, position) }
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&users)
    }

    /// The last position among `user`'s events of `types`, and the catalog's too when
    /// `catalog` (0 when there is none).
    mutating func version(user: String, types: EventTypeSet, catalog: Bool, _ txn: (any TableReader)?) throws -> UInt64 {
        var version = try users.get(UserKey(user), txn)?.last(of: types) ?? 0
        if catalog { version = max(version, try users.get(UserKey(""), txn)?.last(of: types) ?? 0) }
        return version
    }
}

/// The last position of each event type, for one user (``AnswerVersionsReadModel``). Stored as
/// (type name, position) pairs by name, so the stored form does not depend on declaration order.
struct TypePositions: TableValue, Equatable {
    /// By ``EventType/index``; 0: no event of that type yet.
    private(set) var positions = [UInt64](repeating: 0, count: EventType.allCases.count)

    init() {}

    mutating func set(_ type: EventType, _ position: UInt64) {
        positions[type.index] = max(positions[type.index], position)
    }

    /// The last position among `types` (0: none).
    func last(of types: EventTypeSet) -> UInt64 {
        var last: UInt64 = 0
        for type in EventType.allCases where types.contains(type) { last = max(last, positions[type.index]) }
        return last
    }

    /// The types in the order of their names' bytes, each with its name as a record holds it
    /// (length-prefixed UTF-8), encoded once: a record is written at every commit that changes it.
    private static let byName: [(index: Int, name: [UInt8])] = EventType.allCases
        .sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
        .map { type in
            var name = ByteWriter(capacity: type.rawValue.utf8.count + 1)
            name.string(type.rawValue)
            return (type.index, name.bytes)
        }

    func encode(into w: inout ByteWriter) {
        let names = Self.byName
        var present = 0
        for type in names where positions[type.index] != 0 { present += 1 }
        w.varint(UInt64(present))
        for type in names where positions[type.index] != 0 {
            w.bytes.append(contentsOf: type.name)
            w.varint(positions[type.index])
        }
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        let count = try ByteReader.varint(s, &o)
        guard count <= UInt64(EventType.allCases.count) else { throw DecodeFailure(reason: "more event types than Logbook has") }
        var previous: String?
        for _ in 0..<Int(count) {
            let name = try ByteReader.string(s, &o)
            guard let type = EventType(rawValue: name) else { throw DecodeFailure(reason: "unknown event type in a version record") }
            if let previous, !previous.utf8.lexicographicallyPrecedes(name.utf8) {
                throw DecodeFailure(reason: "version record types out of order")
            }
            previous = name
            let position = try ByteReader.varint(s, &o)
            guard position > 0 else { throw DecodeFailure(reason: "a version record holds position 0") }
            positions[type.index] = position
        }
        guard o == s.count else { throw DecodeFailure(reason: "bytes after a version record") }
    }
}

extension ReadModelKind {
    /// The answer-versions read model: each user's last position per event type (conditional reads).
    public static let answerVersions = ReadModelKind(declared: "versions")
}

extension ReadModelSet {
    /// The answer-versions read model, changed in place.
    var answerVersions: AnswerVersionsReadModel {
        get { self[AnswerVersionsReadModel.self] }
        _modify { yield &self[AnswerVersionsReadModel.self] }
    }

    /// The version of `user`'s answers of `query`: the last position of an event that can change
    /// them (0: none yet).
    package mutating func answerVersion(_ query: CachedQuery, user: String, _ txn: (any TableReader)?) throws -> UInt64 {
        try answerVersions.version(user: user, types: query.dependsOn, catalog: query.dependsOnCatalog, txn)
    }

    /// The last position among `user`'s events of `types` (0: none).
    package mutating func lastPosition(user: String, of types: EventTypeSet, _ txn: (any TableReader)?) throws -> UInt64 {
        try answerVersions.version(user: user, types: types, catalog: false, txn)
    }
}
