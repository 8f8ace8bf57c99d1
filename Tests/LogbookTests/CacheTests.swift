import DemoData
import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

@Suite("Query caches")
struct CacheTests {
    static let now = "2026-11-20T08:00:00+01:00"

    func status(_ logbook: Logbook, _ name: String) throws -> CacheStatus {
        try #require(logbook.cacheStatus().first { $0.name == name })
    }

    func register(_ logbook: Logbook, _ users: [String]) async throws {
        for user in users {
            try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "UTC")), context: when(Self.now))
        }
    }

    func steps(_ logbook: Logbook, _ user: String, _ count: Int, at time: String = "2026-11-20T09:00:00Z") async throws {
        let start = at(time)
        try await logbook.execute(.recordSteps(user: user, StepsRecorded(samples: [
            StepSample(start: start, end: Timestamp(microsecondsSinceEpoch: start.instant + 60_000_000), count: count, source: "phone"),
        ])), context: when(Self.now))
    }

    @Test("invalidation is exact: an append for A leaves B's entries and A's unrelated ones")
    func exactInvalidation() async throws {
        try await withLogbook { logbook, _ in
            try await register(logbook, ["a", "b"])
            let week = day("2026-11-20")
            for user in ["a", "b"] {
                _ = try await logbook.weeklyStats(user: user, containing: week)
                _ = try await logbook.savedPlaces(user: user, category: .activity)
            }
            #expect(try status(logbook, "stats").entries == 2)
            #expect(try status(logbook, "places").entries == 2)
            try await steps(logbook, "a", 500)
            let stats = try status(logbook, "stats")
            #expect(stats.entries == 1, "only a's stats entry goes")
            let head = try await logbook.log.headPosition().rawValue
            #expect(stats.lastInvalidatingPosition == head)
            #expect(try status(logbook, "places").entries == 2, "steps do not touch places")
            let hitsBefore = try status(logbook, "stats").hits
            _ = try await logbook.weeklyStats(user: "b", containing: week)
            #expect(try status(logbook, "stats").hits == hitsBefore + 1)
            // A catalog change invalidates places for everyone.
            try await logbook.execute(.addPlace(PlaceAdded(placeId: "p", name: "P", category: .activity, subcategory: "gym", latitude: 0, longitude: 0)), context: when(Self.now))
            #expect(try status(logbook, "places").entries == 0)
        }
    }

    @Test("no cache answers older than the caller's own acknowledged write")
    func readYourWrites() async throws {
        try await withLogbook { logbook, _ in
            try await register(logbook, ["a"])
            let week = day("2026-11-20")
            // Readers keep filling the cache while the writer appends; after each append the writer's
            // own read must see it.
            let readers = Task {
                while !Task.isCancelled { _ = try? await logbook.weeklyStats(user: "a", containing: week) }
            }
            var expected = 0
            for minute in 0..<60 {
                try await steps(logbook, "a", 10, at: "2026-11-20T10:\(minute < 10 ? "0" : "")\(minute):00Z")
                expected += 10
                #expect(try await logbook.weeklyStats(user: "a", containing: week).steps == expected)
            }
            readers.cancel()
        }
    }

    @Test("identical concurrent queries share one computation")
    func singleFlight() async throws {
        try await withLogbook { logbook, _ in
            try await register(logbook, ["a"])
            var generator = DemoDataGenerator(seed: 1, users: 1)
            generator.weeks = 1
            _ = try await generator.run(on: logbook)
            let user = DemoDataGenerator.userId(0)
            let before = try status(logbook, "goals").computed
            try await withThrowingTaskGroup(of: GoalWeek.self) { group in
                for _ in 0..<32 { group.addTask { try await logbook.goalWeek(user: user, containing: day("2026-08-26")) } }
                var answers: [GoalWeek] = []
                for try await answer in group { answers.append(answer) }
                #expect(Set(answers.map(\.steps)).count == 1)
            }
            let computed = try status(logbook, "goals").computed - before
            #expect(computed == 1, "32 identical queries computed \(computed) times")
        }
    }

    @Test("caches are bounded by entries")
    func bounded() async throws {
        try await withLogbook({ $0.cacheEntries = 5 }) { logbook, _ in
            try await register(logbook, ["a"])
            for offset in 0..<20 { _ = try await logbook.weeklyStats(user: "a", containing: day("2026-11-20").adding(days: 7 * offset)) }
            #expect(try status(logbook, "stats").entries <= 5)
        }
    }
}
