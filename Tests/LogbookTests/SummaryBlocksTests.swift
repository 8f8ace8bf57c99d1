import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookStorage
import LogbookTestSupport
import Testing

/// Year and all-time summaries are summed from blocks of 32 days kept between queries under the
/// stamps of their workouts, and from the days at their ends: they must equal the summaries
/// summed from the workouts themselves, with blocks kept or not, after every kind of change.
@Suite("Stats summaries over kept blocks")
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
            let kept = SummaryBlocks.kept()
            try Self.expectSame(logbook, questions, kept: nil)
            try Self.expectSame(logbook, questions, kept: kept)
            #expect(kept.count > 0)
            try Self.expectSame(logbook, questions, kept: kept)
            // Changes the kept blocks must not outlive: deletions, new types, new workouts.
            for _ in 0..<6 {
                let doomed = made.remove(at: Int(random.next() % UInt64(made.count)))
                try await logbook.execute(.deleteWorkout(user: "u", workoutId: doomed), context: when(Self.now))
            }
            for id in made.prefix(6) {
                try await logbook.execute(.editWorkout(user: "u", WorkoutEdited(workoutId: id, activityType: .hike)), context: when(Self.now))
            }
            try await importSome(10)
            try Self.expectSame(logbook, questions, kept: kept)
        }
    }

    /// Each of `questions` asked as over tables an older code version built (every workout
    /// summed) and as over these (blocks, `kept` if given): the same summary.
    static func expectSame(_ logbook: Logbook, _ questions: [(SummaryPeriod, CivilDate?, CivilDate, ActivityType?)], kept: SummaryBlocks.Kept?) throws {
        try logbook.readModels.environment.read { txn in
            let reader = LMDBTableReader(txn)
            var direct = try logbook.readModels.projectionSet(txn)
            direct.olderTables = [.activities]
            var blocks = try logbook.readModels.projectionSet(txn)
            blocks.summaryBlocks = kept?.pinned()
            for (period, from, to, type) in questions {
                let expected = try direct.statsSummary(user: "u", period: period, from: from, to: to, type: type, reader)
                let answered = try blocks.statsSummary(user: "u", period: period, from: from, to: to, type: type, reader)
                #expect(answered == expected, "\(period) \(from.map(String.init(describing:)) ?? "-") … \(to) \(type?.rawValue ?? "all")")
                #expect(expected.totals.workouts > 0 || from != nil, "a question with nothing to sum proves little")
            }
        }
    }
}
