import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookStorage
import LogbookTestSupport
import Synchronization
import Testing

/// What a read costs, counted in records read from the store: a deck search reads about what it
/// answers, however large the catalog; an activities page and a month's calendar read about their
/// own span of the user's workouts.
@Suite("Bounded reads: a request reads what it answers, not the catalog or the whole history")
struct BoundedReadTests {
    /// A table reader that counts the records it hands out.
    final class CountingReader: TableReader, @unchecked Sendable {
        let inner: any TableReader
        let records = Atomic<Int>(0)
        init(_ inner: any TableReader) { self.inner = inner }

        func get<R>(_ table: StoredTable, key: Span<UInt8>, _ body: (Span<UInt8>) throws -> R) throws -> R? {
            records.add(1, ordering: .relaxed)
            return try inner.get(table, key: key, body)
        }

        func scan(_ table: StoredTable, from start: Span<UInt8>, _ body: (Span<UInt8>, Span<UInt8>) throws -> Bool) throws {
            try inner.scan(table, from: start) { key, value in
                records.add(1, ordering: .relaxed)
                return try body(key, value)
            }
        }
    }

    /// Records `body` reads from the live read models.
    static func recordsRead(_ logbook: Logbook, _ body: (inout ReadModelSet, any TableReader) throws -> Void) throws -> Int {
        try logbook.readModels.environment.read { txn in
            var projections = try logbook.readModels.projectionSet(txn)
            let reader = CountingReader(LMDBTableReader(txn))
            try body(&projections, reader)
            return reader.records.load(ordering: .relaxed)
        }
    }

    @Test("a deck page, a text search, a one-letter search and a search near a point read tens of records of a 3,000-place catalog")
    func deck() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when("2026-11-20T08:00:00Z"))
            var entries: [PlaceImportEntry] = []
            for number in 1...3_000 {
                let name = number % 1_000 == 0 ? "Zebra Lounge \(number)" : "Place \(number)"
                entries.append(PlaceImportEntry(place: PlaceAdded(
                    placeId: "p\(number)", name: name, category: .restaurant, subcategory: "x",
                    latitude: 40 + Double(number % 100) / 10, longitude: Double(number / 100) / 10), origin: "\(number)"))
            }
            _ = try await logbook.importPlaces(entries, context: when("2026-11-20T08:00:00Z"))
            // Build the index once (its one read of the whole catalog), then count.
            _ = try await logbook.placesDeck(user: "u1", search: PlaceSearch(text: "zebra"))
            let index = logbook.catalogIndex.pinned()
            var zebras: [PlaceView] = []
            let searched = try Self.recordsRead(logbook) { projections, txn in
                zebras = try projections.placesDeck(user: "u1", limit: 20, search: PlaceSearch(text: "ZEBRA"), index: index, txn)
            }
            #expect(zebras.map(\.place.placeId) == ["p1000", "p2000", "p3000"])
            #expect(searched < 40, "a search finding 3 places read \(searched) records")
            // One letter only the three zebras hold: its posting list, not the catalog in order.
            var letter: [PlaceView] = []
            let lettered = try Self.recordsRead(logbook) { projections, txn in
                letter = try projections.placesDeck(user: "u1", limit: 20, search: PlaceSearch(text: "z"), index: index, txn)
            }
            #expect(letter.map(\.place.placeId) == ["p1000", "p2000", "p3000"])
            #expect(lettered < 40, "a one-letter search finding 3 places read \(lettered) records")
            var near: [PlaceView] = []
            let walked = try Self.recordsRead(logbook) { projections, txn in
                near = try projections.placesDeck(
                    user: "u1", limit: 5, search: PlaceSearch(near: (44.0, 1.0), radiusMeters: PlaceSearch.maxRadiusMeters), index: index, txn)
            }
            #expect(near.count == 5 && near.first?.distanceMeters == 0)
            #expect(walked < 60, "the 5 nearest places read \(walked) records")
            var page: [PlaceView] = []
            let paged = try Self.recordsRead(logbook) { projections, txn in
                page = try projections.placesDeck(user: "u1", limit: 10, index: index, txn)
            }
            #expect(page.count == 10)
            #expect(paged < 40, "a page of 10 read \(paged) records")
        }
    }

    @Test("an activities page and a month's calendar read their own span of 600 workouts")
    func activities() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when("2026-11-20T08:00:00Z"))
            let first = CivilDate(year: 2025, month: 1, day: 1)!
            for day in 0..<600 {
                let date = first.adding(days: day)
                let start = at("\(date)T07:00:00Z")
                _ = try await logbook.execute(.importWorkout(user: "u1", WorkoutImported(
                    workoutId: "w\(day)", activityType: .run, startedAt: start, endedAt: at("\(date)T07:30:00Z"), distanceMeters: 5_000,
                    movingSeconds: 1_800, source: WorkoutSource(kind: .garmin, sourceId: "g\(day)"))), context: when("2026-11-20T08:00:00Z"))
            }
            var found = 0
            let page = try Self.recordsRead(logbook) { projections, txn in
                found = try projections.activityPage(user: "u1", filter: ActivityFilter(), limit: 10, cursor: nil, txn).activities.count
            }
            #expect(found == 10)
            #expect(page < 120, "a page of 10 read \(page) records")
            let month = try Self.recordsRead(logbook) { projections, txn in
                found = try projections.calendar(user: "u1", year: 2025, month: 6, txn).activeDays.count
            }
            #expect(found == 30)
            #expect(month < 250, "a month of 30 workouts read \(month) records")
        }
    }
}
