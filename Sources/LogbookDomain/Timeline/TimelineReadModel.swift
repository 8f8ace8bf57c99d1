import BinaryCoding
public import EventLog
public import Foundation

/// Key of a timeline context record: a user and a log position.
struct UserPositionKey: TableKey {
    let user: String
    let position: UInt64
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyInt(Int64(bitPattern: position)) }
    init(_ user: String, _ position: UInt64) { self.user = user; self.position = position }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        position = UInt64(bitPattern: try KeyReader.int(s, &o))
    }
    static func < (a: UserPositionKey, b: UserPositionKey) -> Bool {
        a.user == b.user ? a.position < b.position : a.user.utf8.lexicographicallyPrecedes(b.user.utf8)
    }
}

/// What an event's one-line description needs beyond the event itself, as it stood when the
/// event happened: the goal it replaced, the workout's type and start, the place's name.
struct TimelineContext: TableValue, Equatable {
    var previousGoal: Goal?
    var activityType: ActivityType?
    var startedOn: CivilDate?
    var placeName: String?
    /// The heart-rate settings a profile update replaced.
    var previousHeartRates: HeartRateSettings?
    /// What a training event replaced or names: the target's name, the planned workout as it was.
    var subject: String?

    /// The fields of training came later: they follow the others only when one is set, so the
    /// context of every other line is stored as it was before they existed.
    func encode(into w: inout ByteWriter) {
        if let previousGoal { w.byte(1); previousGoal.encode(into: &w) } else { w.byte(0) }
        if let activityType { w.byte(1); w.enumeration(activityType) } else { w.byte(0) }
        if let startedOn { w.byte(1); w.date(startedOn) } else { w.byte(0) }
        w.optionalString(placeName)
        if previousHeartRates != nil || subject != nil {
            if let previousHeartRates { w.byte(1); previousHeartRates.encode(into: &w) } else { w.byte(0) }
            w.optionalString(subject)
        }
    }

    init(
        previousGoal: Goal? = nil, activityType: ActivityType? = nil, startedOn: CivilDate? = nil, placeName: String? = nil,
        previousHeartRates: HeartRateSettings? = nil, subject: String? = nil
    ) {
        self.previousGoal = previousGoal
        self.activityType = activityType
        self.startedOn = startedOn
        self.placeName = placeName
        self.previousHeartRates = previousHeartRates
        self.subject = subject
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        if try ByteReader.byte(s, &o) == 1 {
            previousGoal = Goal(steps: try FieldReader.int(s, &o), activeMinutes: try FieldReader.optionalInt(s, &o))
        }
        if try ByteReader.byte(s, &o) == 1 { activityType = try FieldReader.enumeration(s, &o, ActivityType.self) }
        if try ByteReader.byte(s, &o) == 1 { startedOn = try FieldReader.date(s, &o) }
        placeName = try FieldReader.optionalString(s, &o)
        if o < s.count {
            if try ByteReader.byte(s, &o) == 1 { previousHeartRates = try HeartRateSettings(s, &o) }
            subject = try FieldReader.optionalString(s, &o)
            guard o == s.count else { throw DecodeFailure(reason: "bytes after a timeline context") }
        }
    }
}

/// A user's heart-rate settings, as the timeline remembers them to say what a change replaced.
struct HeartRateSettings: TableValue, Equatable {
    var max: Int?
    var resting: Int?

    init(max: Int?, resting: Int?) {
        self.max = max
        self.resting = resting
    }

    func encode(into w: inout ByteWriter) { w.optionalInt(max); w.optionalInt(resting) }

    init(_ s: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) {
        max = try FieldReader.optionalInt(s, &o)
        resting = try FieldReader.optionalInt(s, &o)
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        try self.init(s, &o)
    }
}

/// What the timeline fold remembers about a workout.
struct TimelineWorkout: TableValue {
    var type: ActivityType
    var startedOn: CivilDate
    func encode(into w: inout ByteWriter) { w.enumeration(type); w.date(startedOn) }
    init(type: ActivityType, startedOn: CivilDate) { self.type = type; self.startedOn = startedOn }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        type = try FieldReader.enumeration(s, &o, ActivityType.self)
        startedOn = try FieldReader.date(s, &o)
    }
}

