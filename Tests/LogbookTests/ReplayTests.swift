import DemoData
import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Synchronization
import Testing

/// Deterministic replay over generated histories: however read models are rebuilt, they come
/// out byte for byte the same.
@Suite("Deterministic replay", .serialized)
struct ReplayTests {
    /// A small generated history (a few users, two weeks).
    func generate(_ logbook: Logbook, seed: UInt64 = 11, users: Int = 4, weeks: Int = 2) async throws {
        var generator = DemoDataGenerator(seed: seed, users: users)
        generator.weeks = weeks
        _ = try await generator.run(on: logbook)
    }

    func sha(_ digests: [ReadModelDigest]) -> [String] { digests.map { "\($0.projection.rawValue) \($0.sha256)" } }

    @Test("live digests equal rebuilt ones, with any chunk size, after a restart, and in another time zone and locale")
    func rebuildIsDeterministic() async throws {
        try await withLogbook({ $0.rebuildChunkSize = 97 }) { logbook, path in
            try await generate(logbook)
            let live = try logbook.digests()
            #expect(live.allSatisfy { !$0.rebuilding })
            #expect(try await logbook.verify().allSatisfy { $0.matches })
            let small = try await logbook.rebuild()
            #expect(sha(small) == sha(live))
            let single = try await logbook.rebuild([.stats])
            #expect(sha(single) == sha(live.filter { $0.projection == .stats }))
        }
        try await withTemporaryDirectory { root in
            let path = root + "/logbook"
            var configuration = LogbookConfiguration()
            configuration.log.durability = .relaxed
            configuration.rebuildChunkSize = 5000
            let first = try await Logbook.open(path: path, configuration: configuration)
            try await generate(first)
            let live = try first.digests()
            await first.close()
            let reopened = try await Logbook.open(path: path, configuration: configuration)
            #expect(sha(try reopened.digests()) == sha(live), "reopening changed the read models")
            #expect(sha(try await reopened.rebuild()) == sha(live))
            await reopened.close()
            // Another process, another time zone and locale: the same bytes.
            let (status, output) = try await runLogbook(["rebuild", "--path", path, "--json", "--chunk-size", "333"],
                                                  environment: ["TZ": "Pacific/Kiritimati", "LANG": "tr_TR.UTF-8", "LC_ALL": "tr_TR.UTF-8"])
            #expect(status == 0, "\(output)")
            let rebuilt = try JSONDecoder().decode([ReadModelDigest].self, from: Data(output.utf8))
            #expect(sha(rebuilt) == sha(live))
        }
    }

    @Test("read models stay exact when the map grows under the inline projections, a rebuild and a verify")
    func mapGrowthDuringFolds() async throws {
        try await withLogbook({ $0.log.initialMapSize = 1 << 20 }) { logbook, _ in
            try await generate(logbook, users: 3, weeks: 1)
            let live = try logbook.digests()
            #expect(try await logbook.verify().allSatisfy { $0.matches })
            #expect(sha(try await logbook.rebuild()) == sha(live))
        }
    }

