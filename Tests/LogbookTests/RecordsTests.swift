import DemoData
import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Personal records, the read model added through the registry: hand-computed holders, the
/// timeline line when a record falls, deletes and type changes, as-of, rebuild and verify.
@Suite("Personal records")
struct RecordsTests {
    static let now = "2026-11-25T12:00:00+01:00"

    /// Imports a workout of `meters` in `seconds`, started on 2026-11-`day` at 07:00 Berlin.
    func workout(_ logbook: Logbook, _ id: String, _ type: ActivityType, day: Int, meters: Int, seconds: Int) async throws {
        let start = at("2026-11-\(day < 10 ? "0" : "")\(day)T07:00:00+01:00")
        let end = Timestamp(microsecondsSinceEpoch: start.instant + Int64(seconds + 60) * 1_000_000, utcOffsetSeconds: 3600)
        try await logbook.execute(.importWorkout(user: "u", WorkoutImported(
            workoutId: id, activityType: type, startedAt: start, endedAt: end, distanceMeters: meters, movingSeconds: seconds,
            source: WorkoutSource(kind: .garmin, sourceId: id))), context: when(Self.now))
    }

    func holders(_ records: PersonalRecords, _ type: ActivityType) -> [String] {
        records.activityTypes.first { $0.activityType == type }?.records.map { "\($0.kind.rawValue) \($0.workoutId)" } ?? []
    }

    @Test("holders are the first to reach the best value; a record falls only when a standing one is beaten")
    func holdersAndFalls() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "Europe/Berlin")), context: when(Self.now))
            try await workout(logbook, "r1", .run, day: 1, meters: 3_000, seconds: 1_080)   // 6:00 /km
            try await workout(logbook, "r2", .run, day: 2, meters: 5_000, seconds: 1_650)   // 5:30 /km
            try await workout(logbook, "r3", .run, day: 3, meters: 10_000, seconds: 3_600)  // 6:00 /km
            try await workout(logbook, "r4", .run, day: 4, meters: 5_000, seconds: 1_650)   // ties r2: holds nothing
            try await workout(logbook, "b1", .ride, day: 5, meters: 20_000, seconds: 2_400)
            let records = try await logbook.personalRecords(user: "u")
            #expect(records.activityTypes.map(\.activityType) == [.run, .ride])
            #expect(holders(records, .run) == ["fastest_1k r2", "fastest_5k r2", "fastest_10k r3", "longest_distance r3", "longest_time r3"])
            #expect(holders(records, .ride) == ["fastest_1k b1", "fastest_5k b1", "fastest_10k b1", "longest_distance b1", "longest_time b1"])
            let fastest = try #require(records.activityTypes.first?.records.first)
            #expect(fastest.paceSecondsPerKm == 330)
            #expect(fastest.date == day("2026-11-02"))
            // The timeline says when records fell: r2 broke three, r3 two, r1, r4 and b1 none.
            let lines = try await logbook.timeline(user: "u", filter: TimelineFilter(types: [.workoutImported], newestFirst: false)).entries.map(\.description)
            #expect(lines == [
                "Imported a run from garmin: 3.00 km in 18:00 on Sun 1 Nov",
                "Imported a run from garmin: 5.00 km in 27:30 on Mon 2 Nov. Personal records: fastest 1 km, longest distance, longest time",
                "Imported a run from garmin: 10.00 km in 1:00:00 on Tue 3 Nov. Personal records: longest distance, longest time",
                "Imported a run from garmin: 5.00 km in 27:30 on Wed 4 Nov",
                "Imported a ride from garmin: 20.00 km in 40:00 on Thu 5 Nov",
            ])
            let beforeDelete = try await logbook.log.headPosition()
            // Deleting r3 gives its records back to the workouts below it; a new type moves r2.
            try await logbook.execute(.deleteWorkout(user: "u", workoutId: "r3"), context: when(Self.now))
            #expect(holders(try await logbook.personalRecords(user: "u"), .run)
                == ["fastest_1k r2", "fastest_5k r2", "longest_distance r2", "longest_time r2"])
            try await logbook.execute(.editWorkout(user: "u", WorkoutEdited(workoutId: "r2", activityType: .walk)), context: when(Self.now))
            let edited = try await logbook.personalRecords(user: "u")
            #expect(holders(edited, .run) == ["fastest_1k r4", "fastest_5k r4", "longest_distance r4", "longest_time r4"])
            #expect(holders(edited, .walk) == ["fastest_1k r2", "fastest_5k r2", "longest_distance r2", "longest_time r2"])
            // As of before the delete, the past answer; live state untouched; a rebuild and verify agree.
            let past = try await logbook.personalRecords(user: "u", asOf: .position(beforeDelete))
            #expect(holders(past, .run) == holders(records, .run))
            let live = try logbook.digests()
            #expect(try await logbook.verify().allSatisfy(\.matches))
            #expect(try await logbook.rebuild([.records]).map(\.sha256) == live.filter { $0.projection == .records }.map(\.sha256))
        }
    }

    @Test("deleting a workout leaves the records as if it had never been recorded", arguments: [1, 2, 3, 4, 5, 6])
    func deleteEqualsNeverRecorded(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        var workouts: [(String, ActivityType, Int, Int)] = []
        for index in 0..<14 {
            let type: ActivityType = [.run, .ride, .walk][Int(random.next() % 3)]
            workouts.append(("w\(index)", type, 500 + Int(random.next() % 15_000), 300 + Int(random.next() % 5_000)))
        }
        let doomed = Int(random.next() % UInt64(workouts.count))
        func answers(deleting: Bool) async throws -> String {
            try await withLogbook { logbook, _ in
                try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "Asia/Tokyo")), context: when(Self.now))
                for (index, (id, type, meters, seconds)) in workouts.enumerated() where deleting || index != doomed {
                    try await workout(logbook, id, type, day: 1 + index, meters: meters, seconds: seconds)
                }
                if deleting { try await logbook.execute(.deleteWorkout(user: "u", workoutId: workouts[doomed].0), context: when(Self.now)) }
                // Positions differ between the two logs: compare what holds which record.
                let records = try await logbook.personalRecords(user: "u")
                return records.activityTypes.map { type in
                    "\(type.activityType): " + type.records.map { "\($0.kind.rawValue)=\($0.workoutId)@\($0.date)" }.joined(separator: " ")
                }.joined(separator: "; ")
            }
        }
        let deleted = try await answers(deleting: true)
        let never = try await answers(deleting: false)
        #expect(deleted == never)
        #expect(!never.isEmpty)
    }

    @Test("the records of a generated history rebuild to the same digest with any chunk size")
    func generatedHistory() async throws {
        try await withLogbook({ $0.rebuildChunkSize = 111 }) { logbook, _ in
            var generator = DemoDataGenerator(seed: 9, users: 3)
            generator.weeks = 3
            _ = try await generator.run(on: logbook)
            let live = try logbook.digests().filter { $0.projection == .records }
            #expect(live.count == 1)
            #expect(try await logbook.rebuild([.records]).map(\.sha256) == live.map(\.sha256))
            let someone = try await logbook.personalRecords(user: DemoDataGenerator.userId(0))
            #expect(!someone.activityTypes.isEmpty)
        }
    }
}