/// The audit timeline: every event of a user, in log order, described in one line. The rows are
/// the log's own subject index; this projection keeps, per position, the context a description
/// needs ("set to 12,000, was 10,000"), and the little state that context comes from.
struct TimelineReadModel: ReadModel {
    static let kind = ReadModelKind.timeline
    static let codeVersion = 2

    static let folds = Folds<TimelineReadModel>()
        .on(.goalSet) { try $0.onGoalSet($1, $2, $3) }
        .on(.goalCleared) { try $0.onGoalCleared($1, $2, $3) }
        .on(.goalDefaultSet) { try $0.onGoalDefaultSet($1, $2, $3) }
        .on(.workoutStarted) { try $0.onWorkoutStarted($1, $2, $3) }
        .on(.workoutImported) { try $0.onWorkoutImported($1, $2, $3) }
        .on(.workoutPaused) { try $0.onWorkoutPausedOrWorkoutResumed($1, $2, $3) }
        .on(.workoutResumed) { try $0.onWorkoutPausedOrWorkoutResumed($1, $2, $3) }
        .on(.workoutFinished) { try $0.onWorkoutFinished($1, $2, $3) }
        .on(.workoutDiscarded) { try $0.onWorkoutDiscardedOrWorkoutDeleted($1, $2, $3) }
        .on(.workoutDeleted) { try $0.onWorkoutDiscardedOrWorkoutDeleted($1, $2, $3) }
        .on(.workoutTrackRecorded) { try $0.onWorkoutTrackRecorded($1, $2, $3) }
        .on(.workoutEdited) { try $0.onWorkoutEdited($1, $2, $3) }
        .on(.workoutKeptSeparate) { try $0.describeWorkout($1.workoutId, UserPositionKey($2.user, $2.position), $3) }
        .on(.placeAdded) { try $0.onPlaceAdded($1, $2, $3) }
        .on(.placeSwiped) { try $0.onPlaceSwiped($1, $2, $3) }
        .on(.placeVisited) { try $0.onPlaceVisited($1, $2, $3) }
        .on(.placeNotesEdited) { try $0.onPlaceNotesEdited($1, $2, $3) }
        .on(.placeUpdated) { try $0.onPlaceUpdated($1, $2, $3) }
        .on(.userProfileUpdated) { try $0.onProfileUpdated($1, $2, $3) }
        .on(.targetSet) { try $0.onTargetSet($1, $2, $3) }
        .on(.targetCleared) { try $0.onTargetCleared($1, $2, $3) }
        .on(.planWorkoutPlanned) { try $0.onPlanned($1, $2, $3) }
        .on(.planWorkoutChanged) { try $0.onPlanChanged($1, $2, $3) }
        .on(.planWorkoutRemoved) { try $0.onPlanRemoved($1, $2, $3) }

    var context: ReadModelTable<UserPositionKey, TimelineContext>
    var goals: ReadModelTable<UserDayKey, Goal>
    var defaults: ReadModelTable<UserDayKey, Goal>
    var workouts: ReadModelTable<WorkoutKey, TimelineWorkout>
    var places: ReadModelTable<PlaceKey, TextValue>
    var heartRates: ReadModelTable<UserKey, HeartRateSettings>
    var targets: ReadModelTable<UserIdKey, TextValue>
    var planned: ReadModelTable<UserIdKey, TextValue>

    init(_ tables: ReadModelTables) {
        heartRates = tables.table("heart-rates")
        targets = tables.table("targets")
        planned = tables.table("planned")
        context = tables.table("context")
        goals = tables.table("goals")
        defaults = tables.table("defaults")
        workouts = tables.table("workouts")
        places = tables.table("places")
    }

    mutating func onGoalSet(_ e: GoalSet, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        let day = Int32(e.date.daysSinceEpoch)
        context.set(key, TimelineContext(previousGoal: try goal(user: user, day: day, txn)))
        goals.set(UserDayKey(user, day), Goal(steps: e.steps, activeMinutes: e.activeMinutes))
    }

    mutating func onGoalCleared(_ e: GoalCleared, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        let day = Int32(e.date.daysSinceEpoch)
        context.set(key, TimelineContext(previousGoal: try goal(user: user, day: day, txn)))
        goals.set(UserDayKey(user, day), nil)
    }

