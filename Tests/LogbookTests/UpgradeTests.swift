import DemoData
import EventLog
import EventLogLMDB
import Foundation
import LMDB
import Logbook
import LogbookStorage
import LogbookTestSupport
import LogbookTesting
import Synchronization
import Testing

/// Read-model upgrades without downtime: a new version is built beside the live one and switches
/// in whole, while writes and queries go on; every answer comes from one complete version.
@Suite("Read-model upgrades in the background", .serialized, .timeLimit(.minutes(8)))
struct UpgradeTests {
    static let now = "2026-11-21T08:00:00Z"
    static let loadDay = CivilDate(parsing: "2026-11-20")!
    static let bumped: Set<ReadModelKind> = [.stats, .activities, .timeline]

    func sha(_ digests: [ReadModelDigest]) -> [String] { digests.map { "\($0.projection.rawValue) \($0.sha256)" } }

    func configuration(chunk: Int) -> LogbookConfiguration {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .relaxed
        configuration.rebuildChunkSize = chunk
        return configuration
    }

    /// A demo history of some thousands of events, and the user `load` the test writes steps for.
    func seed(_ logbook: Logbook) async throws {
        var generator = DemoDataGenerator(seed: 5, users: 3)
        generator.weeks = 2
        _ = try await generator.run(on: logbook)
        try await logbook.execute(.registerUser(user: "load", UserRegistered(displayName: "Load", timeZone: "UTC")), context: when(Self.now))
    }

    /// One step, in minute `index` of the test's day (distinct minutes: the day's steps count them).
    func step(_ logbook: Logbook, _ index: Int) async throws {
        let start = Timestamp(microsecondsSinceEpoch: at("2026-11-20T00:00:00Z").instant + Int64(index) * 60_000_000)
        try await logbook.execute(.recordSteps(user: "load", StepsRecorded(samples: [
            StepSample(start: start, end: Timestamp(microsecondsSinceEpoch: start.instant + 30_000_000), count: 1, source: "phone"),
        ])), context: when(Self.now))
    }

    /// Makes the live read models `kinds` of the closed store at `path` look built by another
    /// code version, as after an upgrade of the binary that changed their folds; the old version
    /// of `activities` (if among them) listed nothing, so its answers tell the versions apart.
    func markBuiltByOtherCode(_ path: String, _ kinds: Set<ReadModelKind>) async throws {
        let log = try LMDBEventStore(path: path, configuration: configuration(chunk: 1).log)
        let store = try ReadModelStore(environment: log.environment)
        try log.environment.write { txn in
            for kind in kinds {
                var checkpoint = try #require(try store.checkpoint(kind, txn))
                checkpoint.codeVersion = kind.codeVersion + 1
                try store.setCheckpoint(kind, checkpoint, txn)
            }
            if kinds.contains(.activities) { try store.clear(.activities, .live, txn) }
        }
        await log.close()
    }