    @Test("an interrupted rebuild resumes from its last chunk and ends with the same digests")
    func resumableRebuild() async throws {
        try await withLogbook({ $0.rebuildChunkSize = 500 }) { logbook, _ in
            try await generate(logbook, users: 3, weeks: 1)
            let live = try logbook.digests()
            let chunks = Mutex(0)
            let task = Task {
                try await logbook.rebuild { _ in
                    let seen = chunks.withLock { count in
                        count += 1
                        return count
                    }
                    if seen == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            let partial = try logbook.digests()
            #expect(partial.allSatisfy { $0.rebuilding }, "a cancelled rebuild leaves its projections marked as rebuilding")
            #expect(partial.allSatisfy { $0.position > 0 && $0.position < live[0].position }, "checkpoints moved once per chunk")
            try await logbook.resumeRebuild()
            #expect(sha(try logbook.digests()) == sha(live))
        }
    }

    @Test("as-of the head equals live; as-of the past shows the past without touching live state")
    func asOf() async throws {
        try await withLogbook { logbook, _ in
            try await generate(logbook, users: 3, weeks: 2)
            let head = try await logbook.log.headPosition()
            let user = DemoDataGenerator.userId(1)
            let week = day("2026-08-31")
            #expect(try await logbook.weeklyStats(user: user, containing: week, asOf: .position(head)) == logbook.weeklyStats(user: user, containing: week))
            #expect(try await logbook.goalWeek(user: user, containing: week, asOf: .position(head)) == logbook.goalWeek(user: user, containing: week))
            #expect(try await logbook.activities(user: user, asOf: .position(head)) == logbook.activities(user: user))
            #expect(try await logbook.savedPlaces(user: user, category: .restaurant, asOf: .position(head)) == logbook.savedPlaces(user: user, category: .restaurant))
            #expect(try await logbook.collectibles(user: user, asOf: .position(head)) == logbook.collectibles(user: user))
            #expect(try await logbook.timeline(user: user, limit: 20, asOf: .position(head)) == logbook.timeline(user: user, limit: 20))
            let before = try logbook.digests()
            // As of the end of the first day, the first week has one day of steps.
            let endOfDay = try await logbook.position(asOf: at("2026-08-25T00:00:00Z"))
            let early = try await logbook.weeklyStats(user: user, containing: day("2026-08-24"), asOf: .position(endOfDay))
            let later = try await logbook.weeklyStats(user: user, containing: day("2026-08-24"))
            #expect(early.days.dropFirst(2).allSatisfy { $0.steps == 0 })
            #expect(later.days.dropFirst(2).contains { $0.steps > 0 })
            #expect(try await logbook.weeklyStats(user: user, containing: day("2026-08-24"), asOf: .time(at("2026-08-25T00:00:00Z"))) == early)
            #expect(sha(try logbook.digests()) == sha(before), "an as-of query changed live state")
        }
    }

    @Test("deleting a workout leaves every read model as if it had never been recorded", arguments: [1, 2, 3, 4])
    func deleteEqualsNeverRecorded(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        // A random history of one user: workouts of mixed types and sources, and steps.
        var commands: [(Command, String)] = [
            (.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "Asia/Tokyo")), "2026-11-01T06:00:00+09:00"),
            (.setDefaultGoal(user: "u", GoalDefaultSet(steps: 6000)), "2026-11-01T06:01:00+09:00"),
        ]
        var workouts: [[(Command, String)]] = []
        for index in 0..<12 {
            let dayNumber = 1 + Int(random.next() % 20)
            let start = at("2026-11-\(dayNumber < 10 ? "0" : "")\(dayNumber)T\(10 + index % 10):00:00+09:00")
            let end = Timestamp(microsecondsSinceEpoch: start.instant + 3_000_000_000, utcOffsetSeconds: start.utcOffsetSeconds)
            let type = ActivityType.allCases[Int(random.next() % 8)]
            let meters = Int(random.next() % 30_000)
            let time = "2026-11-25T12:00:\(index < 10 ? "0" : "")\(index)+09:00"
            if random.next() % 2 == 0 {
                workouts.append([
                    (.startWorkout(user: "u", WorkoutStarted(workoutId: "w\(index)", activityType: type, startedAt: start)), time),
                    (.finishWorkout(user: "u", WorkoutFinished(workoutId: "w\(index)", endedAt: end, distanceMeters: meters, movingSeconds: 2400)), time),
                ])
            } else {
                workouts.append([(.importWorkout(user: "u", WorkoutImported(
                    workoutId: "w\(index)", activityType: type, startedAt: start, endedAt: end, distanceMeters: meters, movingSeconds: 2400,
                    source: WorkoutSource(kind: .garmin, sourceId: "g\(index)"))), time)])
            }
            let steps = StepSample(start: start, end: end, count: Int(random.next() % 9000), source: index % 3 == 0 ? "watch" : "phone")
            commands.append((.recordSteps(user: "u", StepsRecorded(samples: [steps])), time))
        }
        let doomed = Int(random.next() % UInt64(workouts.count))
        func replay(_ logbook: Logbook, deleting: Bool) async throws {
            for (command, time) in commands { try await logbook.execute(command, context: when(time)) }
            for (index, workout) in workouts.enumerated() where deleting || index != doomed {
                for (command, time) in workout { try await logbook.execute(command, context: when(time)) }
            }
            if deleting { try await logbook.execute(.deleteWorkout(user: "u", workoutId: "w\(doomed)"), context: when("2026-11-26T12:00:00+09:00")) }
        }
        func answers(_ logbook: Logbook) async throws -> [String] {
            var result: [String] = []
            for week in ["2026-11-02", "2026-11-09", "2026-11-16"] {
                var stats = try await logbook.weeklyStats(user: "u", containing: day(week))
                stats.days = stats.days.map { var d = $0; d.lastPosition = 0; return d }
                result.append("\(stats)")
                var goals = try await logbook.goalWeek(user: "u", containing: day(week))
                goals.streaks = try await logbook.streaks(user: "u", asOfDay: day("2026-11-21"))
                result.append("\(goals)")
            }
            result.append("\(try await logbook.activities(user: "u", limit: 100).activities.map { var a = $0; a.countedPosition = 0; return a })")
            result.append("\(try await logbook.calendar(user: "u", year: 2026, month: 11))")
            result.append("\(try await logbook.insights(user: "u", days: 30, today: day("2026-11-30")))")
            // Positions differ between the two logs, so collectibles are compared by what and when.
            result.append("\(try await logbook.collectibles(user: "u").map { "\($0.id) \($0.date)" }.sorted())")
            return result
        }
        let deleted = try await withLogbook { logbook, _ in
            try await replay(logbook, deleting: true)
            return try await answers(logbook)
        }
        let never = try await withLogbook { logbook, _ in
            try await replay(logbook, deleting: false)
            return try await answers(logbook)
        }
        #expect(deleted.count == never.count)
        for (index, (left, right)) in zip(deleted, never).enumerated() where left != right {
            Issue.record("answer \(index) differs:\n deleted: \(left)\n never:   \(right)")
        }
    }

    @Test("the generator is deterministic: the same seed gives the same log and read models")
    func generatorDeterminism() async throws {
        func run() async throws -> ([String], [String]) {
            try await withLogbook { logbook, _ in
                try await generate(logbook, seed: 5, users: 2, weeks: 1)
                let events = try await logbook.log.readAll(from: 1, direction: .forward, limit: 100_000, filter: .all).events
                return (events.map { "\($0.eventId) \($0.type) \($0.recordedAt) \($0.payload.count)" }, sha(try logbook.digests()))
            }
        }
        let (firstEvents, firstDigests) = try await run()
        let (secondEvents, secondDigests) = try await run()
        #expect(firstEvents == secondEvents)
        #expect(firstDigests == secondDigests)
    }
}
