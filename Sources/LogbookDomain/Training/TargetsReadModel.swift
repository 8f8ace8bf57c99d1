import EventLog

/// Training targets (Havital): the races each user trains towards, by the user's own ids. Several
/// may be set at once (a 10 km on the way to a marathon); the active one is the nearest race on
/// or after the user's today, chosen when asked.
struct TargetsReadModel: ReadModel {
    static let kind = ReadModelKind.targets
    static let codeVersion = 1

    static let folds = Folds<TargetsReadModel>()
        .on(.targetSet) { try $0.onTargetSet($1, $2, $3) }
        .on(.targetCleared) { try $0.onTargetCleared($1, $2, $3) }

    var targets: ReadModelTable<UserIdKey, TargetRecord>

    init(_ tables: ReadModelTables) {
        targets = tables.table("targets")
    }

    mutating func onTargetSet(_ e: TargetSet, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        targets.set(UserIdKey(fold.user, e.targetId), TargetRecord(e, position: fold.position))
    }

    mutating func onTargetCleared(_ e: TargetCleared, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        targets.set(UserIdKey(fold.user, e.targetId), nil)
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&targets)
    }

    /// The user's target `id`, if set and not cleared.
    mutating func target(user: String, _ id: String, _ txn: (any TableReader)?) throws -> TargetRecord? {
        try targets.get(UserIdKey(user, id), txn)
    }

    /// Every target of the user, by id (bytes).
    func all(user: String, _ txn: (any TableReader)?) throws -> [(id: String, target: TargetRecord)] {
        try targets.records(withPrefix: keyPrefix { $0.keyString(user) }, txn).map { ($0.0.id, $0.1) }
    }
}

extension ReadModelKind {
    /// The targets read model: each user's races.
    public static let targets = ReadModelKind(declared: "targets")
}

extension ReadModelSet {
    /// The targets read model, changed in place.
    var targets: TargetsReadModel {
        get { self[TargetsReadModel.self] }
        _modify { yield &self[TargetsReadModel.self] }
    }
}