    /// Waits (two minutes at most) until no read model is being upgraded, rebuilt, or left at
    /// another code version; the caller checks what it finds.
    func waitUntilUpgraded(_ logbook: Logbook) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline,
              try await logbook.projectionStatus().contains(where: { $0.upgrade != nil || $0.rebuilding || $0.codeVersion != $0.projection.codeVersion }) {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("a code version bumped under steady writes and queries: every answer from a complete version, no write lost by the switch")
    func codeVersionBumpUnderLoad() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/logbook"
            let first = try await Logbook.open(path: path, configuration: configuration(chunk: 256))
            try await seed(first)
            let expectedActivities = try await first.activities(user: DemoDataGenerator.userId(0), limit: 200)
            let expectedWeek = try await first.weeklyStats(user: DemoDataGenerator.userId(1), containing: day("2026-09-02"))
            let before = try first.digests()
            await first.close()
            try await markBuiltByOtherCode(path, Self.bumped)

            let logbook = try await Logbook.open(path: path, configuration: configuration(chunk: 256))
            // Opening did not wait for the new versions: the old ones answer.
            let opened = try await logbook.projectionStatus()
            for status in opened where Self.bumped.contains(status.projection) {
                #expect(status.codeVersion == status.projection.codeVersion + 1, "\(status.projection) was rebuilt before opening returned")
                #expect(!status.rebuilding)
            }
            // Steps whose append has begun, and steps whose append has been acknowledged.
            let begun = Atomic<Int>(0)
            let acknowledged = Atomic<Int>(0)
            let stop = Atomic<Bool>(false)
            let writer = Task {
                var index = 0
                while !stop.load(ordering: .relaxed) && index < 1_400 {
                    begun.store(index + 1, ordering: .relaxed)
                    try await step(logbook, index)
                    index += 1
                    acknowledged.store(index, ordering: .relaxed)
                    // Steady, not flat out: the upgrade takes turns with these for the writer.
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            var newVersionSeen = false
            var answersDuringUpgrade = 0
            var answers = 0
            var lastSteps = 0
            var upgraded = false
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                // Queries of an embedded Logbook may never suspend: without this the loop would
                // keep one of the cooperative pool's few threads from every other test.
                await Task.yield()
                let statuses = try await logbook.projectionStatus()
                let upgrading = statuses.contains { Self.bumped.contains($0.projection) && ($0.codeVersion != $0.projection.codeVersion || $0.upgrade != nil) }
                #expect(statuses.allSatisfy { !$0.rebuilding && $0.lag == 0 }, "a live read model left live folding")
                let least = acknowledged.load(ordering: .relaxed)
                let steps = try await logbook.weeklyStats(user: "load", containing: Self.loadDay).steps
                let most = begun.load(ordering: .relaxed)
                #expect(steps >= least && steps <= most, "steps \(steps) outside the writes acknowledged before the query and begun after it (\(least)...\(most))")
                #expect(steps >= lastSteps, "the answer went back from \(lastSteps) to \(steps)")
                lastSteps = steps
                // The old version's answer or the new one's, never a half-built one, and never the
                // old one again once the new one answered.
                let page = try await logbook.activities(user: DemoDataGenerator.userId(0), limit: 200)
                if page == expectedActivities {
                    newVersionSeen = true
                } else {
                    #expect(page.activities.isEmpty && !newVersionSeen, "an answer from neither version whole: \(page.activities.count) activities")
                }
                #expect(try await logbook.weeklyStats(user: DemoDataGenerator.userId(1), containing: day("2026-09-02")) == expectedWeek)
                answers += 1
                if upgrading { answersDuringUpgrade += 1 }
                if !upgrading {
                    upgraded = true
                    break
                }
            }
            #expect(upgraded, "the upgrade did not finish within two minutes")
            // Some writes after the switch too.
            let switchedAt = acknowledged.load(ordering: .relaxed)
            while acknowledged.load(ordering: .relaxed) < min(1_400, switchedAt + 20) { try await Task.sleep(for: .milliseconds(5)) }
            stop.store(true, ordering: .relaxed)
            try await writer.value
            let written = acknowledged.load(ordering: .relaxed)
            #expect(answersDuringUpgrade > 0, "no query was answered while the upgrade ran (\(answers) answers)")
            #expect(try await logbook.weeklyStats(user: "load", containing: Self.loadDay).steps == written, "the switch lost a write")
            #expect(try await logbook.activities(user: DemoDataGenerator.userId(0), limit: 200) == expectedActivities, "the new version is not live")
            let after = try await logbook.projectionStatus()
            #expect(after.allSatisfy { $0.codeVersion == $0.projection.codeVersion && $0.upgrade == nil })
            #expect(try await logbook.verify().allSatisfy(\.matches), "the switched-in versions differ from a rebuild")
            // Untouched read models kept their bytes; the upgraded ones equal a rebuild's.
            let digests = try logbook.digests()
            #expect(sha(digests.filter { [.goals, .places].contains($0.projection) }) == sha(before.filter { [.goals, .places].contains($0.projection) }))
            await logbook.close()
            let reopened = try await Logbook.open(path: path, configuration: configuration(chunk: 256))
            #expect(try await reopened.projectionStatus().allSatisfy { $0.upgrade == nil && $0.codeVersion == $0.projection.codeVersion })
            #expect(sha(try reopened.digests()) == sha(digests), "reopening after the switch changed the read models")
            await reopened.close()
            // A build from before the second set of tables finds no checkpoint of the upgraded
            // read models (it rebuilds them rather than trust the emptied first set).
            let log = try LMDBEventStore(path: path, configuration: configuration(chunk: 1).log)
            let meta = try log.environment.openDatabase(named: "rm.meta")
            let keys = try log.environment.read { txn in
                try Self.bumped.sorted().map { kind in
                    (try txn.get(meta, key: Array(kind.rawValue.utf8).span) { _ in true } ?? false,
                     try txn.get(meta, key: Array((kind.rawValue + "~1").utf8).span) { _ in true } ?? false)
                }
            }
            #expect(keys.allSatisfy { !$0.0 && $0.1 }, "an upgraded read model still has a first-set checkpoint, or none of the second: \(keys)")
            await log.close()
        }
    }

