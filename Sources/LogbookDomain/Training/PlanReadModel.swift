import EventLog

/// Training plans (Havital): each user's planned workouts by local date, in the order they were
/// planned (a change keeps the place). What was done against the plan is matched when asked,
/// from this and the intensity read model, so the matching follows every later workout, edit
/// and deletion.
struct PlanReadModel: ReadModel {
    static let kind = ReadModelKind.plan
    static let codeVersion = 1

    static let folds = Folds<PlanReadModel>()
        .on(.planWorkoutPlanned) { try $0.onPlanned($1, $2, $3) }
        .on(.planWorkoutChanged) { try $0.onChanged($1, $2, $3) }
        .on(.planWorkoutRemoved) { try $0.onRemoved($1, $2, $3) }

    var planned: ReadModelTable<UserIdKey, PlannedRecord>
    var plan: ReadModelTable<PlanDayKey, TextValue>

    init(_ tables: ReadModelTables) {
        planned = tables.table("planned")
        plan = tables.table("plan")
    }

    mutating func onPlanned(_ e: PlannedWorkout, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        // The rules refuse an id in use; a log written elsewhere may still hold one: the later
        // planning replaces the earlier, at its own place in the order.
        try remove(user: fold.user, e.plannedId, txn)
        put(user: fold.user, PlannedRecord(e, ordinal: fold.position), id: e.plannedId)
    }

    mutating func onChanged(_ e: PlannedWorkout, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard let old = try planned.get(UserIdKey(fold.user, e.plannedId), txn) else { return }
        plan.set(PlanDayKey(fold.user, old.date, old.ordinal), nil)
        put(user: fold.user, PlannedRecord(e, ordinal: old.ordinal), id: e.plannedId)
    }

    mutating func onRemoved(_ e: PlannedWorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try remove(user: fold.user, e.plannedId, txn)
    }

    private mutating func put(user: String, _ record: PlannedRecord, id: String) {
        planned.set(UserIdKey(user, id), record)
        plan.set(PlanDayKey(user, record.date, record.ordinal), TextValue(id))
    }

    private mutating func remove(user: String, _ id: String, _ txn: (any TableReader)?) throws {
        guard let old = try planned.get(UserIdKey(user, id), txn) else { return }
        plan.set(PlanDayKey(user, old.date, old.ordinal), nil)
        planned.set(UserIdKey(user, id), nil)
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&planned)
        try visitor.visit(&plan)
    }

    /// The user's planned workout `id`, if planned and not removed.
    mutating func plannedWorkout(user: String, _ id: String, _ txn: (any TableReader)?) throws -> PlannedRecord? {
        try planned.get(UserIdKey(user, id), txn)
    }

    /// The planned workouts from `from` to `to`, by date then plan order, with their ids.
    mutating func plannedWorkouts(user: String, from: Int32, to: Int32, _ txn: (any TableReader)?) throws -> [(id: String, record: PlannedRecord)] {
        var result: [(id: String, record: PlannedRecord)] = []
        for (_, id) in try plan.records(in: PlanDayKey(user, from, 0)...PlanDayKey(user, to, UInt64(Int64.max)), txn) {
            // The index and the records change together; an index entry without its record is skipped, never trusted.
            if let record = try planned.get(UserIdKey(user, id.text), txn) { result.append((id.text, record)) }
        }
        return result
    }
}

extension ReadModelKind {
    /// The plan read model: planned workouts by date.
    public static let plan = ReadModelKind(declared: "plan")
}

extension ReadModelSet {
    /// The plan read model, changed in place.
    var plan: PlanReadModel {
        get { self[PlanReadModel.self] }
        _modify { yield &self[PlanReadModel.self] }
    }
}
