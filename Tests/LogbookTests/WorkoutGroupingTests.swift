import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import Testing

/// One activity however many devices recorded it, against a model of its rules written here
/// on its own (every pair compared, groups by union–find): seeded random recordings of the same
/// activities from several sources, with tracks arriving late, type edits, deletions, pairs kept
/// apart and a preferred source, applied in several shuffled orders. Every order must list,
/// count and rebuild exactly what the model says for the log it made.
@Suite("One activity, many sources")
struct WorkoutGroupingTests {
    static let now = "2026-11-25T12:00:00+01:00"
    static let user = "u"

    // MARK: The model of the rules

    /// A counted workout as the model sees it.
    struct Modelled {
        var live: Bool
        var kind: SourceKind
        var type: ActivityType
        var start: Int64
        var end: Int64
        var distance: Int
        var moving: Int
        var hasTrack: Bool
        var hasLaps: Bool
        var hasRate: Bool
        var firstPosition: UInt64
    }

    /// The state the model folds: counted workouts, pairs kept apart, the preference.
    struct Model {
        var workouts: [String: Modelled] = [:]
        var apart: Set<[String]> = []
        var preference: [SourceKind] = []

        func related(_ a: Modelled, _ b: Modelled) -> Bool {
            let differentSource = a.live != b.live || a.kind != b.kind
            let sameType = a.type == b.type || a.type == .other || b.type == .other
            let overlap = min(a.end, b.end) - max(a.start, b.start)
            let shorter = min(a.end - a.start, b.end - b.start)
            return differentSource && sameType && overlap >= 0 && 2 * overlap >= shorter
        }

        /// Each group's primary with the others in log order.
        func groups() -> [String: [String]] {
            let ids = workouts.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var parent = Array(ids.indices)
            func root(_ i: Int) -> Int { parent[i] == i ? i : root(parent[i]) }
            for i in ids.indices {
                for j in ids.indices where j > i {
                    guard !apart.contains([ids[i], ids[j]]), related(workouts[ids[i]]!, workouts[ids[j]]!) else { continue }
                    parent[root(i)] = root(j)
                }
            }
            var components: [Int: [String]] = [:]
            for i in ids.indices { components[root(i), default: []].append(ids[i]) }
            var result: [String: [String]] = [:]
            for members in components.values {
                let preferred = preference.lazy.map { kind in members.filter { self.workouts[$0]!.kind == kind } }.first { !$0.isEmpty }
                let primary = (preferred ?? members).max { a, b in richer(b, than: a) }!
                result[primary] = members.filter { $0 != primary }.sorted { workouts[$0]!.firstPosition < workouts[$1]!.firstPosition }
            }
            return result
        }

        func richer(_ a: String, than b: String) -> Bool {
            let x = workouts[a]!, y = workouts[b]!
            let keyX = [x.hasTrack ? 1 : 0, x.hasLaps ? 1 : 0, x.hasRate ? 1 : 0, x.moving, -Int(x.firstPosition)]
            let keyY = [y.hasTrack ? 1 : 0, y.hasLaps ? 1 : 0, y.hasRate ? 1 : 0, y.moving, -Int(y.firstPosition)]
            return keyX.lexicographicallyPrecedes(keyY) == false && keyX != keyY
        }
    }

    // MARK: Generated histories

    /// A recording of an activity.
    struct Recording {
        var id: String
        var live: Bool
        var kind: SourceKind
        var type: ActivityType
        var start: Timestamp
        var seconds: Int
        var elapsed: Int?
        var moving: Int
        var distance: Int
        var laps: Bool
        var heartRate: Bool
        var trackAtImport: Bool
        var trackRates: Bool
    }

    enum Step {
        case create(Recording)
        case track(String, rates: Bool)
        case retype(String, ActivityType)
        case delete(String)
        case keepApart(String, String)
        case prefer([SourceKind])

        var needs: [String] {
            switch self {
            case .create, .prefer: []
            case .track(let id, _), .retype(let id, _), .delete(let id): [id]
            case .keepApart(let a, let b): [a, b]
            }
        }
    }