    @Test("an upgrade cut off leaves the live version untouched and resumes when the store opens again")
    func cutOffUpgradeResumes() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/logbook"
            let logbook = try await Logbook.open(path: path, configuration: configuration(chunk: 100))
            try await seed(logbook)
            let live = try logbook.digests()
            let chunks = Mutex(0)
            let task = Task {
                try await logbook.upgrade([.stats, .goals]) { _ in
                    let seen = chunks.withLock { count in
                        count += 1
                        return count
                    }
                    if seen == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            let status = try await logbook.projectionStatus()
            let stats = try #require(status.first { $0.projection == .stats })
            let upgrade = try #require(stats.upgrade, "the cut-off upgrade's next version is not reported")
            #expect(!upgrade.running && upgrade.position > 0 && upgrade.lag > 0)
            #expect(sha(try logbook.digests()) == sha(live), "a cut-off upgrade changed the live read models")
            try await step(logbook, 1)
            await logbook.close()

            let reopened = try await Logbook.open(path: path, configuration: configuration(chunk: 100))
            try await waitUntilUpgraded(reopened)
            #expect(try await reopened.projectionStatus().allSatisfy { $0.upgrade == nil }, "the upgrade did not resume")
            #expect(try await reopened.weeklyStats(user: "load", containing: Self.loadDay).steps == 1)
            #expect(try await reopened.verify().allSatisfy(\.matches))
            // A rebuild of the same read models stops an upgrade and makes them current.
            let upgrading = Task { try await reopened.upgrade([.stats]) { _ in } }
            try await reopened.rebuild([.stats])
            _ = await upgrading.result
            #expect(try await reopened.projectionStatus().allSatisfy { $0.upgrade == nil })
            #expect(try await reopened.verify().allSatisfy(\.matches))
            await reopened.close()
        }
    }

    @Test("older tables the running code cannot fold into leave live folding alone: no append fails, and the upgrade puts them right")
    func unreadableOlderTables() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/logbook"
            let first = try await Logbook.open(path: path, configuration: configuration(chunk: 16))
            try await seed(first)
            try await step(first, 0)
            await first.close()
            try await markBuiltByOtherCode(path, [.stats])
            // The older stats tables keep a day's steps in a form this code cannot read.
            let log = try LMDBEventStore(path: path, configuration: configuration(chunk: 1).log)
            let steps = try log.environment.openDatabase(named: "rm.stats.steps")
            try log.environment.write { txn in
                var keys: [[UInt8]] = []
                try txn.withCursor(steps) { cursor in
                    var more = try cursor.first()
                    while more {
                        try cursor.withCurrent { key, _ in keys.append(key.copiedBytes()) }
                        more = try cursor.next()
                    }
                }
                #expect(!keys.isEmpty)
                for key in keys { try txn.put(steps, key: key.span, value: [0xFF].span) }
            }
            await log.close()

            let logbook = try await Logbook.open(path: path, configuration: configuration(chunk: 16))
            try await step(logbook, 1)
            let stats = try #require(try await logbook.projectionStatus().first { $0.projection == .stats })
            #expect(stats.rebuilding || stats.codeVersion == ReadModelKind.stats.codeVersion,
                    "stats still folds live into tables it cannot read")
            for index in 2..<40 { try await step(logbook, index) }
            try await waitUntilUpgraded(logbook)
            #expect(try await logbook.projectionStatus().allSatisfy { $0.upgrade == nil && !$0.rebuilding && $0.lag == 0 })
            #expect(try await logbook.weeklyStats(user: "load", containing: Self.loadDay).steps == 40)
            let verification = try await logbook.verify()
            let mismatched = verification.filter { !$0.matches }.map(\.projection.rawValue)
            #expect(mismatched.isEmpty, "the upgraded read models differ from a rebuild: \(mismatched)")
            await logbook.close()
        }
    }

    @Test("read models following a log upgrade beside the live ones while the log grows")
    func followerUpgrade() async throws {
        try await withTemporaryDirectory { root in
            var configuration = configuration(chunk: 64)
            configuration.followBatchSize = 16
            let log = try LMDBEventStore(path: root + "/log", configuration: configuration.log)
            let logbook = try await Logbook.open(following: log, readModelsAt: root + "/rm", configuration: configuration)
            try await seed(logbook)
            let writer = Task {
                for index in 0..<300 { try await step(logbook, index) }
            }
            let digests = try await logbook.upgrade([.stats, .timeline, .goals])
            try await writer.value
            #expect(digests.count == 3)
            #expect(try await logbook.weeklyStats(user: "load", containing: Self.loadDay).steps == 300)
            #expect(try await logbook.projectionStatus().allSatisfy { $0.upgrade == nil && !$0.rebuilding })
            #expect(try await logbook.verify().allSatisfy(\.matches))
            let followed = try logbook.digests()
            await logbook.close()
            // The same log folded inline from scratch gives the same bytes.
            let inline = try await Logbook.open(path: root + "/log", configuration: configuration)
            #expect(sha(try inline.digests()) == sha(followed))
            await inline.close()
        }
    }
}
