import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import Testing

/// The deck's search through the catalog index answers exactly what a scan of the whole catalog
/// answers (an as-of query at the head, which folds the catalog in memory and uses no index), over
/// seeded random catalogs whose places are added, renamed and moved between searches.
@Suite("Catalog index: the indexed deck equals a scan of the catalog")
struct CatalogIndexPropertyTests {
    static let now = "2026-11-20T08:00:00+01:00"
    /// Words with accents, ß, dotted and dotless i, other scripts and ASCII, so folding matters.
    static let words = ["Café", "CAFE\u{301}", "Straße", "strasse", "İstanbul", "ıstanbul", "Grill", "Bäckerei", "Ñam", "日本", "Ωmega",
                        "Sushi", "sushi", "Burger", "Pho", "Döner", "Kiosk", "am", "See", "Alex", "ramen", "Ramen-Bar"]
    /// Places gather around a few spots (cities, the poles, both sides of the antimeridian) and a few lie anywhere.
    static let spots = [(52.52, 13.40), (35.68, 139.76), (89.9, 10.0), (-89.95, -120.0), (0.0, 179.99), (0.0, -179.99), (-33.87, 151.21)]

    struct Catalog {
        var rng: SplitMix64
        var count = 0

        mutating func text(words: Int) -> String {
            (0..<words).map { _ in CatalogIndexPropertyTests.words[Int(rng.next() % UInt64(CatalogIndexPropertyTests.words.count))] }
                .joined(separator: " ")
        }

        mutating func location() -> (Double, Double) {
            if rng.next() % 8 == 0 {
                return (Double(rng.next() % 18_000) / 100 - 90, Double(rng.next() % 36_000) / 100 - 180)
            }
            let (latitude, longitude) = CatalogIndexPropertyTests.spots[Int(rng.next() % UInt64(CatalogIndexPropertyTests.spots.count))]
            let jitter = { (r: inout SplitMix64) in (Double(r.next() % 2_001) - 1_000) / 20_000 }
            return (max(-90, min(90, latitude + jitter(&rng))), max(-180, min(180, longitude + jitter(&rng))))
        }

        /// Where each place was put last (some places share a spot exactly: ties keep catalog order).
        var locations: [(Double, Double)] = []

        mutating func place() -> PlaceAdded {
            count += 1
            let (latitude, longitude) = rng.next() % 6 == 0 && !locations.isEmpty ? locations[Int(rng.next() % UInt64(locations.count))] : location()
            locations.append((latitude, longitude))
            return PlaceAdded(
                placeId: "p\(count)", name: text(words: 1 + Int(rng.next() % 3)), category: rng.next() % 3 == 0 ? .activity : .restaurant,
                subcategory: text(words: 1), latitude: latitude, longitude: longitude, address: rng.next() % 2 == 0 ? text(words: 2) : nil)
        }

        /// A search text: a piece of a word (1 to 6 scalars) in another case, or a word no place holds.
        mutating func needle() -> String {
            if rng.next() % 10 == 0 { return "zzq" }
            let word = Array(text(words: 1).unicodeScalars)
            let length = 1 + Int(rng.next() % UInt64(min(6, word.count)))
            let start = Int(rng.next() % UInt64(word.count - length + 1))
            let piece = String(String.UnicodeScalarView(word[start..<(start + length)]))
            return rng.next() % 2 == 0 ? piece.uppercased() : piece
        }

        /// A point and a radius reaching exactly to a place (which the radius keeps), or a random one.
        mutating func point() -> ((Double, Double), Double) {
            let (latitude, longitude) = location()
            guard rng.next() % 2 == 0, !locations.isEmpty else {
                return ((latitude, longitude), [500.0, 5_000, 50_000, 2_000_000, PlaceSearch.maxRadiusMeters][Int(rng.next() % 5)])
            }
            let target = locations[Int(rng.next() % UInt64(locations.count))]
            return ((latitude, longitude), max(1, TrackAnalysis.haversine(latitude, longitude, target.0, target.1)))
        }

        mutating func search() -> PlaceSearch {
            switch rng.next() % 4 {
            case 0: return PlaceSearch(text: needle())
            case 1:
                let (near, radius) = point()
                return PlaceSearch(near: near, radiusMeters: radius)
            case 2:
                let (near, radius) = point()
                return PlaceSearch(text: needle(), near: near, radiusMeters: radius)
            default: return PlaceSearch()
            }
        }
    }

