import EventLog

/// A change in whether a workout counts: the read model that embeds ``WorkoutGroups`` adds the
/// workout to its sums (`counts`) or takes it back out.
struct CountChange: Equatable, Sendable {
    let workoutId: String
    let counts: Bool
}

/// One activity however many devices recorded it, as a component a read model
/// embeds: it follows the workout events, keeps each user's groups of the same activity and their
/// primaries in the read model's own tables, and tells the read model which workouts start or
/// stop counting. Only primaries count; a read model adds and takes back workouts only through
/// the ``CountChange``s it is handed, so every read model that embeds it counts the same workouts.
///
/// Groups are recomputed where a change can reach: the group a workout was in before the change
/// and the one it is in after (a deletion can split a group, a richer duplicate can take over).
/// The answer is a function of the workouts and the log, not of the order in which they arrived.
struct WorkoutGroups {
    var members: ReadModelTable<WorkoutKey, GroupMember>
    var days: ReadModelTable<UserDayKey, GroupDay>
    var users: ReadModelTable<UserKey, GroupUser>
    var apart: ReadModelTable<WorkoutPairKey, Marker>

    init(_ tables: ReadModelTables) {
        members = tables.table("groupMembers")
        days = tables.table("groupDays")
        users = tables.table("groupUsers")
        apart = tables.table("groupApart")
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&members)
        try visitor.visit(&days)
        try visitor.visit(&users)
        try visitor.visit(&apart)
    }

    /// The workout as grouping knows it.
    mutating func member(_ workoutId: String, _ txn: (any TableReader)?) throws -> GroupMember? {
        try members.get(WorkoutKey(workoutId), txn)
    }

    // MARK: The workout events

    /// A live workout began: known, not counted until it is finished.
    mutating func started(_ e: WorkoutStarted, user: String, position: UInt64, _ txn: (any TableReader)?) throws {
        guard try member(e.workoutId, txn) == nil else { return }
        let start = SameActivity.start(e.startedAt.instant)
        members.set(WorkoutKey(e.workoutId), GroupMember(user: user, workout: SameActivity.Workout(
            live: true, kind: e.source.kind, type: e.activityType, start: start, end: start, hasTrack: false, hasLaps: false,
            hasHeartRate: false, movingSeconds: 0, firstPosition: position)))
    }

    /// A live workout finished: it is counted, in the group its interval puts it in.
    mutating func finished(_ e: WorkoutFinished, _ txn: (any TableReader)?) throws -> [CountChange] {
        guard var member = try member(e.workoutId, txn), !member.counted else { return [] }
        member.workout.end = SameActivity.intervalEnd(start: member.workout.start, elapsedSeconds: nil, movingSeconds: e.movingSeconds)
        member.workout.movingSeconds = e.movingSeconds
        member.workout.hasLaps = !(e.laps ?? []).isEmpty
        member.workout.hasHeartRate = member.workout.hasHeartRate || e.avgHeartRate != nil
        member.counted = true
        return try regroup(user: member.user, seeds: [e.workoutId], txn) { try $0.place(e.workoutId, member, txn) }
    }

    /// A workout arrived whole from a source: counted at once.
    mutating func imported(_ e: WorkoutImported, user: String, position: UInt64, _ txn: (any TableReader)?) throws -> [CountChange] {
        guard try member(e.workoutId, txn) == nil else { return [] }
        let start = SameActivity.start(e.startedAt.instant)
        var member = GroupMember(user: user, workout: SameActivity.Workout(
            live: false, kind: e.source.kind, type: e.activityType, start: start,
            end: SameActivity.intervalEnd(start: start, elapsedSeconds: e.elapsedSeconds, movingSeconds: e.movingSeconds),
            hasTrack: false, hasLaps: !(e.laps ?? []).isEmpty, hasHeartRate: e.avgHeartRate != nil,
            movingSeconds: e.movingSeconds, firstPosition: position))
        member.counted = true
        return try regroup(user: user, seeds: [e.workoutId], txn) { try $0.place(e.workoutId, member, txn) }
    }

    /// A workout's type changed: its relations may too.
    mutating func retyped(_ workoutId: String, to type: ActivityType, _ txn: (any TableReader)?) throws -> [CountChange] {
        try changing(workoutId, txn) { $0.workout.type = type }
    }

    /// A track part arrived: the workout may have become richer (a track, a heart rate).
    mutating func tracked(_ e: WorkoutTrackRecorded, _ txn: (any TableReader)?) throws -> [CountChange] {
        guard e.samples.points > 0 else { return [] }
        let hasRate = e.samples.heartRate?.contains { $0 != nil } ?? false
        return try changing(e.workoutId, txn) { member in
            member.workout.hasTrack = true
            member.workout.hasHeartRate = member.workout.hasHeartRate || hasRate
        }
    }

    /// A workout was deleted: it leaves its group, which may split or take another primary.
    mutating func deleted(_ workoutId: String, _ txn: (any TableReader)?) throws -> [CountChange] {
        guard let member = try member(workoutId, txn) else { return [] }
        guard member.counted else {
            members.set(WorkoutKey(workoutId), nil)
            return []
        }
        return try regroup(user: member.user, seeds: [workoutId], txn) { groups in
            let key = UserDayKey(member.user, Self.utcDay(member.workout.start))
            if var day = try groups.days.get(key, txn) {
                day.remove(workoutId)
                groups.days.set(key, day.workoutIds.isEmpty ? nil : day)
            }
            groups.members.set(WorkoutKey(workoutId), nil)
        }
    }

    /// The user keeps two workouts apart (`workout.kept_separate`): that pair is no longer related.
    mutating func keptSeparate(user: String, _ a: String, _ b: String, _ txn: (any TableReader)?) throws -> [CountChange] {
        let pair = WorkoutPairKey(a, b)
        guard try apart.get(pair, txn) == nil else { return [] }
        return try regroup(user: user, seeds: [pair.first, pair.second], txn) { $0.apart.set(pair, Marker()) }
    }

    /// The user's `preferredWorkoutSources` changed: every group of theirs may take another primary.
    mutating func preferred(user: String, _ kinds: [SourceKind], _ txn: (any TableReader)?) throws -> [CountChange] {
        var record = try users.get(UserKey(user), txn) ?? GroupUser()
        guard record.preference != kinds else { return [] }
        record.preference = kinds
        let all = try days.records(withPrefix: keyPrefix { $0.keyString(user) }, txn).flatMap(\.1.workoutIds)
        return try regroup(user: user, seeds: all, txn) { $0.users.set(UserKey(user), record) }
    }

    // MARK: Regrouping

    /// Changes one workout's record; a counted one is regrouped.
    private mutating func changing(
        _ workoutId: String, _ txn: (any TableReader)?, _ body: (inout GroupMember) -> Void
    ) throws -> [CountChange] {
        guard var member = try member(workoutId, txn) else { return [] }
        let before = member
        body(&member)
        guard member != before else { return [] }
        guard member.counted else {
            members.set(WorkoutKey(workoutId), member)
            return []
        }
        return try regroup(user: member.user, seeds: [workoutId], txn) { $0.members.set(WorkoutKey(workoutId), member) }
    }

    /// Stores a newly counted workout and files it under the UTC day it starts on.
    private mutating func place(_ workoutId: String, _ member: GroupMember, _ txn: (any TableReader)?) throws {
        members.set(WorkoutKey(workoutId), member)
        let first = Self.utcDay(member.workout.start)
        try days.modify(UserDayKey(member.user, first), txn, initial: { GroupDay() }) { $0.insert(workoutId) }
        let span = Int(Self.utcDay(member.workout.end) - first)
        try users.modify(UserKey(member.user), txn, initial: { GroupUser() }) { $0.longestSpanDays = max($0.longestSpanDays, span) }
    }

    /// Applies `change`, then recomputes every group it can reach (the groups of `seeds` before
    /// and after it) and answers which workouts stopped and started counting: stops first, then
    /// starts, each in log order, so a read model that keeps an order of counting keeps it the same
    /// way on every replay.
    private mutating func regroup(
        user: String, seeds: [String], _ txn: (any TableReader)?, _ change: (inout WorkoutGroups) throws -> Void
    ) throws -> [CountChange] {
        let before = try component(of: seeds, txn)
        try change(&self)
        var changes: [(counts: Bool, position: UInt64, id: String)] = []
        var done = Set<[UInt8]>()
        for (id, old) in before + seeds.map({ ($0, nil) }) where !done.contains(Array(id.utf8)) {
            guard let current = try member(id, txn), current.counted else {
                done.insert(Array(id.utf8))
                // Deleted, or no longer counted: it leaves the sums if it was in them.
                if let old, old.counts { changes.append((false, old.workout.firstPosition, id)) }
                continue
            }
            let group = try component(of: [id], txn)
            for (member, _) in group { done.insert(Array(member.utf8)) }
            try assign(group, user: user, txn, &changes)
        }
        changes.sort { a, b in
            if a.counts != b.counts { return !a.counts }
            if a.position != b.position { return a.position < b.position }
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        return changes.map { CountChange(workoutId: $0.id, counts: $0.counts) }
    }

    /// Chooses `group`'s primary and writes each member's standing, noting whose counting changed.
    private mutating func assign(
        _ group: [(id: String, member: GroupMember?)], user: String, _ txn: (any TableReader)?,
        _ changes: inout [(counts: Bool, position: UInt64, id: String)]
    ) throws {
        let workouts = group.compactMap { entry in entry.member.map { (id: entry.id, workout: $0.workout) } }
        guard !workouts.isEmpty else { return }
        let preference = try users.get(UserKey(user), txn)?.preference ?? []
        let primary = SameActivity.primary(of: workouts, preference: preference)
        let others = workouts.filter { !$0.id.utf8.elementsEqual(primary.utf8) }
            .sorted { a, b in
                a.workout.firstPosition != b.workout.firstPosition
                    ? a.workout.firstPosition < b.workout.firstPosition : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
            }
            .map(\.id)
        for (id, stored) in group {
            guard let stored else { continue }
            var member = stored
            let isPrimary = id.utf8.elementsEqual(primary.utf8)
            member.counts = isPrimary
            member.primary = isPrimary ? nil : primary
            member.others = isPrimary ? others : []
            if member != stored { members.set(WorkoutKey(id), member) }
            if member.counts != stored.counts { changes.append((member.counts, member.workout.firstPosition, id)) }
        }
    }

    /// The counted workouts connected to `seeds` by the relation (the seeds' groups), each with its record.
    private mutating func component(of seeds: [String], _ txn: (any TableReader)?) throws -> [(id: String, member: GroupMember?)] {
        var seen = Set<[UInt8]>()
        var queue: [(String, GroupMember)] = []
        for seed in seeds {
            guard let member = try member(seed, txn), member.counted, seen.insert(Array(seed.utf8)).inserted else { continue }
            queue.append((seed, member))
        }
        var result: [(id: String, member: GroupMember?)] = []
        while let (id, member) = queue.popLast() {
            result.append((id, member))
            for neighbour in try neighbours(of: id, member, txn) where seen.insert(Array(neighbour.0.utf8)).inserted {
                queue.append(neighbour)
            }
        }
        return result
    }

    /// The counted workouts related to `member` and not kept apart from it. Candidates are those
    /// starting from the user's longest span of days before its start up to its end's day.
    private mutating func neighbours(of id: String, _ member: GroupMember, _ txn: (any TableReader)?) throws -> [(String, GroupMember)] {
        let span = try users.get(UserKey(member.user), txn)?.longestSpanDays ?? 0
        let first = Self.utcDay(member.workout.start) - Int32(span)
        // An interval is at most 400 days (the domain's limit), so a damaged record cannot make this loop long.
        let last = min(Self.utcDay(member.workout.end), Self.utcDay(member.workout.start) + 402)
        var result: [(String, GroupMember)] = []
        for day in first...max(first, last) {
            guard let bucket = try days.get(UserDayKey(member.user, day), txn) else { continue }
            for other in bucket.workoutIds where !other.utf8.elementsEqual(id.utf8) {
                guard let candidate = try self.member(other, txn), candidate.counted,
                      SameActivity.related(member.workout, candidate.workout),
                      try apart.get(WorkoutPairKey(id, other), txn) == nil
                else { continue }
                result.append((other, candidate))
            }
        }
        return result
    }

    /// The UTC day (days since 1970) of an instant in microseconds, as grouping files workouts.
    static func utcDay(_ instant: Int64) -> Int32 {
        let dayLength: Int64 = 86_400_000_000
        return Int32(truncatingIfNeeded: instant >= 0 ? instant / dayLength : (instant - dayLength + 1) / dayLength)
    }
}