    mutating func onGoalDefaultSet(_ e: GoalDefaultSet, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        let day = fold.envelope.occurredAt.localDay
        let previous = try defaults.records(in: UserDayKey(user, Int32.min)...UserDayKey(user, day), txn).last?.1 ?? .standard
        context.set(key, TimelineContext(previousGoal: previous))
        defaults.set(UserDayKey(user, day), Goal(steps: e.steps, activeMinutes: e.activeMinutes))
    }

    mutating func onWorkoutStarted(_ e: WorkoutStarted, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        workouts.set(WorkoutKey(e.workoutId), TimelineWorkout(type: e.activityType, startedOn: e.startedAt.localDate))
    }

    mutating func onWorkoutImported(_ e: WorkoutImported, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        workouts.set(WorkoutKey(e.workoutId), TimelineWorkout(type: e.activityType, startedOn: e.startedAt.localDate))
    }

    mutating func onWorkoutPausedOrWorkoutResumed(_ e: WorkoutPauseChange, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        try describeWorkout(e.workoutId, key, txn)
    }

    mutating func onWorkoutFinished(_ e: WorkoutFinished, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        try describeWorkout(e.workoutId, key, txn)
    }

    mutating func onWorkoutDiscardedOrWorkoutDeleted(_ e: WorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        try describeWorkout(e.workoutId, key, txn)
    }

    mutating func onWorkoutTrackRecorded(_ e: WorkoutTrackRecorded, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        try describeWorkout(e.workoutId, key, txn)
    }

    mutating func onWorkoutEdited(_ e: WorkoutEdited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        try describeWorkout(e.workoutId, key, txn)
        if let type = e.activityType, var workout = try workouts.get(WorkoutKey(e.workoutId), txn) {
            workout.type = type
            workouts.set(WorkoutKey(e.workoutId), workout)
        }
    }

    mutating func onPlaceAdded(_ e: PlaceAdded, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        places.set(PlaceKey(e.placeId), TextValue(e.name))
    }

    /// A renamed place is named so in the lines that follow (earlier lines keep the name they had).
    mutating func onPlaceUpdated(_ e: PlaceUpdated, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        if let name = e.name { places.set(PlaceKey(e.placeId), TextValue(name)) }
    }

    mutating func onPlaceSwiped(_ e: PlaceSwiped, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        try describePlace(e.placeId, key, txn)
    }

    mutating func onPlaceVisited(_ e: PlaceVisited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        try describePlace(e.placeId, key, txn)
    }

    mutating func onPlaceNotesEdited(_ e: PlaceNotesEdited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let user = fold.user
        let key = UserPositionKey(user, fold.position)
        try describePlace(e.placeId, key, txn)
    }

    /// A change of heart-rate settings notes the settings it replaced.
    mutating func onProfileUpdated(_ e: UserProfileUpdated, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard e.maxHeartRate != .unchanged || e.restingHeartRate != .unchanged else { return }
        let user = fold.user
        let before = try heartRates.get(UserKey(user), txn) ?? HeartRateSettings(max: nil, resting: nil)
        context.set(UserPositionKey(user, fold.position), TimelineContext(previousHeartRates: before))
        var after = before
        e.maxHeartRate.apply(to: &after.max)
        e.restingHeartRate.apply(to: &after.resting)
        heartRates.set(UserKey(user), after.max == nil && after.resting == nil ? nil : after)
    }

    mutating func onTargetSet(_ e: TargetSet, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try Self.replaceSubject(&targets, &context, e.targetId, with: e.name, fold, txn)
    }

    mutating func onTargetCleared(_ e: TargetCleared, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try Self.replaceSubject(&targets, &context, e.targetId, with: nil, fold, txn)
    }

    mutating func onPlanned(_ e: PlannedWorkout, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        planned.set(UserIdKey(fold.user, e.plannedId), TextValue(TimelineDescriptions.planned(e)))
    }

    mutating func onPlanChanged(_ e: PlannedWorkout, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try Self.replaceSubject(&planned, &context, e.plannedId, with: TimelineDescriptions.planned(e), fold, txn)
    }

