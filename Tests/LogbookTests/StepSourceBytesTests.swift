import BinaryCoding
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import LogbookTesting
import Testing

/// Step sources key the day's steps, and the stored keys compare them as bytes. Swift's `String`
/// compares by canonical equivalence, so a source's composed and decomposed spellings must be two
/// sources everywhere: commands accept sources only in NFC, and read models fold the spellings
/// an older log may hold as the different sources their stored keys say they are, whatever a
/// cache holds.
@Suite("Step sources compared as bytes")
struct StepSourceBytesTests {
    static let composed = "Montre Caf\u{e9}"
    static let decomposed = "Montre Cafe\u{301}"
    static let now = "2026-11-20T12:00:00Z"

    func minute(_ start: String, _ count: Int, _ source: String) -> StepSample {
        let begin = at(start)
        return StepSample(start: begin, end: Timestamp(microsecondsSinceEpoch: begin.instant + 60_000_000, utcOffsetSeconds: begin.utcOffsetSeconds),
                          count: count, source: source)
    }

    @Test("the keys of steps records tell the two spellings apart, equal, hash and order as their bytes do")
    func keysCompareBytes() {
        #expect(Self.composed == Self.decomposed)
        let dayKeys = [UserDaySourceKey("u", 7, Self.composed), UserDaySourceKey("u", 7, Self.decomposed)]
        let sampleKeys = [SampleDayKey("u", Self.composed, 7), SampleDayKey("u", Self.decomposed, 7)]
        #expect(dayKeys[0] != dayKeys[1] && Set(dayKeys).count == 2)
        #expect(sampleKeys[0] != sampleKeys[1] && Set(sampleKeys).count == 2)
        #expect(dayKeys[0] == UserDaySourceKey("u", 7, Self.composed) && sampleKeys[1] == SampleDayKey("u", Self.decomposed, 7))
        func bytes(_ key: some TableKey) -> [UInt8] {
            var writer = ByteWriter()
            key.encode(into: &writer)
            return writer.bytes
        }
        #expect((dayKeys[0] < dayKeys[1]) == bytes(dayKeys[0]).lexicographicallyPrecedes(bytes(dayKeys[1])))
        #expect((dayKeys[1] < dayKeys[0]) == bytes(dayKeys[1]).lexicographicallyPrecedes(bytes(dayKeys[0])))
        #expect((sampleKeys[0] < sampleKeys[1]) == bytes(sampleKeys[0]).lexicographicallyPrecedes(bytes(sampleKeys[1])))
        #expect((sampleKeys[1] < sampleKeys[0]) == bytes(sampleKeys[1]).lexicographicallyPrecedes(bytes(sampleKeys[0])))
    }

