import DemoData
import EventLog
import EventLogLMDB
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Read models that follow a log through the ``EventStore`` seam alone — in a directory of their
/// own, by subscription — agree with the ones folded inline, byte for byte, and keep every
/// promise of the inline path: read-your-writes, rebuilds, verification, restarts.
@Suite("Read models following a log", .serialized)
struct FollowingReadModelsTests {
    func sha(_ digests: [ReadModelDigest]) -> [String] { digests.map { "\($0.projection.rawValue) \($0.sha256)" } }

    /// Runs `body` with a Logbook following a bare LMDB log in `root/log`, read models in `root/rm`.
    func withFollower<R>(
        _ root: String, folder: String = "rm", _ configure: (inout LogbookConfiguration) -> Void = { _ in },
        _ body: (Logbook) async throws -> R
    ) async throws -> R {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .relaxed
        configure(&configuration)
        let log = try LMDBEventStore(path: root + "/log", configuration: configuration.log)
        let logbook = try await Logbook.open(following: log, readModelsAt: root + "/" + folder, configuration: configuration)
        do {
            let result = try await body(logbook)
            await logbook.close()
            return result
        } catch {
            await logbook.close()
            throw error
        }
    }

    @Test("a history written through a follower gives the digests an inline rebuild of the same log gives")
    func followerEqualsInline() async throws {
        try await withTemporaryDirectory { root in
            let followed = try await withFollower(root, { $0.rebuildChunkSize = 500 }) { logbook in
                var generator = DemoDataGenerator(seed: 21, users: 3)
                generator.weeks = 2
                let report = try await generator.run(on: logbook)
                #expect(report.rejected.keys.sorted() == ["goal_horizon"])
                #expect(try await logbook.verify().allSatisfy(\.matches))
                return try logbook.digests()
            }
            #expect(followed.allSatisfy { !$0.rebuilding && $0.position > 0 })
            // The same log opened embedded: its inline read models are built from scratch.
            var configuration = LogbookConfiguration()
            configuration.log.durability = .relaxed
            let inline = try await Logbook.open(path: root + "/log", configuration: configuration)
            let digests = try inline.digests()
            await inline.close()
            #expect(sha(digests) == sha(followed))
        }
    }

    @Test("a command's answer leaves once the following read models hold it: queries read their writes")
    func readYourWrites() async throws {
        try await withTemporaryDirectory { root in
            try await withFollower(root) { logbook in
                try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "Europe/Berlin")), context: when("2026-11-20T08:00:00+01:00"))
                for steps in [6_000, 7_000, 8_000] {
                    try await logbook.execute(.setGoal(user: "u", GoalSet(date: day("2026-11-25"), steps: steps)), context: when("2026-11-20T08:00:00+01:00"))
                    let week = try await logbook.goalWeek(user: "u", containing: day("2026-11-25"))
                    #expect(week.days.first { $0.date == day("2026-11-25") }?.goal.steps == steps)
                }
                // The rules see the read models too: a second start while one runs is refused.
                try await logbook.execute(.startWorkout(user: "u", WorkoutStarted(workoutId: "w1", activityType: .run, startedAt: at("2026-11-20T07:00:00+01:00"))), context: when("2026-11-20T08:00:00+01:00"))
                await #expect(throws: LogbookError.self) {
                    try await logbook.execute(.startWorkout(user: "u", WorkoutStarted(workoutId: "w2", activityType: .run, startedAt: at("2026-11-20T07:30:00+01:00"))), context: when("2026-11-20T08:00:00+01:00"))
                }
                let status = try await logbook.projectionStatus()
                #expect(status.allSatisfy { $0.lag == 0 && !$0.rebuilding }, "\(status)")
            }
        }
    }

    @Test("two followers of one log (two servers): a write through one reaches the other's read models and caches")
    func twoFollowers() async throws {
        try await withTemporaryDirectory { root in
            var configuration = LogbookConfiguration()
            configuration.log.durability = .relaxed
            let log = try LMDBEventStore(path: root + "/log", configuration: configuration.log)
            let a = try await Logbook.open(following: log, readModelsAt: root + "/a", configuration: configuration)
            let b = try await Logbook.open(following: log, readModelsAt: root + "/b", configuration: configuration)
            do {
                let now = when("2026-11-20T08:00:00+01:00")
                try await expectWritesOnOneReadOnTheOther(a, b)
                let (digestsA, digestsB) = (try a.digests(), try b.digests())
                #expect(sha(digestsA) == sha(digestsB))
                // B decides against what A wrote: the user is registered there too.
                await #expect(throws: LogbookError.self) {
                    try await b.execute(.registerUser(user: "u", UserRegistered(displayName: "Again", timeZone: "UTC")), context: now)
                }
            } catch {
                await a.close()
                await b.close()
                throw error
            }
            await a.close()
            await b.close()
        }
    }

    @Test("rebuilds, restarts and catch-up after appends made while the follower was away")
    func rebuildRestartAndCatchUp() async throws {
        try await withTemporaryDirectory { root in
            let first = try await withFollower(root, { $0.rebuildChunkSize = 300 }) { logbook in
                var generator = DemoDataGenerator(seed: 22, users: 2)
                generator.weeks = 1
                _ = try await generator.run(on: logbook)
                let live = try logbook.digests()
                #expect(sha(try await logbook.rebuild([.stats, .timeline])) == sha(live.filter { [.stats, .timeline].contains($0.projection) }))
                #expect(sha(try logbook.digests()) == sha(live))
                return live
            }
            // Reopened: nothing to rebuild, the same read models.
            let reopened = try await withFollower(root) { logbook in try logbook.digests() }
            #expect(sha(reopened) == sha(first))
            // Appends while no follower runs (another server wrote them), then a follower in a new
            // directory (a new server) and the old one both catch up to the same bytes.
            let log = try LMDBEventStore(path: root + "/log")
            let user = DemoDataGenerator.userId(0)
            let event = ProposedEvent(
                type: EventType.goalSet.rawValue, subject: user, occurredAt: at("2026-09-01T08:00:00+02:00"),
                payload: BinaryEventCodec.encode(.goalSet(GoalSet(date: day("2026-09-02"), steps: 5_555))))
            let appended = try await log.append([event], to: "goals-\(user)")
            await log.close()
            let old = try await withFollower(root) { logbook in
                try await logbook.catchUp(to: appended.lastPosition)
                return try logbook.digests()
            }
            let fresh = try await withFollower(root, folder: "rm-new") { logbook in try logbook.digests() }
            #expect(sha(old) == sha(fresh))
            #expect(sha(old) != sha(first), "the appended goal changed nothing")
        }
    }
}
