import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import Testing

/// Places narrowed by text (one fixed folding) and by distance from a point.
@Suite("Place search: text folding and radius")
struct PlaceSearchTests {
    static let now = "2026-11-20T08:00:00+01:00"

    @Test("the folding: case, accents, NFC and NFD alike, German ß, Turkish dotted and dotless i; nothing else changes")
    func folding() {
        #expect(TextFolding.fold("Café") == "cafe" && TextFolding.fold("CAFE\u{301}") == "cafe" && TextFolding.fold("cafe\u{301}") == "cafe")
        #expect(TextFolding.fold("Straße") == "strasse" && TextFolding.fold("STRASSE") == "strasse" && TextFolding.fold("Stra\u{1E9E}e") == "strasse")
        #expect(["İstanbul", "ISTANBUL", "ıstanbul", "istanbul"].allSatisfy { TextFolding.fold($0) == "istanbul" })
        #expect(TextFolding.fold("Ñam Ñam") == "nam nam" && TextFolding.fold("Åre") == "are")
        #expect(TextFolding.fold("日本 Ωmega") == "日本 ωmega")
        #expect(TextFolding.holds("strasse", Array("asse".unicodeScalars)) && !TextFolding.holds("strasse", Array("ssz".unicodeScalars)))
    }

    /// A catalog around Berlin's Alexanderplatz (52.5219, 13.4132), with names written in several ways.
    static func catalog(_ logbook: Logbook) async throws {
        try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(now))
        let places: [(String, String, String, String?, Double, Double)] = [
            ("p1", "Café Einstein", "cafe", "Unter den Linden 42", 52.5170, 13.3889),
            ("p2", "CAFE\u{301} AM NEUEN SEE", "cafe", "Lichtensteinallee 2", 52.5106, 13.3417),
            ("p3", "Istanbul Grill", "turkish", "Straße der Pariser Kommune 1", 52.5163, 13.4396),
            ("p4", "Weltrestaurant Markthalle", "german", nil, 52.5010, 13.4330),
            ("p5", "Alex Burger", "burger", "Alexanderplatz 1", 52.5219, 13.4132),
        ]
        for (id, name, subcategory, address, latitude, longitude) in places {
            try await logbook.execute(.addPlace(PlaceAdded(
                placeId: id, name: name, category: .restaurant, subcategory: subcategory, latitude: latitude, longitude: longitude,
                address: address)), context: when(now))
        }
    }

    @Test("text search over name, subcategory and address; a point keeps places within the radius, nearest first, with their distance")
    func searchAndRadius() async throws {
        try await withLogbook { logbook, _ in
            try await Self.catalog(logbook)
            func deck(_ search: PlaceSearch) async throws -> [String] { try await logbook.placesDeck(user: "u1", limit: 50, search: search).map(\.place.placeId) }
            #expect(try await deck(PlaceSearch(text: "café")) == ["p1", "p2"])
            #expect(try await deck(PlaceSearch(text: "CAFE")) == ["p1", "p2"])
            #expect(try await deck(PlaceSearch(text: "ıstanbul")) == ["p3"])
            #expect(try await deck(PlaceSearch(text: "strasse")) == ["p3"])  // the address's "Straße"
            #expect(try await deck(PlaceSearch(text: "turk")) == ["p3"])     // the subcategory
            #expect(try await deck(PlaceSearch(text: "sushi")).isEmpty)
            // The names are equal by folding but stored as given.
            #expect(try await logbook.placesDeck(user: "u1", search: PlaceSearch(text: "am neuen")).first?.place.name == "CAFE\u{301} AM NEUEN SEE")

            let alex = (latitude: 52.5219, longitude: 13.4132)
            let near = try await logbook.placesDeck(user: "u1", limit: 50, search: PlaceSearch(near: alex, radiusMeters: 2_500))
            // p1 is 1,732 m away, p3 1,892 m, p4 2,683 m (outside), p2 4,999 m (outside).
            #expect(near.map(\.place.placeId) == ["p5", "p1", "p3"])
            #expect(near.first?.distanceMeters == 0)
            #expect(zip(near, near.dropFirst()).allSatisfy { ($0.distanceMeters ?? 0) <= ($1.distanceMeters ?? 0) })
            for view in near {
                let exact = TrackAnalysis.haversine(alex.latitude, alex.longitude, view.place.latitude, view.place.longitude)
                #expect(view.distanceMeters == Int(exact.rounded()) && exact <= 2_500)
            }
            // The radius edge: a radius of exactly the distance keeps the place, a metre less does not.
            let toP1 = TrackAnalysis.haversine(alex.latitude, alex.longitude, 52.5170, 13.3889)
            #expect(try await deck(PlaceSearch(near: alex, radiusMeters: toP1)).contains("p1"))
            #expect(!(try await deck(PlaceSearch(near: alex, radiusMeters: toP1 - 1)).contains("p1")))
            // Both at once, and the default radius (5 km) keeps the whole catalog here (p2 at 4,999 m).
            #expect(try await deck(PlaceSearch(text: "cafe", near: alex, radiusMeters: 2_500)) == ["p1"])
            #expect(try await deck(PlaceSearch(near: alex)).count == 5)
            // Without a search, no distance is written.
            #expect(try await logbook.placesDeck(user: "u1", limit: 50).allSatisfy { $0.distanceMeters == nil })
            // Saved lists take the same search.
            for id in ["p1", "p2", "p3"] {
                try await logbook.execute(.swipePlace(user: "u1", PlaceSwiped(placeId: id, direction: .right)), context: when(Self.now))
            }
            #expect(try await logbook.savedPlaces(user: "u1", category: .restaurant, search: PlaceSearch(text: "Cafe")).map(\.place.placeId).sorted() == ["p1", "p2"])
        }
    }
}