    /// Recordings of 8 activities over four days (several on one day, so activities overlap
    /// each other too), each recorded 1 to 3 times, and the steps that change them.
    static func history(seed: UInt64) -> [Step] {
        var random = SeededRandom(seed: seed)
        let kinds: [SourceKind] = [.healthkit, .garmin, .strava, .file, .wahoo]
        let offsets: [Int32] = [3600, 0, -5 * 3600]
        var steps: [Step] = []
        var ids: [String] = []
        for activity in 0..<8 {
            let day = 1 + random.below(4)
            let base = at("2026-11-0\(day)T07:00:00Z").instant + Int64(random.below(12 * 60)) * 60_000_000
            let seconds = 1_200 + random.below(4_800)
            let type = [ActivityType.run, .ride, .walk][random.below(3)]
            var liveUsed = false
            for copy in 0..<(1 + random.below(3)) {
                let live = !liveUsed && random.below(4) == 0
                liveUsed = liveUsed || live
                var shift = random.below(1_801) - 900
                if random.below(6) == 0 { shift += (random.below(2) == 0 ? -1 : 1) * seconds * 7 / 10 }
                let length = max(60, seconds + random.below(601) - 300)
                let moving = length - random.below(min(300, length / 4) + 1)
                let recordingType: ActivityType = random.below(6) == 0 ? .other : (random.below(10) == 0 ? .hike : type)
                let start = Timestamp(
                    microsecondsSinceEpoch: base + Int64(shift) * 1_000_000, utcOffsetSeconds: offsets[random.below(offsets.count)])
                let track = random.below(3)
                let recording = Recording(
                    id: "a\(activity)-\(copy)", live: live, kind: live ? .manual : kinds[random.below(kinds.count)], type: recordingType,
                    start: start, seconds: length, elapsed: live || random.below(2) == 0 ? nil : length, moving: moving,
                    distance: 1_000 + random.below(20_000), laps: random.below(3) == 0, heartRate: random.below(2) == 0,
                    trackAtImport: !live && track > 0 && random.below(2) == 0, trackRates: track == 2)
                steps.append(.create(recording))
                if track > 0 && !recording.trackAtImport { steps.append(.track(recording.id, rates: recording.trackRates)) }
                ids.append(recording.id)
            }
        }
        for id in ids where random.below(8) == 0 { steps.append(.retype(id, [ActivityType.other, .run, .ride][random.below(3)])) }
        // Pairs kept apart: mostly two recordings of one activity (a pair grouping would join), once any two.
        for activity in 0..<8 where random.below(3) == 0 {
            let copies = ids.filter { $0.hasPrefix("a\(activity)-") }
            if copies.count > 1 { steps.append(.keepApart(copies[0], copies[copies.count - 1])) }
        }
        steps.append(.keepApart(ids[random.below(ids.count)], ids[random.below(ids.count)]))
        for id in ids where random.below(10) == 0 { steps.append(.delete(id)) }
        if random.below(2) == 0 { steps.append(.prefer([kinds[random.below(kinds.count)], .manual, kinds[random.below(kinds.count)]])) }
        return steps
    }

    /// `steps` in a random order that creates a workout before anything refers to it.
    static func shuffled(_ steps: [Step], seed: UInt64) -> [Step] {
        var random = SeededRandom(seed: seed)
        var pending = steps
        var created: Set<String> = []
        var order: [Step] = []
        while !pending.isEmpty {
            let ready = pending.indices.filter { pending[$0].needs.allSatisfy(created.contains) }
            let index = ready[random.below(ready.count)]
            let step = pending.remove(at: index)
            if case .create(let recording) = step { created.insert(recording.id) }
            order.append(step)
        }
        return order
    }

    func track(rates: Bool) -> TrackSamples {
        TrackSamples(points: 3, offsetMillis: [0, 60_000, 120_000], heartRate: rates ? [120, 140, 150] : nil)
    }

