import BinaryCoding
import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookStorage
import LogbookTestSupport
import Testing

/// Year and all-time summaries are summed from the sums the activities fold keeps per block of 32
/// days, and from the days at their ends: they must equal the summaries summed from the workouts
/// themselves after every kind of change, and each block's sums the sum of its listed workouts.
@Suite("Stats summaries over block sums")
struct SummaryBlocksTests {
    static let now = "2026-11-28T12:00:00+01:00"

    @Test("seeded histories over three years with deletions and new types: year and all-time summaries from blocks equal those from the workouts", arguments: [UInt64(1), 2, 3])
    func blocksEqualWorkouts(seed: UInt64) async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "Europe/Berlin")), context: when(Self.now))
            var random = SplitMix64(seed: seed)
            let first = day("2023-12-20")
            var made: [String] = []
            func importSome(_ count: Int) async throws {
                for _ in 0..<count {
                    let id = "w\(made.count)"
                    let date = first.adding(days: Int(random.next() % 1_100))
                    // Late evening starts: the local day differs from the UTC day at some block edges.
                    let start = at("\(date)T\(random.next() % 2 == 0 ? "06" : "23"):30:00+01:00")
                    let seconds = 600 + Int(random.next() % 7_200)
                    try await logbook.execute(.importWorkout(user: "u", WorkoutImported(
                        workoutId: id, activityType: [.run, .ride, .walk][Int(random.next() % 3)], startedAt: start,
                        endedAt: Timestamp(microsecondsSinceEpoch: start.instant + Int64(seconds + 120) * 1_000_000, utcOffsetSeconds: 3600),
                        distanceMeters: 500 + Int(random.next() % 40_000), movingSeconds: seconds, activeKcal: Int(random.next() % 900),
                        avgHeartRate: random.next() % 2 == 0 ? 110 + Int(random.next() % 60) : nil,
                        source: WorkoutSource(kind: .garmin, sourceId: id))), context: when(Self.now))
                    made.append(id)
                }
            }
            try await importSome(120)
            var questions: [(SummaryPeriod, CivilDate?, CivilDate, ActivityType?)] = [(.all, nil, day("2026-12-31"), nil), (.all, nil, day("2026-12-31"), .run)]
            for _ in 0..<12 {
                let to = first.adding(days: Int(random.next() % 1_200))
                let from = random.next() % 2 == 0 ? nil : Optional(to.adding(days: -Int(random.next() % 900)))
                questions.append(([.year, .all][Int(random.next() % 2)], from, to, [nil, .run, .ride][Int(random.next() % 3)]))
            }
            try Self.expectSame(logbook, questions)
            try Self.expectBlockSumsStand(logbook)
            // Changes the block sums must follow: deletions, new types, new workouts.
            for _ in 0..<6 {
                let doomed = made.remove(at: Int(random.next() % UInt64(made.count)))
                try await logbook.execute(.deleteWorkout(user: "u", workoutId: doomed), context: when(Self.now))
            }
            for id in made.prefix(6) {
                try await logbook.execute(.editWorkout(user: "u", WorkoutEdited(workoutId: id, activityType: .hike)), context: when(Self.now))
            }
            try await importSome(10)
            try Self.expectSame(logbook, questions)
            try Self.expectBlockSumsStand(logbook)
            let live = try logbook.digests().map { "\($0.projection.rawValue) \($0.sha256)" }
            #expect(try await logbook.rebuild().map { "\($0.projection.rawValue) \($0.sha256)" } == live)
        }
    }

    @Test("seeded histories of imports from two devices, tracks recorded after a workout counts, new types, preferred sources, kept-apart pairs and deletions: every listed workout's facts are those its record and track summary hold", arguments: [UInt64(1), 2, 3])
    func listedFactsStand(seed: UInt64) async throws {
        try await withLogbook { logbook, _ in
            let now = when(Self.now)
            try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "Europe/Berlin")), context: now)
            var random = SplitMix64(seed: seed)
            let first = day("2025-06-01")
            var made: [String] = []
            for index in 0..<40 {
                let date = first.adding(days: Int(random.next() % 300))
                let start = at("\(date)T\(random.next() % 2 == 0 ? "06" : "23"):30:00+01:00")
                let seconds = 900 + Int(random.next() % 5_000)
                let type = [ActivityType.run, .ride, .walk][Int(random.next() % 3)]
                // Every third activity recorded by a second device too: one group, one primary.
                for kind in index % 3 == 0 ? [SourceKind.garmin, .strava] : [.garmin] {
                    let id = "w\(index)-\(kind.rawValue)"
                    try await logbook.execute(.importWorkout(user: "u", WorkoutImported(
                        workoutId: id, activityType: type, startedAt: start,
                        endedAt: Timestamp(microsecondsSinceEpoch: start.instant + Int64(seconds + 60) * 1_000_000, utcOffsetSeconds: 3600),
                        distanceMeters: 800 + Int(random.next() % 30_000), movingSeconds: seconds,
                        activeKcal: random.next() % 2 == 0 ? Int(random.next() % 900) : nil,
                        avgHeartRate: random.next() % 3 == 0 ? 110 + Int(random.next() % 60) : nil,
                        source: WorkoutSource(kind: kind, sourceId: id))), context: now)
                    made.append(id)
                }
            }
            try Self.expectFactsStand(logbook)
            // Tracks after the workouts count: their climb and heart rates reach the facts.
            for id in made where random.next() % 2 == 0 {
                let points = 3 + Int(random.next() % 5)
                try await logbook.execute(.recordTrack(user: "u", workoutId: id, TrackSamples(
                    points: points, offsetMillis: (0..<points).map { $0 * 10_000 },
                    latitudeE7: Array(repeating: 475_000_000, count: points), longitudeE7: Array(repeating: 85_000_000, count: points),
                    altitudeCentimeters: (0..<points).map { _ in 40_000 + Int(random.next() % 3_000) },
                    heartRate: (0..<points).map { _ in 100 + Int(random.next() % 80) })), context: now)
            }
            try Self.expectFactsStand(logbook, withClimb: true)
            try await logbook.execute(.updateProfile(user: "u", UserProfileUpdated(preferredWorkoutSources: [.strava, .garmin])), context: now)
            for id in made.shuffled(using: &random).prefix(6) {
                try await logbook.execute(.editWorkout(user: "u", WorkoutEdited(workoutId: id, activityType: .hike)), context: now)
            }
            try await logbook.execute(Command(user: "u", event: .workoutKeptSeparate(WorkoutKeptSeparate(workoutId: "w0-garmin", otherWorkoutId: "w0-strava"))), context: now)
            for id in made.shuffled(using: &random).prefix(5) {
                try await logbook.execute(.deleteWorkout(user: "u", workoutId: id), context: now)
            }
            try Self.expectFactsStand(logbook, withClimb: true)
            try Self.expectBlockSumsStand(logbook)

            // Tables a code version from before the facts built list their workouts with an empty
            // value: summed from the records instead, to the same summaries.
            func summaries() throws -> [StatsSummary] {
                try logbook.readModels.environment.read { txn in
                    var set = try logbook.readModels.projectionSet(txn)
                    return try [(SummaryPeriod.all, ActivityType?.none), (.year, .run), (.month, .ride), (.week, nil)].map { period, type in
                        try set.statsSummary(user: "u", period: period, from: period == .all ? nil : first, to: day("2026-11-28"), type: type, LMDBTableReader(txn))
                    }
                }
            }
            let withFacts = try summaries()
            try logbook.readModels.environment.write { txn in
                var set = try logbook.readModels.projectionSet(txn, active: [.activities])
                let range = ActivityListKey("u", .max, "")...ActivityListKey("u", .min, "\u{10FFFF}")
                for (key, _) in try set.activities.list.records(in: range, LMDBTableReader(txn)) { set.activities.list.set(key, ListedWorkout(nil)) }
                try set.flush(txn)
            }
            #expect(try summaries() == withFacts)
            #expect(withFacts[0].totals.workouts > 20 && withFacts[0].totals.elevationGainMeters > 0)
        }
    }

    /// Every workout `u`'s list holds carries the facts its record and track summary make.
    static func expectFactsStand(_ logbook: Logbook, withClimb: Bool = false) throws {
        try logbook.readModels.environment.read { txn in
            let reader = LMDBTableReader(txn)
            var set = try logbook.readModels.projectionSet(txn)
            let listed = try set.activities.list.records(in: ActivityListKey("u", .max, "")...ActivityListKey("u", .min, "\u{10FFFF}"), reader)
            #expect(listed.count > 20)
            for (key, entry) in listed {
                let facts = try #require(entry.facts, "\(key.workoutId) is listed without its facts")
                let record = try #require(try set.activities.workouts.get(WorkoutKey(key.workoutId), reader))
                let track = try set.activities.trackSummaries.get(WorkoutKey(key.workoutId), reader)
                #expect(facts == SummaryFacts(record, track: track), "\(key.workoutId)")
            }
            if withClimb { #expect(listed.contains { $0.1.facts?.climbGainMeters != nil && $0.1.facts?.trackMeanHeartRate != nil }, "no listed workout has a track") }
        }
    }

    /// Every block of `u`'s listed workouts has sums, each the sum of the block's listed workouts
    /// (compared as stored bytes), and no block without listed workouts has any.
    static func expectBlockSumsStand(_ logbook: Logbook) throws {
        try logbook.readModels.environment.read { txn in
            let reader = LMDBTableReader(txn)
            var set = try logbook.readModels.projectionSet(txn)
            var expected: [Int32: BlockSums] = [:]
            try set.activities.listedWorkouts(user: "u", from: CivilDate(year: 1, month: 1, day: 1)!, to: CivilDate(year: 9999, month: 12, day: 31)!, type: nil, reader) {
                date, workout in
                try expected[DayBlock.first(of: Int32(date.daysSinceEpoch)), default: BlockSums()].add(workout)
            }
            let stored = try set.activities.blockSums.records(in: UserDayKey("u", .min)...UserDayKey("u", .max), reader)
            #expect(stored.map(\.0.day) == expected.keys.sorted())
            func bytes(_ sums: BlockSums?) -> [UInt8] {
                var writer = ByteWriter()
                sums?.encode(into: &writer)
                return writer.bytes
            }
            for (key, sums) in stored {
                #expect(bytes(sums) == bytes(expected[key.day]), "block \(CivilDate(daysSinceEpoch: Int(key.day)))")
            }
            #expect(stored.count > 3)
        }
    }

    /// Each of `questions` asked as over tables an older code version built (every workout
    /// summed) and as over these (block sums): the same summary.
    static func expectSame(_ logbook: Logbook, _ questions: [(SummaryPeriod, CivilDate?, CivilDate, ActivityType?)]) throws {
        try logbook.readModels.environment.read { txn in
            let reader = LMDBTableReader(txn)
            var direct = try logbook.readModels.projectionSet(txn)
            direct.olderTables = [.activities]
            var blocks = try logbook.readModels.projectionSet(txn)
            for (period, from, to, type) in questions {
                let expected = try direct.statsSummary(user: "u", period: period, from: from, to: to, type: type, reader)
                let answered = try blocks.statsSummary(user: "u", period: period, from: from, to: to, type: type, reader)
                #expect(answered == expected, "\(period) \(from.map(String.init(describing:)) ?? "-") … \(to) \(type?.rawValue ?? "all")")
                #expect(expected.totals.workouts > 0 || from != nil, "a question with nothing to sum proves little")
            }
        }
    }
}
