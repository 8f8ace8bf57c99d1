public import EventLog
import Foundation

/// Places: the shared catalog in the order places were added, and each user's status of each
/// place (not seen, interested, not interested, visited), visits, notes and rating.
struct PlacesReadModel: ReadModel {
    static let kind = ReadModelKind.places
    /// 2: the catalog's size is kept (`size`), so adding a place no longer reads the whole order.
    /// 3: the catalog's changes are numbered (`revision`, `changes`), so the search index catches up
    /// with what changed instead of reading the whole catalog.
    static let codeVersion = 3

    static let folds = Folds<PlacesReadModel>()
        .on(.placeAdded) { try $0.onPlaceAdded($1, $2, $3) }
        .on(.placeSwiped) { try $0.onPlaceSwiped($1, $2, $3) }
        .on(.placeVisited) { try $0.onPlaceVisited($1, $2, $3) }
        .on(.placeNotesEdited) { try $0.onPlaceNotesEdited($1, $2, $3) }
        .on(.placesReset) { try $0.onPlacesReset($2, $3) }
        .on(.placeUpdated) { try $0.onPlaceUpdated($1, $2, $3) }
        .on(.placeRated) { try $0.onPlaceRated($1, $2, $3) }
        .on(.placeRatingCleared) { try $0.onPlaceRatingCleared($1, $2, $3) }

    var catalog: ReadModelTable<PlaceKey, CatalogPlace>
    var order: ReadModelTable<SequenceKey, TextValue>
    var status: ReadModelTable<UserPlaceKey, UserPlace>
    /// One record (key 0): how many places the catalog holds, which is the last sequence given.
    var size: ReadModelTable<SequenceKey, CountValue>
    /// One record (key 0): how many changes (places added or edited) the catalog has had.
    var revision: ReadModelTable<SequenceKey, RevisionValue>
    /// Each change of the catalog by its revision: the number of the place added or edited.
    var changes: ReadModelTable<RevisionKey, CountValue>

    init(_ tables: ReadModelTables) {
        catalog = tables.table("catalog")
        order = tables.table("order")
        status = tables.table("status")
        size = tables.table("size")
        revision = tables.table("revision")
        changes = tables.table("changes")
    }

    mutating func onPlaceAdded(_ e: PlaceAdded, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard try catalog.get(PlaceKey(e.placeId), txn) == nil else { return }
        let count = try size.get(SequenceKey(0), txn)?.count ?? 0
        guard count < UInt32.max else { throw LogbookError.storage("the catalog holds \(count) places, the most it can number") }
        let sequence = count + 1
        size.set(SequenceKey(0), CountValue(sequence))
        catalog.set(PlaceKey(e.placeId), CatalogPlace(sequence: sequence, place: e))
        order.set(SequenceKey(sequence), TextValue(e.placeId))
        try recordChange(of: sequence, txn)
    }

    /// Numbers a change of place `sequence` with the catalog's next revision.
    private mutating func recordChange(of sequence: UInt32, _ txn: (any TableReader)?) throws {
        let next = (try revision.get(SequenceKey(0), txn)?.revision ?? 0) + 1
        revision.set(SequenceKey(0), RevisionValue(next))
        changes.set(RevisionKey(next), CountValue(sequence))
    }

    mutating func onPlaceUpdated(_ e: PlaceUpdated, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        guard var entry = try catalog.get(PlaceKey(e.placeId), txn) else { return }
        if let name = e.name { entry.place.name = name }
        if let category = e.category { entry.place.category = category }
        if let subcategory = e.subcategory { entry.place.subcategory = subcategory }
        if let latitude = e.latitude { entry.place.latitude = latitude }
        if let longitude = e.longitude { entry.place.longitude = longitude }
        e.address.apply(to: &entry.place.address)
        e.phone.apply(to: &entry.place.phone)
        e.priceLevel.apply(to: &entry.place.priceLevel)
        e.notes.apply(to: &entry.place.notes)
        catalog.set(PlaceKey(e.placeId), entry)
        try recordChange(of: entry.sequence, txn)
    }

    mutating func onPlaceSwiped(_ e: PlaceSwiped, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try status.modify(UserPlaceKey(fold.user, e.placeId), txn, initial: { UserPlace() }) {
            $0.status = e.direction == .right ? .interested : .notInterested
        }
    }

    mutating func onPlaceVisited(_ e: PlaceVisited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try status.modify(UserPlaceKey(fold.user, e.placeId), txn, initial: { UserPlace() }) { place in
            place.status = .visited
            place.visitCount += 1
            if let last = place.lastVisit, last.instant >= e.visitedAt.instant { return }
            place.lastVisit = e.visitedAt
        }
    }

    mutating func onPlaceNotesEdited(_ e: PlaceNotesEdited, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try status.modify(UserPlaceKey(fold.user, e.placeId), txn, initial: { UserPlace() }) { $0.notes = e.notes }
    }

    mutating func onPlaceRated(_ e: PlaceRated, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try status.modify(UserPlaceKey(fold.user, e.placeId), txn, initial: { UserPlace() }) { $0.rating = e.stars }
    }

    mutating func onPlaceRatingCleared(_ e: PlaceRatingCleared, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let key = UserPlaceKey(fold.user, e.placeId)
        guard var place = try status.get(key, txn), place.rating != nil else { return }
        place.rating = nil
        status.set(key, place.isBlank ? nil : place)
    }

    mutating func onPlacesReset(_ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        let prefix = keyPrefix { $0.keyString(fold.user) }
        for (key, var place) in try status.records(withPrefix: prefix, txn) {
            place.status = .notSeen
            place.visitCount = 0
            place.lastVisit = nil
            status.set(key, place.isBlank ? nil : place)
        }
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&catalog)
        try visitor.visit(&order)
        try visitor.visit(&status)
        try visitor.visit(&size)
        try visitor.visit(&revision)
        try visitor.visit(&changes)
    }

    /// The catalog's entry for `placeId` as it stands (its edits applied), or nil.
    mutating func catalogPlace(_ placeId: String, _ txn: (any TableReader)?) throws -> PlaceAdded? {
        try catalog.get(PlaceKey(placeId), txn)?.place
    }
}

/// A place as one user sees it.
public struct PlaceView: Sendable, Hashable, Codable {
    public var place: PlaceAdded
    public var status: PlaceStatus
    public var visitCount: Int
    public var lastVisit: Timestamp?
    /// The local date of the last visit, in its own offset.
    public var lastVisitDate: CivilDate?
    /// The user's notes (the catalog's notes are in `place`), whatever the status, swiped left included.
    public var userNotes: String?
    /// Metres from the point a search asked about (``PlaceSearch/near``), rounded; absent otherwise.
    public var distanceMeters: Int?
    /// The user's rating, 1 to 5 stars (absent: not rated); a reset of the deck keeps it.
    public var rating: Int?

    init(_ place: PlaceAdded, _ state: UserPlace) {
        self.place = place
        status = state.status
        visitCount = state.visitCount
        lastVisit = state.lastVisit
        lastVisitDate = state.lastVisit?.localDate
        userNotes = state.notes
        rating = state.rating
    }
}

extension ReadModelKind {
    /// The places read model.
    public static let places = ReadModelKind(declared: "places")
}

extension ReadModelSet {
    /// The places read model, changed in place.
    var places: PlacesReadModel {
        get { self[PlacesReadModel.self] }
        _modify { yield &self[PlacesReadModel.self] }
    }
}