    @Test("seeded random catalogs, changes and searches", arguments: [UInt64(1), 2, 3])
    func indexedEqualsScan(seed: UInt64) async throws {
        try await withLogbook { logbook, _ in
            var catalog = Catalog(rng: SplitMix64(seed: seed))
            for user in ["u1", "u2"] {
                try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "Europe/Berlin")), context: when(Self.now))
            }
            var searches = 0
            for round in 0..<6 {
                // Places added, some renamed or moved, some swiped or visited.
                for _ in 0..<(round == 0 ? 250 : 40) { try await logbook.execute(.addPlace(catalog.place()), context: when(Self.now)) }
                for _ in 0..<10 {
                    let id = "p\(1 + Int(catalog.rng.next() % UInt64(catalog.count)))"
                    let (latitude, longitude) = catalog.location()
                    catalog.locations.append((latitude, longitude))
                    let update = catalog.rng.next() % 2 == 0
                        ? PlaceUpdated(placeId: id, name: catalog.text(words: 2))
                        : PlaceUpdated(placeId: id, latitude: latitude, longitude: longitude, address: .set(catalog.text(words: 1)))
                    try await logbook.execute(.record(user: nil, .placeUpdated(update)), context: when(Self.now))
                }
                for _ in 0..<30 {
                    let id = "p\(1 + Int(catalog.rng.next() % UInt64(catalog.count)))"
                    let user = catalog.rng.next() % 2 == 0 ? "u1" : "u2"
                    if catalog.rng.next() % 3 == 0 {
                        try await logbook.execute(.visitPlace(user: user, PlaceVisited(placeId: id, visitedAt: at(Self.now))), context: when(Self.now))
                    } else {
                        let direction: SwipeDirection = catalog.rng.next() % 2 == 0 ? .right : .left
                        try await logbook.execute(.swipePlace(user: user, PlaceSwiped(placeId: id, direction: direction)), context: when(Self.now))
                    }
                }
                let head = AsOf.position(try await logbook.log.headPosition())
                for _ in 0..<25 {
                    let search = catalog.search()
                    let limit = 1 + Int(catalog.rng.next() % 40)
                    let user = catalog.rng.next() % 2 == 0 ? "u1" : "u2"
                    let indexed = try await logbook.placesDeck(user: user, limit: limit, search: search)
                    let scanned = try await logbook.placesDeck(user: user, limit: limit, search: search, asOf: head)
                    let same = indexed == scanned
                    #expect(same, "seed \(seed), round \(round): deck \(limit) \(search): \(indexed.map(\.place.placeId)) != \(scanned.map(\.place.placeId))")
                    for category in PlaceCategory.allCases {
                        let saved = try await logbook.savedPlaces(user: user, category: category, search: search)
                            == logbook.savedPlaces(user: user, category: category, search: search, asOf: head)
                        let visited = try await logbook.visitedPlaces(user: user, category: category, search: search)
                            == logbook.visitedPlaces(user: user, category: category, search: search, asOf: head)
                        #expect(saved && visited, "seed \(seed), round \(round): \(category) \(search)")
                    }
                    searches += 1
                }
            }
            #expect(searches == 150)
            // The index was used (built once, caught up since), not bypassed.
            #expect(logbook.catalogIndex.size.versions >= catalog.count)
        }
    }
}

/// The edges of a search near a point, where walking outwards must not stop early: a place at
/// exactly the radius, and places at one spot (ties keep catalog order) cut by the page.
@Suite("Catalog index: a search near a point stops at the right place")
struct CatalogIndexEdgeTests {
    @Test("a radius reaching exactly to a place keeps it, anywhere on Earth; a page through tied places keeps the first in catalog order")
    func edges() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when(CatalogIndexPropertyTests.now))
            var rng = SplitMix64(seed: 7)
            func coordinate(_ span: UInt64, _ offset: Double) -> Double { Double(rng.next() % (span * 100)) / 100 - offset }
            var places: [(String, Double, Double)] = []
            for number in 1...150 {
                // Every tenth place on one spot (tied distances); the others anywhere, poles included.
                let (latitude, longitude) = number % 10 == 0 ? (48.8566, 2.3522) : (coordinate(180, 90), coordinate(360, 180))
                places.append(("e\(number)", latitude, longitude))
                try await logbook.execute(.addPlace(PlaceAdded(
                    placeId: "e\(number)", name: "Place \(number)", category: .restaurant, subcategory: "x", latitude: latitude, longitude: longitude)),
                    context: when(CatalogIndexPropertyTests.now))
            }
            for _ in 0..<60 {
                let near = (latitude: coordinate(180, 90), longitude: coordinate(360, 180))
                let target = places[Int(rng.next() % UInt64(places.count))]
                let radius = max(1, TrackAnalysis.haversine(near.latitude, near.longitude, target.1, target.2))
                let deck = try await logbook.placesDeck(user: "u1", limit: 200, search: PlaceSearch(near: near, radiusMeters: radius))
                #expect(deck.contains { $0.place.placeId == target.0 }, "\(target.0) at exactly \(radius) m from \(near)")
                #expect(deck.allSatisfy { TrackAnalysis.haversine(near.latitude, near.longitude, $0.place.latitude, $0.place.longitude) <= radius })
            }
            // Near the shared spot, the first three of its places by catalog order, whatever order the tree holds them in.
            let tied = try await logbook.placesDeck(user: "u1", limit: 3, search: PlaceSearch(near: (48.8566, 2.3522), radiusMeters: 10))
            #expect(tied.map(\.place.placeId) == ["e10", "e20", "e30"])
        }
    }

    @Test("a query pinned before the index was reset is answered without it, and never builds it from what it reads")
    func pinnedBeforeReset() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: when(CatalogIndexPropertyTests.now))
            for number in 1...20 {
                try await logbook.execute(.addPlace(PlaceAdded(
                    placeId: "r\(number)", name: number % 5 == 0 ? "Zebra \(number)" : "Place \(number)", category: .restaurant,
                    subcategory: "x", latitude: 1, longitude: 1)), context: when(CatalogIndexPropertyTests.now))
            }
            let before = logbook.catalogIndex.pinned()
            logbook.catalogIndex.reset()
            func zebras(_ pinned: CatalogIndex.Pinned) throws -> [String] {
                try logbook.read { projections, txn in
                    try projections.placesDeck(user: "u1", limit: 20, search: PlaceSearch(text: "zebra"), index: pinned, txn).map(\.place.placeId)
                }
            }
            let expected = ["r5", "r10", "r15", "r20"]
            #expect(try zebras(before) == expected)
            #expect(logbook.catalogIndex.size.versions == 0, "a query pinned before the reset built the index")
            #expect(try zebras(logbook.catalogIndex.pinned()) == expected)
            #expect(logbook.catalogIndex.size.versions == 20)
        }
    }
}
