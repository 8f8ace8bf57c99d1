import EventLog
import Foundation
import Logbook
import LogbookInput
import LogbookTestSupport
import LogbookTesting
import Testing

/// A user's rating of a place (`place.rated`): decided, folded into the places the user sees,
/// kept through a reset, described in the timeline, and rebuilt to the same read models.
@Suite("Place ratings")
struct PlaceRatingTests {
    static let now = "2026-11-20T08:00:00+01:00"

    static func rate(_ place: String, _ stars: Int, user: String = "u1") -> Command {
        Command(user: user, event: .placeRated(PlaceRated(placeId: place, stars: stars)))
    }

    static func refusal(_ body: () async throws -> Void) async -> LogbookError? {
        do {
            try await body()
            return nil
        } catch let error as LogbookError {
            return error
        } catch {
            Issue.record("not a LogbookError: \(error)")
            return nil
        }
    }

    @Test("a rating shows on the place, a later one replaces it, a reset keeps it, the timeline says it, a rebuild agrees")
    func ratings() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(Self.now))
            try await logbook.execute(.registerUser(user: "u2", UserRegistered(displayName: "Bo", timeZone: "UTC")), context: when(Self.now))
            for id in ["p1", "p2"] {
                try await logbook.execute(
                    .addPlace(PlaceAdded(placeId: id, name: "Place \(id)", category: .restaurant, subcategory: "x", latitude: 52, longitude: 13)),
                    context: when(Self.now))
            }
            #expect(try await logbook.place(user: "u1", placeId: "p1").rating == nil)
            try await logbook.execute(Self.rate("p1", 4), context: when(Self.now))
            #expect(try await logbook.place(user: "u1", placeId: "p1").rating == 4)
            #expect(try await logbook.place(user: "u2", placeId: "p1").rating == nil, "one user's rating is theirs alone")
            try await logbook.execute(.swipePlace(user: "u1", PlaceSwiped(placeId: "p1", direction: .right)), context: when(Self.now))
            try await logbook.execute(Self.rate("p1", 2), context: when(Self.now))
            #expect(try await logbook.savedPlaces(user: "u1", category: .restaurant).map(\.rating) == [2], "the later rating replaces the first")
            try await logbook.execute(.resetPlaces(user: "u1"), context: when(Self.now))
            let deck = try await logbook.placesDeck(user: "u1", limit: 10)
            #expect(deck.map(\.place.placeId) == ["p1", "p2"])
            #expect(deck.map(\.rating) == [2, nil], "a reset puts the place back in the deck and keeps its rating")

            let lines = try await logbook.timeline(user: "u1").entries.filter { $0.type == "place.rated" }.map(\.description)
            #expect(lines.sorted() == ["Rated place p1: 2 of 5", "Rated place p1: 4 of 5"])

            let verified = try await logbook.verify()
            #expect(!verified.isEmpty && verified.allSatisfy(\.matches), "\(verified.filter { !$0.matches })")
        }
    }

    @Test("refused, writing nothing: an unknown place, a user not registered, stars outside 1 to 5; a body takes its place from the path")
    func refusals() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when(Self.now))
            try await logbook.execute(
                .addPlace(PlaceAdded(placeId: "p1", name: "Place", category: .restaurant, subcategory: "x", latitude: 52, longitude: 13)),
                context: when(Self.now))
            let head = try await logbook.log.headPosition()
            let unknown = await Self.refusal { try await logbook.execute(Self.rate("nowhere", 3), context: when(Self.now)) }
            #expect(unknown?.rule == .unknownPlace, "\(String(describing: unknown))")
            let stranger = await Self.refusal { try await logbook.execute(Self.rate("p1", 3, user: "u9"), context: when(Self.now)) }
            #expect(stranger?.rule == .userNotRegistered, "\(String(describing: stranger))")
            for stars in [0, 6, -1] {
                let refused = await Self.refusal { try await logbook.execute(Self.rate("p1", stars), context: when(Self.now)) }
                #expect(refused?.code == .invalidArgument && refused?.field == "stars", "\(stars): \(String(describing: refused))")
            }
            #expect(try await logbook.log.headPosition() == head, "nothing was written")
            let body = try EventBody.decode(.placeRated, Data(#"{"stars":5}"#.utf8), path: ["placeId": "p1"])
            #expect(body == .placeRated(PlaceRated(placeId: "p1", stars: 5)), "the path names the place")
        }
    }

    static func clear(_ place: String, user: String = "u1") -> Command {
        Command(user: user, event: .placeRatingCleared(PlaceRatingCleared(placeId: place)))
    }

    @Test("a cleared rating leaves the place unrated everywhere, as if never rated; clearing an unrated place changes nothing; refusals write nothing")
    func clearing() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when(Self.now))
            for id in ["p1", "p2"] {
                try await logbook.execute(
                    .addPlace(PlaceAdded(placeId: id, name: "Place \(id)", category: .restaurant, subcategory: "x", latitude: 52, longitude: 13)),
                    context: when(Self.now))
            }
            try await logbook.execute(Self.rate("p1", 4), context: when(Self.now))
            try await logbook.execute(Self.rate("p2", 2), context: when(Self.now))
            try await logbook.execute(Self.clear("p1"), context: when(Self.now))
            #expect(try await logbook.place(user: "u1", placeId: "p1").rating == nil)
            #expect(try await logbook.place(user: "u1", placeId: "p2").rating == 2, "only the named place's rating goes")
            let rated = try await logbook.answer(.ratedPlaces(), user: "u1")
            #expect(rated.places.map(\.placeId) == ["p2"] && rated.counts == [0, 1, 0, 0, 0])

            let head = try await logbook.log.headPosition()
            try await logbook.execute(Self.clear("p1"), context: when(Self.now))
            #expect(try await logbook.log.headPosition() > head, "the user's request is recorded")
            #expect(try await logbook.answer(.ratedPlaces(), user: "u1") == rated, "and changes nothing")
            try await logbook.execute(Self.clear("p2"), context: when(Self.now))
            #expect(try await logbook.answer(.ratedPlaces(), user: "u1").counts == [0, 0, 0, 0, 0])

            let lines = try await logbook.timeline(user: "u1").entries.filter { $0.type == "place.rating_cleared" }.map(\.description)
            #expect(lines.sorted() == ["Cleared the rating of place p1", "Cleared the rating of place p1", "Cleared the rating of place p2"])

            let before = try await logbook.log.headPosition()
            let unknown = await Self.refusal { try await logbook.execute(Self.clear("nowhere"), context: when(Self.now)) }
            #expect(unknown?.rule == .unknownPlace, "\(String(describing: unknown))")
            let stranger = await Self.refusal { try await logbook.execute(Self.clear("p1", user: "u9"), context: when(Self.now)) }
            #expect(stranger?.rule == .userNotRegistered, "\(String(describing: stranger))")
            #expect(try await logbook.log.headPosition() == before, "nothing was written")

            let verified = try await logbook.verify()
            #expect(!verified.isEmpty && verified.filter { !$0.matches }.isEmpty, "\(verified)")
        }
    }

    @Test("a place rated then cleared leaves the read models as a log where it was never rated")
    func clearedEqualsNeverRated() async throws {
        func digests(_ clearing: Bool) async throws -> [String] {
            try await withLogbook { logbook, _ in
                try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when(Self.now))
                try await logbook.execute(
                    .addPlace(PlaceAdded(placeId: "p1", name: "Place", category: .restaurant, subcategory: "x", latitude: 52, longitude: 13)),
                    context: when(Self.now))
                if clearing {
                    try await logbook.execute(Self.rate("p1", 5), context: when(Self.now))
                    try await logbook.execute(Self.clear("p1"), context: when(Self.now))
                }
                return try logbook.digests().filter { [.places, .ratings].contains($0.projection) }.map { "\($0.projection.rawValue) \($0.sha256)" }
            }
        }
        let cleared = try await digests(true)
        #expect(cleared.count == 2)
        #expect(cleared == (try await digests(false)))
    }
}