    /// Runs `steps` on `logbook`, folding what was accepted into the model.
    func run(_ steps: [Step], on logbook: Logbook) async throws -> Model {
        var model = Model()
        var deleted: Set<String> = []
        let context = when(Self.now)
        for step in steps {
            guard step.needs.allSatisfy({ !deleted.contains($0) }) else { continue }
            switch step {
            case .create(let r):
                let end = Timestamp(microsecondsSinceEpoch: r.start.instant + Int64(r.seconds) * 1_000_000, utcOffsetSeconds: r.start.utcOffsetSeconds)
                let laps = r.laps ? [Lap(distanceMeters: r.distance, movingSeconds: r.moving)] : nil
                let position: UInt64
                if r.live {
                    position = try await logbook.execute(.startWorkout(user: Self.user, WorkoutStarted(
                        workoutId: r.id, activityType: r.type, startedAt: r.start, source: WorkoutSource(kind: .manual))), context: context).firstPosition
                    try await logbook.execute(.finishWorkout(user: Self.user, WorkoutFinished(
                        workoutId: r.id, endedAt: end, distanceMeters: r.distance, movingSeconds: r.moving,
                        avgHeartRate: r.heartRate ? 140 : nil, laps: laps)), context: context)
                } else {
                    position = try await logbook.execute(.importWorkout(user: Self.user, WorkoutImported(
                        workoutId: r.id, activityType: r.type, startedAt: r.start, endedAt: end, distanceMeters: r.distance,
                        movingSeconds: r.moving, avgHeartRate: r.heartRate ? 140 : nil, laps: laps,
                        source: WorkoutSource(kind: r.kind, sourceId: r.id), elapsedSeconds: r.elapsed),
                        track: r.trackAtImport ? track(rates: r.trackRates) : nil), context: context).firstPosition
                }
                let start = r.start.instant
                model.workouts[r.id] = Modelled(
                    live: r.live, kind: r.kind, type: r.type, start: start, end: start + Int64(r.elapsed ?? r.moving) * 1_000_000,
                    distance: r.distance, moving: r.moving, hasTrack: r.trackAtImport, hasLaps: r.laps,
                    hasRate: r.heartRate || (r.trackAtImport && r.trackRates), firstPosition: position)
            case .track(let id, let rates):
                try await logbook.execute(.recordTrack(user: Self.user, workoutId: id, track(rates: rates)), context: context)
                model.workouts[id]?.hasTrack = true
                if rates { model.workouts[id]?.hasRate = true }
            case .retype(let id, let type):
                try await logbook.execute(.editWorkout(user: Self.user, WorkoutEdited(workoutId: id, activityType: type)), context: context)
                model.workouts[id]?.type = type
            case .delete(let id):
                try await logbook.execute(.deleteWorkout(user: Self.user, workoutId: id), context: context)
                model.workouts[id] = nil
                deleted.insert(id)
            case .keepApart(let a, let b):
                guard a != b else { continue }
                try await logbook.execute(.record(user: Self.user, .workoutKeptSeparate(
                    WorkoutKeptSeparate(workoutId: a, otherWorkoutId: b))), context: context)
                model.apart.insert([a, b].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            case .prefer(let kinds):
                var unique: [SourceKind] = []
                for kind in kinds where !unique.contains(kind) { unique.append(kind) }
                try await logbook.execute(.updateProfile(user: Self.user, UserProfileUpdated(preferredWorkoutSources: unique)), context: context)
                model.preference = unique
            }
        }
        return model
    }

    /// What the read models must answer for `model`'s groups.
    func expectAnswers(_ logbook: Logbook, _ model: Model, asOf: AsOf? = nil, _ note: Comment) async throws {
        let groups = model.groups()
        let page = try await logbook.activities(user: Self.user, limit: 500, asOf: asOf)
        let listed = page.activities.map(\.workoutId)
        let expected = groups.keys.sorted { a, b in
            let x = model.workouts[a]!.start, y = model.workouts[b]!.start
            return x != y ? x > y : a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        #expect(listed == expected, note)
        for record in page.activities {
            let others = groups[record.workoutId] ?? []
            #expect((record.alsoRecordedBy ?? []).map(\.workoutId) == others, note)
            #expect(record.primaryWorkoutId == nil, note)
        }
        for (primary, others) in groups {
            for other in others {
                #expect(try await logbook.activity(user: Self.user, workoutId: other, asOf: asOf).primaryWorkoutId == primary, note)
            }
        }
        let totals = try await logbook.statsSummary(user: Self.user, period: .all, to: day("2026-11-30"), asOf: asOf).totals
        #expect(totals.workouts == groups.count, note)
        #expect(totals.distanceMeters == groups.keys.reduce(0) { $0 + model.workouts[$1]!.distance }, note)
        #expect(totals.movingSeconds == groups.keys.reduce(0) { $0 + model.workouts[$1]!.moving }, note)
        let holders = try await logbook.personalRecords(user: Self.user, asOf: asOf).activityTypes.flatMap(\.records).map(\.workoutId)
        #expect(holders.allSatisfy { groups[$0] != nil }, note)
    }

    @Test("every arrival order counts each activity once, as the model of the rules says; live = rebuild = verify = as-of",
          arguments: [UInt64(1), 2, 3, 4])
    func shuffledArrivals(seed: UInt64) async throws {
        let steps = Self.history(seed: seed)
        var duplicates = 0
        for order in 0..<3 {
            try await withLogbook { logbook, _ in
                try await logbook.execute(.registerUser(user: Self.user, UserRegistered(displayName: "U", timeZone: "Europe/Berlin")),
                                          context: when(Self.now))
                let model = try await run(Self.shuffled(steps, seed: seed &* 31 &+ UInt64(order)), on: logbook)
                let note: Comment = "seed \(seed), order \(order)"
                duplicates += model.groups().values.reduce(0) { $0 + $1.count }
                try await expectAnswers(logbook, model, note)
                let live = try logbook.digests()
                #expect(try await logbook.verify().allSatisfy(\.matches), note)
                let rebuilt = try await logbook.rebuild()
                #expect(rebuilt.map(\.sha256) == live.map(\.sha256), note)
                try await expectAnswers(logbook, model, asOf: .position(try await logbook.log.headPosition()), note)
            }
        }
        #expect(duplicates > 0, "the history should hold recordings of the same activity")
    }

    @Test("three sources of one run count once; the richest leads; a preferred source leads; kept apart counts twice")
    func threeSources() async throws {
        try await withLogbook { logbook, _ in
            let context = when(Self.now)
            try await logbook.execute(.registerUser(user: Self.user, UserRegistered(displayName: "U", timeZone: "Europe/Berlin")), context: context)
            func imported(_ id: String, _ kind: SourceKind, minutes shift: Int, rates: Bool = false, track: Bool = false) async throws {
                let start = Timestamp(microsecondsSinceEpoch: at("2026-11-20T07:00:00+01:00").instant + Int64(shift) * 60_000_000, utcOffsetSeconds: 3600)
                let end = Timestamp(microsecondsSinceEpoch: start.instant + 3_000_000_000, utcOffsetSeconds: 3600)
                try await logbook.execute(.importWorkout(user: Self.user, WorkoutImported(
                    workoutId: id, activityType: .run, startedAt: start, endedAt: end, distanceMeters: 10_000, movingSeconds: 2_950,
                    avgHeartRate: rates ? 150 : nil, source: WorkoutSource(kind: kind, sourceId: id)),
                    track: track ? self.track(rates: true) : nil), context: context)
            }
            try await imported("watch", .garmin, minutes: 0)
            try await imported("health", .healthkit, minutes: 1, rates: true)
            try await imported("strava", .strava, minutes: -1)
            var page = try await logbook.activities(user: Self.user)
            #expect(page.activities.map(\.workoutId) == ["health"])
            #expect(page.activities[0].alsoRecordedBy == [
                RecordedBy(workoutId: "watch", source: WorkoutSource(kind: .garmin, sourceId: "watch")),
                RecordedBy(workoutId: "strava", source: WorkoutSource(kind: .strava, sourceId: "strava")),
            ])
            #expect(try await logbook.statsSummary(user: Self.user, period: .all, to: day("2026-11-30")).totals.workouts == 1)
            // A later, richer recording (a track) takes over, and every read model follows.
            try await logbook.execute(.recordTrack(user: Self.user, workoutId: "strava", track(rates: false)), context: context)
            #expect(try await logbook.activities(user: Self.user).activities.map(\.workoutId) == ["strava"])
            #expect(try await logbook.activity(user: Self.user, workoutId: "health").primaryWorkoutId == "strava")
            // The user prefers the watch: it leads whatever the others hold.
            try await logbook.execute(.updateProfile(user: Self.user, UserProfileUpdated(preferredWorkoutSources: [.wahoo, .garmin])), context: context)
            page = try await logbook.activities(user: Self.user)
            #expect(page.activities.map(\.workoutId) == ["watch"])
            #expect(try await logbook.profile(user: Self.user).preferredWorkoutSources == [.wahoo, .garmin])
            // Kept apart from both others, the watch's run counts on its own.
            for other in ["health", "strava"] {
                try await logbook.execute(.record(user: Self.user, .workoutKeptSeparate(
                    WorkoutKeptSeparate(workoutId: "watch", otherWorkoutId: other))), context: context)
            }
            page = try await logbook.activities(user: Self.user)
            #expect(Set(page.activities.map(\.workoutId)) == ["watch", "strava"])
            #expect(try await logbook.statsSummary(user: Self.user, period: .all, to: day("2026-11-30")).totals.workouts == 2)
            // Two imports of one kind never match; a workout cannot be kept apart from itself or a stranger.
            await #expect(throws: LogbookError.self) {
                try await logbook.execute(.record(user: Self.user, .workoutKeptSeparate(
                    WorkoutKeptSeparate(workoutId: "watch", otherWorkoutId: "watch"))), context: context)
            }
            await #expect(throws: LogbookError.self) {
                try await logbook.execute(.record(user: Self.user, .workoutKeptSeparate(
                    WorkoutKeptSeparate(workoutId: "watch", otherWorkoutId: "nobody's"))), context: context)
            }
            let timeline = try await logbook.timeline(user: Self.user, filter: TimelineFilter(types: [.workoutKeptSeparate], newestFirst: false))
            #expect(timeline.entries.map(\.description).first == "Kept the run of Fri 20 Nov apart from workout health: not the same activity")
            let live = try logbook.digests()
            #expect(try await logbook.rebuild().map(\.sha256) == live.map(\.sha256))
        }
    }
}

/// SplitMix64: the tests' seeded source of randomness.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
