import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookStorage
import LogbookTestSupport
import Testing

/// Streaks and the goal collectibles are folded over the blocks of days a user has data in, not
/// over every day between the first and the last, and blocks are kept between queries under the
/// stamps of their records: the answers equal the day-by-day definition, before and after every
/// kind of change, and a user whose samples are dated nine thousand years apart costs two blocks,
/// not 3.3 million days.
@Suite("Goal streaks and collectibles over the days with data")
struct GoalRunsTests {
    static let now = "2026-11-20T08:00:00Z"

    /// The first and last days with day or step records, read from the stats tables themselves.
    static func dataRange(_ projections: inout ReadModelSet, user: String, _ txn: any TableReader) throws -> ClosedRange<CivilDate>? {
        let prefix = keyPrefix { $0.keyString(user) }
        let days = try projections.stats.days.records(withPrefix: prefix, txn).map(\.0.day) + projections.stats.steps.records(withPrefix: prefix, txn).map(\.0.day)
        guard let first = days.min(), let last = days.max() else { return nil }
        return CivilDate(daysSinceEpoch: Int(first))...CivilDate(daysSinceEpoch: Int(last))
    }

    /// Streaks by the definition: every day from the first with data through `end`, in order.
    static func streaksDayByDay(_ projections: inout ReadModelSet, user: String, asOf: CivilDate?, _ txn: any TableReader) throws -> Streaks {
        let profile = try #require(try projections.profiles.profile(user, txn))
        guard let range = try dataRange(&projections, user: user, txn) else { return Streaks(asOf: asOf, current: 0, longest: 0) }
        let end = asOf ?? range.upperBound
        guard end >= range.lowerBound else { return Streaks(asOf: end, current: 0, longest: 0) }
        var current = 0
        var longest = 0
        for day in try projections.goalDays(user: user, profile: profile, from: range.lowerBound, to: end, txn) {
            current = day.met ? current + 1 : 0
            longest = max(longest, current)
        }
        return Streaks(asOf: end, current: current, longest: longest)
    }

