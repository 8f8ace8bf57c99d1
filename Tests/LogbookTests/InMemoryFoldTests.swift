import DemoData
import EventLog
@_spi(Benchmarks) @testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import Testing

/// The domain runs without a store: its folds and queries see tables only through
/// `TableReader`, so a history folded in memory (no transaction at all) answers every query as
/// the read models Logbook keeps in LMDB do.
@Suite("The domain without storage")
struct InMemoryFoldTests {
    @Test("a generated history folded in memory answers every query as the LMDB read models do", arguments: [UInt64(3), 11])
    func inMemoryFoldEqualsStore(seed: UInt64) async throws {
        try await withGeneratedLogbook(seed: seed, users: 3, weeks: 4) { logbook in
            logbook.setQueryCaching(false)
            var memory = ReadModelSet.inMemory()
            var position = Position.start
            var folded = 0
            while true {
                let page = try await logbook.log.readAll(from: position, direction: .forward, limit: 1024, filter: EventFilter())
                for event in page.events {
                    guard let fold = try FoldEvent.decode(event.envelope, payload: event.payload.span, logbook.payloads) else { continue }
                    try memory.apply(fold, nil)
                    folded += 1
                }
                guard let last = page.scannedThrough, !page.reachedEnd else { break }
                position = last.next
            }
            #expect(folded > 500, "the history should be large enough to say something (\(folded) events)")

            for index in 0..<3 {
                let user = DemoDataGenerator.userId(index)
                let profile = try await logbook.profile(user: user)
                #expect(try memory.requireProfile(user, nil) == profile)
                let activities = try await logbook.activities(user: user, limit: 500)
                #expect(try memory.activityPage(user: user, filter: .init(), limit: 500, cursor: nil, nil) == activities)
                #expect(activities.activities.count > 0)
                for record in activities.activities.prefix(5) {
                    let stored = try await logbook.activityTrack(user: user, workoutId: record.workoutId)
                    let inMemory = try memory.activityWithTrack(user: user, workoutId: record.workoutId, nil)
                    #expect(inMemory.activity == stored.activity)
                    #expect(inMemory.track == stored.track)
                }
                let days = Set(activities.activities.map(\.date))
                for date in days.sorted().prefix(8) {
                    #expect(try memory.weeklyStats(user: user, containing: date, nil) == (try await logbook.weeklyStats(user: user, containing: date)))
                    #expect(try memory.goalWeek(user: user, containing: date, nil) == (try await logbook.goalWeek(user: user, containing: date)))
                    #expect(try memory.calendar(user: user, year: date.year, month: date.month, nil)
                        == (try await logbook.calendar(user: user, year: date.year, month: date.month)))
                }
                if let last = days.max() {
                    #expect(try memory.insights(user: user, days: 30, today: last, nil) == (try await logbook.insights(user: user, days: 30, today: last)))
                    #expect(try memory.streaks(user: user, asOf: last, nil) == (try await logbook.streaks(user: user, asOfDay: last)))
                    for period in SummaryPeriod.allCases {
                        #expect(try memory.statsSummary(user: user, period: period, from: nil, to: last, type: nil, nil)
                            == (try await logbook.statsSummary(user: user, period: period, to: last)))
                    }
                }
                #expect(try memory.collectibles(user: user, nil) == (try await logbook.collectibles(user: user)))
                #expect(try memory.collectibleProgress(user: user, profile: memory.requireProfile(user, nil), nil) == (try await logbook.collectibleProgress(user: user)))
                #expect(try memory.personalRecords(user: user, nil) == (try await logbook.personalRecords(user: user)))
                #expect(try memory.placesDeck(user: user, limit: 500, nil) == (try await logbook.placesDeck(user: user, limit: 500)))
                for category in PlaceCategory.allCases {
                    #expect(try memory.savedPlaces(user: user, category: category, nil) == (try await logbook.savedPlaces(user: user, category: category)))
                    #expect(try memory.visitedPlaces(user: user, category: category, nil) == (try await logbook.visitedPlaces(user: user, category: category)))
                }
            }
        }
    }
}
