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

    @Test("an erasure builds the read models beside the live ones: other users' commands and queries answer meanwhile, without waiting, and the erased user's are refused")
    func workDuringErasure() async throws {
        // Commands may not wait for a rebuild at all here: one judged during a rebuild in place
        // would be refused as not caught up.
        try await withGeneratedLogbook(seed: 17, users: 3, weeks: 3, configure: { $0.rebuildChunkSize = 16; $0.readYourWritesTimeout = .milliseconds(1) }) {
            logbook in
            let victim = DemoDataGenerator.userId(0)
            let other = DemoDataGenerator.userId(1)
            let othersProfile = try await logbook.profile(user: other)
            let finished = Flag()
            let erasing = Task {
                defer { finished.set() }
                return try await logbook.erase(user: victim)
            }
            let start = Int64(Date().timeIntervalSince1970 * 1_000_000) - 7_200_000_000
            var during = 0
            var step: Int64 = 0
            while !finished.isSet, step < 100_000 {
                // Key destroyed, the build beside the live tables running, before and after.
                let building = !logbook.control.snapshot.upgrading.isEmpty
                step += 1
                let sampleStart = Timestamp(microsecondsSinceEpoch: start + step * 60_000_000)
                let result = try await logbook.execute(.recordSteps(user: other, StepsRecorded(samples: [
                    StepSample(start: sampleStart, end: Timestamp(microsecondsSinceEpoch: sampleStart.instant + 60_000_000), count: 10, source: "phone"),
                ])))
                #expect(!result.alreadyApplied)
                #expect(try await logbook.profile(user: other) == othersProfile)
                if building {
                    await #expect(throws: LogbookError.self, "the erased user's profile answered from the live tables") {
                        _ = try await logbook.profile(user: victim)
                    }
                    if during == 0 {
                        // The live profiles still list the erased user: the week closer passes them by.
                        let report = try await logbook.closeEndedWeeks()
                        #expect(!report.failed.contains { $0.user == victim }, "\(report.failed)")
                        #expect(!report.closed.contains { $0.stream.hasSuffix(victim) }, "\(report.closed)")
                    }
                    // Digests of live tables that still hold the erased user are not comparable.
                    let digests = try logbook.digests()
                    if logbook.control.snapshot.erasing { #expect(digests.allSatisfy { $0.rebuilding }, "verify would compare tables holding the erased user") }
                    if !logbook.control.snapshot.upgrading.isEmpty { during += 1 }
                }
            }
            #expect(during > 0, "no command ran while the erasure's build ran")
            _ = try await erasing.value
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
