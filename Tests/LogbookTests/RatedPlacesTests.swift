import DemoData
import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import Testing

/// The rated places read model: each user's rated places best first, a page at a time, with
/// counts per number of stars; answers as of a past position, refusals of bad cursors, and
/// seeded histories of ratings and re-ratings against a ranking computed here from the commands.
@Suite("Rated places")
struct RatedPlacesTests {
    static let now = "2026-11-20T08:00:00+01:00"

    static func setUp(_ logbook: Logbook, users: [String], places: [String]) async throws {
        for user in users {
            try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "UTC")), context: when(Self.now))
        }
        for id in places {
            try await logbook.execute(
                .addPlace(PlaceAdded(placeId: id, name: "Place \(id)", category: .restaurant, subcategory: "x", latitude: 52, longitude: 13)),
                context: when(Self.now))
        }
    }

    @discardableResult
    static func rate(_ logbook: Logbook, _ user: String, _ place: String, _ stars: Int) async throws -> CommandResult {
        try await logbook.execute(Command(user: user, event: .placeRated(PlaceRated(placeId: place, stars: stars))), context: when(Self.now))
    }

    /// Every page of `user`'s rated places, `limit` at a time, as (place, stars).
    static func allPages(_ logbook: Logbook, _ user: String, limit: Int, asOf: AsOf? = nil) async throws -> [[String]] {
        var pages: [[String]] = []
        var cursor: String?
        repeat {
            let page = try await logbook.answer(.ratedPlaces(limit: limit, cursor: cursor), user: user, asOf: asOf)
            #expect(page.places.count <= limit)
            pages.append(page.places.map { "\($0.placeId)=\($0.stars)" })
            cursor = page.nextCursor
        } while cursor != nil && pages.count < 1_000
        return pages
    }

    @Test("best first, then by place id; a later rating moves the place; counts per star; pages; as of a past position; a reset keeps them")
    func ranking() async throws {
        try await withLogbook { logbook, _ in
            try await Self.setUp(logbook, users: ["u1", "u2"], places: ["p1", "p2", "p3", "p4"])
            try await Self.rate(logbook, "u1", "p1", 4)
            try await Self.rate(logbook, "u1", "p2", 5)
            try await Self.rate(logbook, "u1", "p3", 4)
            let before = try await Self.rate(logbook, "u1", "p4", 1)
            try await Self.rate(logbook, "u1", "p1", 5)
            try await logbook.execute(.resetPlaces(user: "u1"), context: when(Self.now))

            let all = try await logbook.answer(.ratedPlaces(), user: "u1")
            #expect(all.places.map(\.placeId) == ["p1", "p2", "p3", "p4"])
            #expect(all.places.map(\.stars) == [5, 5, 4, 1])
            #expect(all.places.first?.name == "Place p1" && all.places.first?.category == .restaurant)
            #expect(all.counts == [1, 0, 0, 1, 2], "one place at 1 star, one at 4, two at 5: the re-rated place counts once")
            #expect(all.nextCursor == nil)

            let first = try await logbook.answer(.ratedPlaces(limit: 2), user: "u1")
            #expect(first.places.map(\.placeId) == ["p1", "p2"] && first.nextCursor == "4:p3")
            let second = try await logbook.answer(.ratedPlaces(limit: 2, cursor: first.nextCursor), user: "u1")
            #expect(second.places.map(\.placeId) == ["p3", "p4"] && second.nextCursor == nil)

            let past = try await logbook.answer(.ratedPlaces(), user: "u1", asOf: .position(Position(rawValue: before.lastPosition)))
            #expect(past.places.map { "\($0.placeId)=\($0.stars)" } == ["p2=5", "p1=4", "p3=4", "p4=1"], "before p1 was rated again")
            #expect(past.counts == [1, 0, 0, 2, 1])

            // A catalog rename changes the cached page; the user's swipes do not need to.
            try await logbook.execute(.record(user: nil, .placeUpdated(PlaceUpdated(placeId: "p1", name: "Renamed"))), context: when(Self.now))
            #expect(try await logbook.answer(.ratedPlaces(), user: "u1").places.first?.name == "Renamed")
            try await Self.rate(logbook, "u1", "p4", 5)
            #expect(try await logbook.answer(.ratedPlaces(limit: 2), user: "u1").places.map(\.placeId) == ["p1", "p2"], "a cached page follows a re-rating")
            #expect(try await logbook.answer(.ratedPlaces(), user: "u1").places.map(\.placeId) == ["p1", "p2", "p4", "p3"])

            let other = try await logbook.answer(.ratedPlaces(), user: "u2")
            #expect(other.places.isEmpty && other.counts == [0, 0, 0, 0, 0], "one user's ratings are theirs alone")

            let verified = try await logbook.verify()
            #expect(verified.contains { $0.projection == .ratings } && verified.filter { !$0.matches }.isEmpty, "\(verified)")
        }
    }

    @Test("refused: a cursor no page handed out names its parameter; a user not registered is not found")
    func refusals() async throws {
        try await withLogbook { logbook, _ in
            try await Self.setUp(logbook, users: ["u1"], places: ["p1"])
            try await Self.rate(logbook, "u1", "p1", 3)
            // The first page is cached first: an empty cursor is still no cursor of a page.
            _ = try await logbook.answer(.ratedPlaces(), user: "u1")
            for cursor in ["", "x", ":p1", "4:", "0:p1", "6:p1", "-1:p1", "+4:p1", "04:p1", "99999999999999999999:p1", "3:" + String(repeating: "a", count: 129)] {
                do {
                    _ = try await logbook.answer(.ratedPlaces(cursor: cursor), user: "u1")
                    Issue.record("cursor \(cursor.debugDescription) was taken")
                } catch let error as LogbookError {
                    #expect(error.code == .invalidArgument && error.field == "cursor", "\(cursor.debugDescription): \(error)")
                }
            }
            do {
                _ = try await logbook.answer(.ratedPlaces(), user: "u9")
                Issue.record("a stranger's ratings were answered")
            } catch let error as LogbookError {
                #expect(error.code == .notFound, "\(error)")
            }
        }
    }

    @Test("seeded histories of ratings, re-ratings and clears: the pages, whatever their size and as of any point, are the ranking of each user's last ratings", arguments: [UInt64(1), 2, 3])
    func seededHistories(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let users = ["u1", "u2", "u3"]
        // Ids that sort by bytes unlike by characters, and one that begins with a combining mark (cursors are cut in bytes).
        let places = (1...25).map { "p\($0)" } + ["P0", "é1", "a-b", "\u{301}x"]
        try await withLogbook { logbook, _ in
            try await Self.setUp(logbook, users: users, places: places)
            var last: [String: [String: Int]] = [:]
            var midway: (position: UInt64, ratings: [String: [String: Int]])?
            for step in 0..<200 {
                let user = users[Int(random.next() % UInt64(users.count))]
                let place = places[Int(random.next() % UInt64(places.count))]
                let result: CommandResult
                if random.next() % 5 == 0 {
                    result = try await logbook.execute(Command(user: user, event: .placeRatingCleared(PlaceRatingCleared(placeId: place))), context: when(Self.now))
                    last[user, default: [:]][place] = nil
                } else {
                    let stars = 1 + Int(random.next() % 5)
                    result = try await Self.rate(logbook, user, place, stars)
                    last[user, default: [:]][place] = stars
                }
                if step == 100 { midway = (result.lastPosition, last) }
                // Cached pages are read between writes and again at the end, so a stale one would show.
                if step % 37 == 0 { for reader in users { _ = try await logbook.answer(.ratedPlaces(limit: 3), user: reader) } }
            }
            func ranking(_ ratings: [String: Int]) -> [String] {
                ratings.sorted { a, b in a.value != b.value ? a.value > b.value : a.key.utf8.lexicographicallyPrecedes(b.key.utf8) }.map { "\($0.key)=\($0.value)" }
            }
            for user in users {
                let ratings = last[user, default: [:]]
                let expected = ranking(ratings)
                for limit in [1, 3, 4, 500] {
                    let pages = try await Self.allPages(logbook, user, limit: limit)
                    #expect(pages.flatMap { $0 } == expected, "\(user), pages of \(limit)")
                }
                let counts = (1...5).map { stars in ratings.values.filter { $0 == stars }.count }
                let firstPage = try await logbook.answer(.ratedPlaces(limit: 3), user: user)
                #expect(firstPage.counts == counts, "\(user)")
                let past = try #require(midway)
                let asOf = try await Self.allPages(logbook, user, limit: 4, asOf: .position(Position(rawValue: past.position)))
                #expect(asOf.flatMap { $0 } == ranking(past.ratings[user, default: [:]]), "\(user), as of step 100")
            }
            let verified = try await logbook.verify()
            #expect(!verified.isEmpty && verified.filter { !$0.matches }.isEmpty, "\(verified)")
        }
    }
}