    mutating func onPlanRemoved(_ e: PlannedWorkoutReference, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try Self.replaceSubject(&planned, &context, e.plannedId, with: nil, fold, txn)
    }

    /// Notes what the user's `id` in `table` was named before this event (the line's "was …"),
    /// then names it `text` (nil: forgets it).
    private static func replaceSubject(
        _ table: inout ReadModelTable<UserIdKey, TextValue>, _ context: inout ReadModelTable<UserPositionKey, TimelineContext>, _ id: String,
        with text: String?, _ fold: FoldEvent, _ txn: (any TableReader)?
    ) throws {
        let key = UserIdKey(fold.user, id)
        if let before = try table.get(key, txn) { context.set(UserPositionKey(fold.user, fold.position), TimelineContext(subject: before.text)) }
        table.set(key, text.map(TextValue.init))
    }

    /// The goal in force for a day: explicit, else the default then in force, else 10,000.
    private mutating func goal(user: String, day: Int32, _ txn: (any TableReader)?) throws -> Goal {
        if let explicit = try goals.get(UserDayKey(user, day), txn) { return explicit }
        return try defaults.records(in: UserDayKey(user, Int32.min)...UserDayKey(user, day), txn).last?.1 ?? .standard
    }

    private mutating func describeWorkout(_ workoutId: String, _ key: UserPositionKey, _ txn: (any TableReader)?) throws {
        guard let workout = try workouts.get(WorkoutKey(workoutId), txn) else { return }
        context.set(key, TimelineContext(activityType: workout.type, startedOn: workout.startedOn))
    }

    private mutating func describePlace(_ placeId: String, _ key: UserPositionKey, _ txn: (any TableReader)?) throws {
        guard let name = try places.get(PlaceKey(placeId), txn) else { return }
        context.set(key, TimelineContext(placeName: name.text))
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&context)
        try visitor.visit(&goals)
        try visitor.visit(&defaults)
        try visitor.visit(&workouts)
        try visitor.visit(&places)
        try visitor.visit(&heartRates)
        try visitor.visit(&targets)
        try visitor.visit(&planned)
    }
}

extension ReadModelKind {
    /// The timeline read model.
    public static let timeline = ReadModelKind(declared: "timeline")
}

extension ReadModelSet {
    /// The timeline read model, changed in place.
    var timeline: TimelineReadModel {
        get { self[TimelineReadModel.self] }
        _modify { yield &self[TimelineReadModel.self] }
    }
}

/// One line of a user's audit timeline.
public struct TimelineEntry: Sendable, Hashable, Codable {
    public var position: UInt64
    public var eventId: UUID
    public var type: String
    public var stream: String
    public var occurredAt: Timestamp
    public var recordedAt: Timestamp
    public var description: String

    private enum CodingKeys: String, CodingKey { case position, eventId, type, stream, occurredAt, recordedAt, description }

    /// Event ids in lower case, as the wire form writes them (see <doc:WireForm>).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(position, forKey: .position)
        try c.encode(eventId.uuidString.lowercased(), forKey: .eventId)
        try c.encode(type, forKey: .type)
        try c.encode(stream, forKey: .stream)
        try c.encode(occurredAt, forKey: .occurredAt)
        try c.encode(recordedAt, forKey: .recordedAt)
        try c.encode(description, forKey: .description)
    }
}

/// A page of the timeline and the cursor to the next one.
public struct TimelinePage: Sendable, Hashable, Codable {
    public var entries: [TimelineEntry]
    /// Pass back for the next page; nil when there is nothing more.
    public var nextCursor: String?

    package init(entries: [TimelineEntry], nextCursor: String?) {
        self.entries = entries
        self.nextCursor = nextCursor
    }
}

/// Which timeline entries to show.
public struct TimelineFilter: Sendable, Hashable {
    /// Only these event types (nil: all).
    public var types: Set<EventType>?
    /// Only events that occurred in this range of instants (inclusive).
    public var from: Timestamp?
    public var to: Timestamp?
    /// Newest first (the default) or oldest first.
    public var newestFirst: Bool

    public init(types: Set<EventType>? = nil, from: Timestamp? = nil, to: Timestamp? = nil, newestFirst: Bool = true) {
        self.types = types
        self.from = from
        self.to = to
        self.newestFirst = newestFirst
    }
}
