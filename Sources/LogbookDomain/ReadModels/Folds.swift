
/// What a read model does with each event type it reads, declared once: a fold per type, each
/// handed the payload of that type. What the read model reads (``ReadModel/reads(_:)``, and with it
/// which caches an append invalidates) is exactly the types it has a fold for — the two cannot
/// disagree, and a new event type concerns only the read models that fold it.
///
/// ```swift
/// static let folds = Folds<GoalsReadModel>()
///     .on(.goalSet) { try $0.setGoal($1, $2, $3) }
///     .on(.goalCleared) { try $0.clearGoal($1, $2, $3) }
/// ```
struct Folds<Model>: Sendable {
    /// Folds one event into a read model.
    typealias Fold = @Sendable (inout Model, FoldEvent, (any TableReader)?) throws -> Void

    /// The fold of each event type, by ``EventType/index`` (nil: not read).
    private var folds: [Fold?] = Array(repeating: nil, count: EventType.allCases.count)
    /// The types folded.
    private(set) var types = EventTypeSet()

    /// No folds yet.
    init() {}

    /// These folds and `fold` for `key`'s type. A type folded twice is a programming error the
    /// registry test finds (each read model's folds are built when the registry is).
    func on<Payload>(
        _ key: EventKey<Payload>, _ fold: @escaping @Sendable (inout Model, Payload, FoldEvent, (any TableReader)?) throws -> Void
    ) -> Folds {
        precondition(folds[key.type.index] == nil, "\(Model.self) folds \(key.type.rawValue) twice")
        var copy = self
        let payload = key.payload
        copy.folds[key.type.index] = { model, event, txn in
            // Dispatched by the event's type, so its payload is this key's.
            guard let value = payload(event.event) else { return }
            try fold(&model, value, event, txn)
        }
        copy.types.insert(key.type)
        return copy
    }

    /// These folds and `fold` for every event type: a read model of envelopes, not payloads
    /// (``AnswerVersionsReadModel``). Only a read model with no other folds may use it.
    func onEvery(_ fold: @escaping Fold) -> Folds {
        var copy = self
        for type in EventType.allCases {
            precondition(copy.folds[type.index] == nil, "\(Model.self) folds \(type.rawValue) twice")
            copy.folds[type.index] = fold
            copy.types.insert(type)
        }
        return copy
    }

    /// Folds `event` into `model`, if its type is read.
    func apply(_ event: FoldEvent, to model: inout Model, _ txn: (any TableReader)?) throws {
        try folds[event.event.type.index]?(&model, event, txn)
    }
}
