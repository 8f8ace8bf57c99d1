import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookStorage
import LogbookTestSupport
import Testing

/// The collectibles ledger's totals are kept as workouts come to count and leave, so the workout
/// milestones read one record: they must always equal the totals worked out from the ledger in
/// its order, whatever the history (several devices recording one activity, which grouping
/// counts once and may switch, deletions of any workout, distances that reach every milestone).
@Suite("Collectibles ledger totals")
struct LedgerTotalsTests {
    static let now = "2026-11-28T12:00:00+01:00"

    @Test("seeded histories of imports from several devices, duplicates and deletions: the kept totals equal the ledger's, after every command", arguments: [UInt64(1), 2, 3, 4])
    func keptEqualsLedger(seed: UInt64) async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "Europe/Berlin")), context: when(Self.now))
            var random = SplitMix64(seed: seed)
            var made: [String] = []
            for index in 0..<60 {
                if !made.isEmpty, random.next() % 5 == 0 {
                    // Delete any workout made so far: the first, a milestone's, a duplicate.
                    let doomed = made.remove(at: Int(random.next() % UInt64(made.count)))
                    try await logbook.execute(.deleteWorkout(user: "u", workoutId: doomed), context: when(Self.now))
                } else {
                    let day = 1 + Int(random.next() % 20)
                    let start = at("2026-11-\(day < 10 ? "0" : "")\(day)T07:00:00+01:00")
                    let seconds = 600 + Int(random.next() % 6_000)
                    let meters = [800, 3_000, 5_000, 12_000, 43_000][Int(random.next() % 5)] + Int(random.next() % 500)
                    // The same activity from up to three devices: grouping counts one of them.
                    for device in 0..<(1 + Int(random.next() % 3)) {
                        let id = "w\(index)-\(device)"
                        let skew = Int64(device) * 20_000_000
                        try await logbook.execute(.importWorkout(user: "u", WorkoutImported(
                            workoutId: id, activityType: .run, startedAt: Timestamp(microsecondsSinceEpoch: start.instant + skew, utcOffsetSeconds: 3600),
                            endedAt: Timestamp(microsecondsSinceEpoch: start.instant + skew + Int64(seconds + 60) * 1_000_000, utcOffsetSeconds: 3600),
                            distanceMeters: meters + device * 10, movingSeconds: seconds,
                            source: WorkoutSource(kind: [SourceKind.garmin, .strava, .wahoo][device], sourceId: id))), context: when(Self.now))
                        made.append(id)
                    }
                }
                try Self.expectKeptEqualsLedger(logbook, "after command \(index)")
            }
        }
    }

    /// The kept totals of user `u` against the totals of the ledger's entries added in order.
    static func expectKeptEqualsLedger(_ logbook: Logbook, _ when: String) throws {
        try logbook.readModels.environment.read { txn in
            let reader = LMDBTableReader(txn)
            var projections = try logbook.readModels.projectionSet(txn)
            var fromLedger = LedgerTotals()
            for (key, entry) in try projections.collectibles.ledger.records(withPrefix: keyPrefix { $0.keyString("u") }, reader) {
                fromLedger.append(key, entry)
            }
            let kept = try projections.collectibles.workoutMilestones(user: "u", reader)
            let expected = fromLedger.milestones
            #expect(kept.earned == expected.earned, "\(when)")
            #expect(kept.measures == expected.measures, "\(when)")
        }
    }
}
