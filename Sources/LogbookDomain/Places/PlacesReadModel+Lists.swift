import EventLog
import Foundation

/// The places lists a user reads. Each costs what the user owns (their swipes, visits and notes)
/// and the page asked for — never the whole catalog: the deck walks the catalog in order only
/// as far as its page needs, and its searches go through the ``CatalogIndex``.
extension PlacesReadModel {
    /// The user's own record of each place they swiped, visited or annotated, by place id (bytes).
    func userStates(_ user: String, _ txn: (any TableReader)?) throws -> [BytewiseString: UserPlace] {
        var states: [BytewiseString: UserPlace] = [:]
        for (key, value) in try status.records(withPrefix: keyPrefix { $0.keyString(user) }, txn) { states[BytewiseString(key.placeId)] = value }
        return states
    }

    /// One catalog place with the user's state, or nil if the catalog has no such place.
    mutating func place(user: String, placeId: String, _ txn: (any TableReader)?) throws -> PlaceView? {
        guard let entry = try catalog.get(PlaceKey(placeId), txn) else { return nil }
        return PlaceView(entry.place, try status.get(UserPlaceKey(user, placeId), txn) ?? UserPlace())
    }

    /// The places not seen yet, in catalog order (nearest first when the search names a point),
    /// at most `limit`. With the index (a live query), it costs the user's own records plus the
    /// places it looks at to fill the page; without it (an as-of query, or tables of an older
    /// code version), the whole catalog.
    func deck(user: String, limit: Int, search: PlaceSearch, index: CatalogIndex.Pinned?, _ txn: (any TableReader)?) throws -> [PlaceView] {
        guard limit > 0 else { return [] }
        let states = try userStates(user, txn)
        if let index, let txn, let view = try indexView(index, txn) {
            return try indexedDeck(states: states, limit: limit, search: search, view: view, txn)
        }
        if search.isEmpty {
            return try unsearchedDeck(states: states, limit: limit, txn)
        }
        let unseen = try allPlaces(states: states, txn).filter { $0.view.status == .notSeen }
        return Array(search.apply(unseen, folding: { IndexedPlace(sequence: $0.sequence, place: $0.view.place).folded }).prefix(limit))
    }

    /// The deck with no search: the catalog in order, from its start, as far as the page needs.
    func unsearchedDeck(states: [BytewiseString: UserPlace], limit: Int, _ txn: (any TableReader)?) throws -> [PlaceView] {
        var views: [PlaceView] = []
        try order.forEach(from: SequenceKey(1), txn) { _, id in
            let state = states[BytewiseString(id.text)] ?? UserPlace()
            guard state.status == .notSeen else { return true }
            if let entry = try catalog.peek(PlaceKey(id.text), txn) { views.append(PlaceView(entry.place, state)) }
            return views.count < limit
        }
        return views
    }

    /// Saved places of a category, by name (Unicode code points of the NFC form), then id (nearest
    /// first when the search names a point). Costs the user's own records.
    func saved(user: String, category: PlaceCategory, search: PlaceSearch, index: CatalogIndex.Pinned?, _ txn: (any TableReader)?) throws -> [PlaceView] {
        let places = try ownPlaces(user: user, status: .interested, category: category, txn)
            .map { (Array($0.view.place.name.precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)), $0) }
            .sorted { a, b in
                a.0 == b.0 ? a.1.view.place.placeId.utf8.lexicographicallyPrecedes(b.1.view.place.placeId.utf8) : a.0.lexicographicallyPrecedes(b.0)
            }
            .map(\.1)
        return try search.apply(places, folding: folding(index, txn))
    }

    /// Visited places of a category, most recent visit first, then id (nearest first when the
    /// search names a point). Costs the user's own records.
    func visited(user: String, category: PlaceCategory, search: PlaceSearch, index: CatalogIndex.Pinned?, _ txn: (any TableReader)?) throws -> [PlaceView] {
        let places = try ownPlaces(user: user, status: .visited, category: category, txn)
            .sorted { a, b in
                let (x, y) = (a.view.lastVisit?.instant ?? .min, b.view.lastVisit?.instant ?? .min)
                return x == y ? a.view.place.placeId.utf8.lexicographicallyPrecedes(b.view.place.placeId.utf8) : x > y
            }
        return try search.apply(places, folding: folding(index, txn))
    }

    /// The catalog places the user gave `status`, of `category`, each with its catalog number.
    private func ownPlaces(user: String, status wanted: PlaceStatus, category: PlaceCategory, _ txn: (any TableReader)?) throws -> [NumberedPlace] {
        var places: [NumberedPlace] = []
        for (key, state) in try status.records(withPrefix: keyPrefix { $0.keyString(user) }, txn) where state.status == wanted {
            guard let entry = try catalog.peek(PlaceKey(key.placeId), txn), entry.place.category == category else { continue }
            places.append(NumberedPlace(sequence: entry.sequence, view: PlaceView(entry.place, state)))
        }
        return places
    }

    /// How a search folds a place's text: from the index when a live query has it, else afresh.
    private func folding(_ index: CatalogIndex.Pinned?, _ txn: (any TableReader)?) throws -> (NumberedPlace) -> [UInt8] {
        guard let index, let txn, let view = try indexView(index, txn) else {
            return { IndexedPlace(sequence: $0.sequence, place: $0.view.place).folded }
        }
        return { view.folded($0.sequence, $0.view.place) }
    }

    /// Every catalog place with the user's state, in catalog order: for as-of queries, which fold
    /// the catalog in memory anyway, and for tables of an older code version.
    func allPlaces(states: [BytewiseString: UserPlace], _ txn: (any TableReader)?) throws -> [NumberedPlace] {
        var places: [NumberedPlace] = []
        try order.forEach(from: SequenceKey(0), txn) { key, id in
            if let entry = try catalog.peek(PlaceKey(id.text), txn) {
                places.append(NumberedPlace(sequence: key.sequence, view: PlaceView(entry.place, states[BytewiseString(id.text)] ?? UserPlace())))
            }
            return true
        }
        return places
    }
}

/// A catalog place as one user sees it, with its number in catalog order.
struct NumberedPlace {
    var sequence: UInt32
    var view: PlaceView
}