    @Test("seeded histories with gaps, goals and defaults: streaks as of every kind of day, goal weeks, the best day and the longest run equal the day-by-day definition, with blocks kept or not, after every kind of change", arguments: [UInt64(1), 2, 3, 4, 5])
    func equalsDayByDay(seed: UInt64) async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "UTC")), context: when(Self.now))
            var random = SplitMix64(seed: seed)
            let first = day("2026-01-01")
            var samples: [StepSample] = []
            var dayIndex = 0
            // Runs of 1–12 days with data, gaps of 1–20 days between them, over about 300 days.
            while dayIndex < 300 {
                for _ in 0..<Int(random.next() % 12 + 1) {
                    let date = first.adding(days: dayIndex)
                    let start = at("\(date)T10:00:00Z")
                    let count = Int(random.next() % 14_000)
                    samples.append(StepSample(start: start, end: Timestamp(microsecondsSinceEpoch: start.instant + 3_600_000_000), count: count, source: "phone"))
                    dayIndex += 1
                }
                dayIndex += Int(random.next() % 20 + 1)
            }
            try await logbook.execute(.recordSteps(user: "u", StepsRecorded(samples: samples)), context: when(Self.now))
            try await logbook.execute(.setDefaultGoal(user: "u", GoalDefaultSet(steps: 6_000)), context: when(Self.now))
            for _ in 0..<10 {
                let date = first.adding(days: Int(random.next() % 300))
                try await logbook.execute(.setGoal(user: "u", GoalSet(date: date, steps: Int(random.next() % 12_000) + 1)), context: when(Self.now))
            }
            var asOfDays: [CivilDate?] = [nil, first.adding(days: -3), first.adding(days: 400)]
            for _ in 0..<20 { asOfDays.append(first.adding(days: Int(random.next() % 320))) }
            // Without kept blocks, then with them twice (worked out, then found), then after each
            // kind of change the kept blocks must not outlive: steps on a day, a goal for a day, a
            // new default, another preferred step source.
            let kept = GoalDayBlocks.kept()
            try Self.expectDefinition(logbook, asOfDays, kept: nil)
            try Self.expectDefinition(logbook, asOfDays, kept: nil, unstamped: true)
            try Self.expectDefinition(logbook, asOfDays, kept: kept)
            #expect(kept.count > 0)
            try Self.expectDefinition(logbook, asOfDays, kept: kept)
            let changed = first.adding(days: Int(random.next() % 300))
            let start = at("\(changed)T18:00:00Z")
            try await logbook.execute(.recordSteps(user: "u", StepsRecorded(samples: [
                StepSample(start: start, end: Timestamp(microsecondsSinceEpoch: start.instant + 60_000_000), count: 9_000, source: "phone"),
            ])), context: when(Self.now))
            try Self.expectDefinition(logbook, asOfDays, kept: kept)
            try await logbook.execute(.setGoal(user: "u", GoalSet(date: first.adding(days: Int(random.next() % 300)), steps: 1)), context: when(Self.now))
            try Self.expectDefinition(logbook, asOfDays, kept: kept)
            try await logbook.execute(.setDefaultGoal(user: "u", GoalDefaultSet(steps: 2_000)), context: when("2026-03-01T08:00:00Z"))
            try Self.expectDefinition(logbook, asOfDays, kept: kept)
            for (offset, source) in ["watch", "phone"].enumerated() {
                let sample = at("\(first.adding(days: offset))T20:00:00Z")
                try await logbook.execute(.recordSteps(user: "u", StepsRecorded(samples: [
                    StepSample(start: sample, end: Timestamp(microsecondsSinceEpoch: sample.instant + 60_000_000), count: 15_000, source: source),
                ])), context: when(Self.now))
            }
            try await logbook.execute(.updateProfile(user: "u", UserProfileUpdated(preferredStepSource: .set("watch"))), context: when(Self.now))
            try Self.expectDefinition(logbook, asOfDays, kept: kept)
            try Self.expectDefinition(logbook, asOfDays, kept: kept, unstamped: true)
        }
    }

    /// Streaks as of each of `asOfDays`, the goal week of each, the best day and the longest run
    /// of met days, as the queries answer them (with `kept` blocks, if given) and by the definition.
    /// `unstamped`: as over tables an older code version built, which keep no block stamps.
    static func expectDefinition(_ logbook: Logbook, _ asOfDays: [CivilDate?], kept: GoalDayBlocks.Kept?, unstamped: Bool = false) throws {
        try logbook.readModels.environment.read { txn in
            let reader = LMDBTableReader(txn)
            var projections = try logbook.readModels.projectionSet(txn)
            projections.goalDayBlocks = kept?.pinned()
            projections.olderTables = unstamped ? [.stats] : []
            let profile = try #require(try projections.profiles.profile("u", reader))
            for asOf in asOfDays {
                let runs = try projections.streaks(user: "u", profile: profile, asOf: asOf, reader)
                #expect(runs == (try Self.streaksDayByDay(&projections, user: "u", asOf: asOf, reader)), "as of \(asOf.map(String.init(describing:)) ?? "the last day")")
            }
            // The best day and the longest run of met days, by the definition.
            let range = try #require(try Self.dataRange(&projections, user: "u", reader))
            for asOf in asOfDays.compactMap({ $0 }) {
                // A week's streaks are as of its last day, or the last day with data if earlier.
                let week = try projections.goalWeek(user: "u", profile: profile, containing: asOf, reader)
                let last = min(week.weekStart.adding(days: 6), range.upperBound)
                #expect(week.streaks == (try Self.streaksDayByDay(&projections, user: "u", asOf: last, reader)), "week of \(asOf)")
            }
            let days = try projections.goalDays(user: "u", profile: profile, from: range.lowerBound, to: range.upperBound, reader)
            var run = 0
            var longest = 0
            for day in days {
                run = day.met ? run + 1 : 0
                longest = max(longest, run)
            }
            let progress = try projections.collectibleProgress(user: "u", profile: profile, reader)
            let streak = try #require(progress.first { $0.id == Milestone.goalStreak7.id })
            let tenK = try #require(progress.first { $0.id == Milestone.steps10kDay.id })
            // Progress is the measure, capped at the target (the target once earned).
            #expect(streak.progress == min(longest, streak.target))
            #expect(tenK.progress == min(days.map(\.steps).max() ?? 0, tenK.target))
            #expect(tenK.date == days.first { $0.steps >= 10_000 }?.date)
            var streakDay: CivilDate?
            run = 0
            for day in days where streakDay == nil {
                run = day.met ? run + 1 : 0
                if run == 7 { streakDay = day.date }
            }
            #expect(streak.date == streakDay)
        }
    }

    @Test("samples dated in the years 1 and 9999: streaks, the goal week and collectibles answer from those two days")
    func farApartDates() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "UTC")), context: when(Self.now))
            for time in ["0001-01-02T10:00:00Z", "9999-12-30T10:00:00Z"] {
                let start = at(time)
                try await logbook.execute(.recordSteps(user: "u", StepsRecorded(samples: [
                    StepSample(start: start, end: Timestamp(microsecondsSinceEpoch: start.instant + 60_000_000), count: 12_000, source: "phone"),
                ])), context: when(Self.now))
            }
            try logbook.readModels.environment.read { txn in
                let reader = LMDBTableReader(txn)
                var projections = try logbook.readModels.projectionSet(txn)
                let profile = try #require(try projections.profiles.profile("u", reader))
                #expect(try projections.goalBlocks(user: "u", profile: profile, reader).count == 2)
                #expect(try projections.streaks(user: "u", profile: profile, asOf: nil, reader) == Streaks(asOf: day("9999-12-30"), current: 1, longest: 1))
                #expect(try projections.streaks(user: "u", profile: profile, asOf: day("5000-01-01"), reader) == Streaks(asOf: day("5000-01-01"), current: 0, longest: 1))
                let progress = try projections.collectibleProgress(user: "u", profile: profile, reader)
                #expect(progress.first { $0.id == Milestone.steps10kDay.id }?.date == day("0001-01-02"))
                #expect(progress.first { $0.id == Milestone.goalStreak7.id }?.progress == 1)
                let week = try projections.goalWeek(user: "u", profile: profile, containing: day("9999-12-30"), reader)
                #expect(week.streaks.longest == 1 && week.daysMet == 1)
            }
        }
    }
}