    @Test("a sample's source or a preferred source not in NFC is refused by name, writing nothing")
    func commandsRefuse() async throws {
        try await withLogbook { logbook, _ in
            _ = try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "Ana", timeZone: "Europe/Paris")), context: when(Self.now))
            let head = try await logbook.log.headPosition()
            let samples = [minute("2026-11-19T09:00:00Z", 100, Self.composed), minute("2026-11-19T09:01:00Z", 50, Self.decomposed)]
            await #expect { _ = try await logbook.execute(.recordSteps(user: "u", StepsRecorded(samples: samples)), context: when(Self.now)) } throws: { error in
                guard let error = error as? LogbookError, error.code == .invalidArgument else { return false }
                return error.field == "samples[1].source" && error.description.contains("NFC")
            }
            await #expect {
                _ = try await logbook.execute(.updateProfile(user: "u", UserProfileUpdated(preferredStepSource: .set(Self.decomposed))), context: when(Self.now))
            } throws: { error in
                guard let error = error as? LogbookError, error.code == .invalidArgument else { return false }
                return error.field == "preferredStepSource" && error.description.contains("NFC")
            }
            #expect(try await logbook.log.headPosition() == head)
            _ = try await logbook.execute(.recordSteps(user: "u", StepsRecorded(samples: [samples[0]])), context: when(Self.now))
        }
    }

    @Test("an older log's decomposed twin of a source counts as another source, live and rebuilt alike")
    func olderLogsFoldAsBytes() async throws {
        try await withLogbook { logbook, _ in
            _ = try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "Ana", timeZone: "Europe/Paris")), context: when(Self.now))
            _ = try await logbook.execute(.updateProfile(user: "u", UserProfileUpdated(preferredStepSource: .set(Self.composed))), context: when(Self.now))
            // What a build before the rule accepted: one event with both spellings (the second's
            // samples folded as a run of their own), then the decomposed one alone, appended past the rules.
            let batches: [[StepSample]] = [
                [minute("2026-11-19T09:00:00Z", 100, Self.composed), minute("2026-11-19T09:01:00Z", 30, Self.decomposed)],
                [minute("2026-11-19T10:00:00Z", 200, Self.composed)],
                [minute("2026-11-19T11:00:00Z", 70, Self.decomposed)],
            ]
            var next: UInt64 = try await logbook.log.streamVersion("steps-u").map { $0 + 1 } ?? 0
            var events: [WireEvent] = []
            for samples in batches {
                events.append(WireEvent(
                    position: nil, stream: "steps-u", streamVersion: next, eventId: UUID(), subject: "u",
                    occurredAt: at(Self.now), recordedAt: at(Self.now), event: .stepsRecorded(StepsRecorded(samples: samples))))
                next += 1
            }
            let prepared = try logbook.prepareRestore(events, sealing: true)
            var written: UInt64 = 0
            for request in prepared.requests {
                let results = try await logbook.log.append(batch: [request])
                written = try #require(try results.first?.get().lastPosition).rawValue
            }
            try await logbook.host.waitUntilFolded(written)
            // The composed source's 300 steps only, not the 400 of both spellings.
            let day = try await logbook.periodStats(user: "u", from: day("2026-11-19"), to: day("2026-11-19"))
            #expect(day.days.map(\.steps) == [300])
            let live = try logbook.digests().map { "\($0.projection.rawValue) \($0.sha256)" }
            #expect(try await logbook.rebuild().map { "\($0.projection.rawValue) \($0.sha256)" } == live)
        }
    }

    @Test("goal days kept between queries follow a switch between the two spellings of the preferred source")
    func keptGoalDaysFollowTheSourceBytes() async throws {
        try await withLogbook { logbook, _ in
            _ = try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "Ana", timeZone: "Europe/Paris")), context: when(Self.now))
            // A default applies from the day it is set.
            _ = try await logbook.execute(.setDefaultGoal(user: "u", GoalDefaultSet(steps: 100)), context: when("2026-11-10T08:00:00Z"))
            // An older log: both spellings counted on 19 Nov, and a decomposed preference, appended past the rules.
            let next: UInt64 = try await logbook.log.streamVersion("steps-u").map { $0 + 1 } ?? 0
            let userNext: UInt64 = try await logbook.log.streamVersion("user-u").map { $0 + 1 } ?? 0
            let samples = [minute("2026-11-19T09:00:00Z", 300, Self.composed), minute("2026-11-19T10:00:00Z", 70, Self.decomposed)]
            let events = [
                WireEvent(position: nil, stream: "steps-u", streamVersion: next, eventId: UUID(), subject: "u", occurredAt: at(Self.now),
                          recordedAt: at(Self.now), event: .stepsRecorded(StepsRecorded(samples: samples))),
                WireEvent(position: nil, stream: "user-u", streamVersion: userNext, eventId: UUID(), subject: "u", occurredAt: at(Self.now),
                          recordedAt: at(Self.now), event: .userProfileUpdated(UserProfileUpdated(preferredStepSource: .set(Self.decomposed)))),
            ]
            var written: UInt64 = 0
            for request in try logbook.prepareRestore(events, sealing: true).requests {
                written = try #require(try await logbook.log.append(batch: [request]).first?.get().lastPosition).rawValue
            }
            try await logbook.host.waitUntilFolded(written)
            // 70 steps: under the goal of 100.
            #expect(try await logbook.goalWeek(user: "u", containing: day("2026-11-19")).streaks.longest == 0)
            _ = try await logbook.execute(.updateProfile(user: "u", UserProfileUpdated(preferredStepSource: .set(Self.composed))), context: when(Self.now))
            // 300 steps: met, though no stamp of the kept days moved.
            #expect(try await logbook.goalWeek(user: "u", containing: day("2026-11-19")).streaks.longest == 1)
        }
    }
}
