import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import Synchronization
import Testing

/// Work that meets a rebuild in place or an erasure: commands and closed weeks are never judged
/// on read models a rebuild holds a part of; an erasure is not undone by a rebuild that opened the
/// user's payloads while the key was there, nor an as-of answer that read them tagged as erased.
@Suite("Work during a rebuild or an erasure", .serialized)
struct RebuildConcurrencyTests {
    func sha(_ digests: [ReadModelDigest]) -> [String] { digests.map { "\($0.projection.rawValue) \($0.sha256) @\($0.position)" } }

    /// A flag one task sets and another waits for.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
        func set() { value.store(true, ordering: .sequentiallyConsistent) }
        /// True the first time it is called.
        func setFirst() -> Bool { !value.exchange(true, ordering: .sequentiallyConsistent) }
    }

    /// Starts a rebuild of `kinds` that holds after its first chunk until `resume` answers true
    /// (30 s at most), and returns once it holds; throws after 60 s if it never does.
    func rebuildHolding(
        _ logbook: Logbook, _ kinds: Set<ReadModelKind>, until resume: @escaping @Sendable () -> Bool
    ) async throws -> Task<[ReadModelDigest], any Error> {
        let paused = Flag()
        let running = Task {
            try await logbook.rebuild(kinds) { _ in
                guard paused.setFirst() else { return }
                let deadline = ContinuousClock.now + .seconds(30)
                while !resume(), ContinuousClock.now < deadline { usleep(2_000) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while !paused.isSet {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(2))
        }
        return running
    }

    @Test("an erasure during a rebuild waits for it, then rebuilds: the read models end without the user")
    func erasureDuringRebuild() async throws {
        try await withGeneratedLogbook(seed: 11, users: 3, weeks: 2, configure: { $0.rebuildChunkSize = 64 }) { logbook in
            let victim = DemoDataGenerator.userId(0)
            // A rebuild of the stats (which commands are not judged against, so the erasure's own
            // command goes on) folds its first chunk, the victim's samples among it, opened with
            // the key; it holds until the key is destroyed, then goes on and live.
            let running = try await rebuildHolding(logbook, [.stats]) { (try? logbook.isErased(victim)) == true }
            let erased = try await logbook.erase(user: victim)
            #expect(!erased.alreadyApplied)
            _ = try await running.value

            let live = try logbook.digests()
            #expect(live.allSatisfy { !$0.rebuilding })
            #expect(sha(try await logbook.rebuild()) == sha(live), "the read models kept what the earlier rebuild opened of the erased user")
        }
    }

    /// Every record of the live read models, as "<read model>/<table>" → key bytes → value bytes.
    func liveRecords(_ logbook: Logbook) throws -> [String: [[UInt8]: [UInt8]]] {
        var records: [String: [[UInt8]: [UInt8]]] = [:]
        try logbook.readModels.environment.read { txn in
            for kind in ReadModelKind.allCases {
                var current = ""
                try logbook.readModels.forEachLiveRecord(kind, txn, table: { current = "\(kind.rawValue)/\($0)" }) { key, value in
                    records[current, default: [:]][key.copiedBytes()] = value.copiedBytes()
                }
            }
        }
        return records
    }

    /// The ids of the workouts whose streams hold `user`'s events.
    func workoutIds(of user: String, in logbook: Logbook) async throws -> [String] {
        try await logbook.log.readSubject(user, from: .start, direction: .forward, limit: 100_000)
            .map(\.envelope.stream).filter { $0.hasPrefix("workout-") }.map { String($0.dropFirst("workout-".count)) }
    }

    @Test("an erasure deletes the user's records where they are, and nothing else: the rest of every table stays byte for byte, other users' commands never wait, and the read models end as a rebuild's")
    func workDuringErasure() async throws {
        // Commands may not wait for a rebuild at all here: one judged during a rebuild in place
        // would be refused as not caught up.
        try await withGeneratedLogbook(seed: 17, users: 3, weeks: 3, configure: { $0.rebuildChunkSize = 16; $0.readYourWritesTimeout = .milliseconds(1) }) {
            logbook in
            let victim = DemoDataGenerator.userId(0)
            let other = DemoDataGenerator.userId(1)
            let othersProfile = try await logbook.profile(user: other)
            let victimsWorkouts = try await workoutIds(of: victim, in: logbook)
            #expect(!victimsWorkouts.isEmpty, "the test would prove nothing: the victim recorded no workout")
            let before = try liveRecords(logbook)
            let slots = try logbook.readModels.environment.read { try logbook.readModels.slots($0) }

            _ = try await logbook.erase(user: victim)
            let after = try liveRecords(logbook)
            #expect(try logbook.readModels.environment.read { try logbook.readModels.slots($0) } == slots, "the erasure built and switched in other tables")
            // Only records went (none changed or came), and each of them held the victim's id or
            // one of the victim's workouts' ids in its key.
            let marks = ([victim] + victimsWorkouts).map { Array($0.utf8) + [0] }
            func holdsVictim(_ key: [UInt8]) -> Bool {
                marks.contains { mark in key.count >= mark.count && (0...(key.count - mark.count)).contains { Array(key[$0..<($0 + mark.count)]) == mark } }
            }
            var removed = 0
            for (table, records) in before {
                for (key, value) in records {
                    if let kept = after[table]?[key] {
                        #expect(kept == value, "\(table): a record the erasure should not touch changed")
                    } else {
                        removed += 1
                        #expect(holdsVictim(key), "\(table): a record that was not the victim's went")
                    }
                }
            }
            #expect(after.allSatisfy { table, records in records.keys.allSatisfy { before[table]?[$0] != nil } }, "the erasure wrote records")
            #expect(removed > 0, "the erasure removed nothing")
            await #expect(throws: LogbookError.self) { _ = try await logbook.profile(user: victim) }
            let live = try logbook.digests()
            #expect(live.allSatisfy { !$0.rebuilding })
            #expect(sha(try await logbook.rebuild()) == sha(live), "the erasure left the read models other than a rebuild does")

            // Another erasure, while the other user's commands go on: none waits (1 ms would refuse it).
            let second = DemoDataGenerator.userId(2)
            let finished = Flag()
            let erasing = Task {
                defer { finished.set() }
                return try await logbook.erase(user: second)
            }
            let start = Int64(Date().timeIntervalSince1970 * 1_000_000) - 7_200_000_000
            var step: Int64 = 0
            while !finished.isSet || step < 20 {
                step += 1
                let sampleStart = Timestamp(microsecondsSinceEpoch: start + step * 60_000_000)
                let result = try await logbook.execute(.recordSteps(user: other, StepsRecorded(samples: [
                    StepSample(start: sampleStart, end: Timestamp(microsecondsSinceEpoch: sampleStart.instant + 60_000_000), count: 10, source: "phone"),
                ])))
                #expect(!result.alreadyApplied)
                #expect(try await logbook.profile(user: other) == othersProfile)
            }
            _ = try await erasing.value
            await #expect(throws: LogbookError.self) { _ = try await logbook.profile(user: second) }
            let afterBoth = try logbook.digests()
            #expect(sha(try await logbook.rebuild()) == sha(afterBoth), "the second erasure left the read models other than a rebuild does")
        }
    }

    /// Waits (two minutes at most) for the upgrade an erasure stopped to go on and switch in, then
    /// expects `victim` gone and the read models equal to a rebuild's.
    func expectUpgradeWentOn(_ logbook: Logbook, without victim: String) async throws {
        let finished = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < finished, try await logbook.projectionStatus().contains(where: { $0.upgrade != nil }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await logbook.projectionStatus().allSatisfy { $0.upgrade == nil }, "the stopped upgrade did not go on")
        await #expect(throws: LogbookError.self) { _ = try await logbook.profile(user: victim) }
        let live = try logbook.digests()
        #expect(sha(try await logbook.rebuild()) == sha(live), "the upgrade switched in what it opened of the erased user")
    }

    @Test("an erasure while an upgrade runs stops it, forgets the user in its next tables too, and lets it go on: it switches in without the user, as a rebuild would build")
    func erasureDuringUpgrade() async throws {
        try await withGeneratedLogbook(seed: 19, users: 3, weeks: 2, configure: { $0.rebuildChunkSize = 64 }) { logbook in
            let victim = DemoDataGenerator.userId(0)
            // The upgrade's first chunk opens the victim's payloads with the key; it then holds
            // until the key is gone, and is stopped by the erasure.
            let held = Flag()
            let upgrading = Task {
                try await logbook.upgrade([.stats, .profiles, .activities, .timeline]) { _ in
                    guard held.setFirst() else { return }
                    let deadline = ContinuousClock.now + .seconds(30)
                    while (try? logbook.isErased(victim)) != true, ContinuousClock.now < deadline { usleep(2_000) }
                }
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while !held.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
            try #require(held.isSet, "the upgrade never folded a chunk")
            _ = try await logbook.erase(user: victim)
            await #expect(throws: CancellationError.self, "the erasure did not stop the upgrade") { try await upgrading.value }

            try await expectUpgradeWentOn(logbook, without: victim)
        }
    }

    @Test("a background upgrade an erasure stops goes on afterwards, and switches in without the user")
    func erasureStopsBackgroundUpgrade() async throws {
        try await withGeneratedLogbook(seed: 29, users: 3, weeks: 3, configure: { $0.rebuildChunkSize = 16 }) { logbook in
            let victim = DemoDataGenerator.userId(0)
            // As opening starts one; in chunks of 16 events it is still running when the erasure comes.
            logbook.startUpgrades([.stats, .activities])
            let started = ContinuousClock.now + .seconds(30)
            while logbook.control.snapshot.upgrading.isEmpty, ContinuousClock.now < started { try await Task.sleep(for: .milliseconds(1)) }
            try #require(!logbook.control.snapshot.upgrading.isEmpty, "the upgrade did not start")
            _ = try await logbook.erase(user: victim)
            try await expectUpgradeWentOn(logbook, without: victim)
        }
    }

    @Test("an erasure while live tables of an older code version wait for their upgrade folds the log again beside them, and switches in without the user")
    func erasureBesideOlderTables() async throws {
        try await withGeneratedLogbook(seed: 23, users: 3, weeks: 1) { logbook in
            let victim = DemoDataGenerator.userId(0)
            // As after a deploy that changed the stats' stored form, before the upgrade switched in:
            // the running code cannot read those tables' keys, so it cannot delete the user's.
            logbook.control.keepLiveCodeVersions([.stats: ReadModelKind.stats.codeVersion + 1])
            let slots = try logbook.readModels.environment.read { try logbook.readModels.slots($0) }
            _ = try await logbook.erase(user: victim)
            let switched = try logbook.readModels.environment.read { try logbook.readModels.slots($0) }
            #expect(switched != slots, "the erasure did not build the read models again")
            #expect(logbook.control.snapshot.liveCodeVersion.isEmpty, "the older tables are still live")
            await #expect(throws: LogbookError.self) { _ = try await logbook.profile(user: victim) }
            let live = try logbook.digests()
            #expect(live.allSatisfy { !$0.rebuilding })
            #expect(sha(try await logbook.rebuild()) == sha(live), "the erasure's build differs from a rebuild")
        }
    }

    @Test("a command during a rebuild of what the rules read waits for it to end, or is refused as not caught up")
    func commandDuringRebuild() async throws {
        for timeout in [Duration.seconds(60), .milliseconds(300)] {
            try await withGeneratedLogbook(seed: 13, users: 3, weeks: 1, configure: { $0.rebuildChunkSize = 64; $0.readYourWritesTimeout = timeout }) {
                logbook in
                let user = DemoDataGenerator.userId(2)
                let release = Flag()
                // The profiles rebuild from scratch: after its first chunk the third user's
                // registration is not folded yet.
                let running = try await rebuildHolding(logbook, [.profiles]) { release.isSet }
                let done = Flag()
                let command = Task {
                    defer { done.set() }
                    let start = Timestamp(microsecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1_000_000) - 3_600_000_000)
                    return try await logbook.execute(.recordSteps(user: user, StepsRecorded(samples: [
                        StepSample(start: start, end: Timestamp(microsecondsSinceEpoch: start.instant + 60_000_000), count: 77, source: "phone"),
                    ])))
                }
                try await Task.sleep(for: .milliseconds(600))
                if timeout > .seconds(1) {
                    #expect(!done.isSet, "the command was judged on a profile read model being rebuilt")
                    release.set()
                    _ = try await running.value
                    let result = try await command.value
                    #expect(!result.alreadyApplied && result.lastPosition > 0)
                } else {
                    await #expect(throws: LogbookError.self) { _ = try await command.value }
                    release.set()
                    _ = try await running.value
                    do {
                        _ = try await command.value
                    } catch let error as LogbookError {
                        #expect(error.code == .notCaughtUp, "refused as \(error)")
                    }
                }
            }
        }
    }

    @Test("a week is not closed while a rebuild holds part of the stats it totals, and is on the next pass")
    func weekClosingDuringRebuild() async throws {
        try await withGeneratedLogbook(seed: 14, users: 2, weeks: 3, configure: { $0.rebuildChunkSize = 64 }) { logbook in
            let release = Flag()
            let running = try await rebuildHolding(logbook, [.stats]) { release.isSet }
            let head = try await logbook.log.headPosition()
            let during = try await logbook.closeEndedWeeks()
            release.set()
            _ = try await running.value
            #expect(during.closed.isEmpty, "weeks closed with totals from stats being rebuilt")
            #expect(during.failed.count == 2)
            #expect(during.failed.allSatisfy { $0.error.contains("not_caught_up") || $0.error.contains("rebuild") }, "\(during.failed)")
            #expect(try await logbook.log.headPosition() == head)
            let after = try await logbook.closeEndedWeeks()
            #expect(!after.closed.isEmpty && after.failed.isEmpty, "\(after.failed)")
        }
    }

    @Test("an as-of answer during which the user's key is destroyed is worked out again, and names the user erased")
    func asOfAnswerAcrossErasure() async throws {
        try await withGeneratedLogbook(seed: 12, users: 2, weeks: 1) { logbook in
            let victim = DemoDataGenerator.userId(1)
            let end = try await logbook.log.headPosition().rawValue
            let computed = Atomic<Int>(0)
            let trail = AnswerTrail()
            let answer = try await AnswerTrail.$current.withValue(trail) {
                try await logbook.asOfAnswer("test", user: victim, "p", end) { () async throws -> Int in
                    let count = computed.add(1, ordering: .sequentiallyConsistent).newValue
                    if count == 1 { try await logbook.erase(user: victim) }
                    return count
                }
            }
            #expect(answer == 2, "the answer worked out while the key was destroyed was given")
            #expect(trail.recorded.map { "\($0.query) \($0.parameters) \($0.version)" } == ["as-of test p erased true \(end)"])

            // Unchanged state: once, and the step says so.
            let other = DemoDataGenerator.userId(0)
            let quiet = AnswerTrail()
            let once = try await AnswerTrail.$current.withValue(quiet) {
                try await logbook.asOfAnswer("test", user: other, "p", end) { () async throws -> Int in
                    computed.add(1, ordering: .sequentiallyConsistent).newValue
                }
            }
            #expect(once == 3)
            #expect(quiet.recorded.map { "\($0.query) \($0.parameters) \($0.version)" } == ["as-of test p erased false \(end)"])
        }
    }
}
