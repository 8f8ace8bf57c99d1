import BinaryCoding
import EventLog

/// The places each user rated, best first: a ranking kept in key order (stars, then place id
/// bytes), so a page of it is one range read whatever the user rated, and how many places the
/// user gave each number of stars. A later rating of a place replaces the earlier one, a cleared
/// rating leaves the place unrated, and a reset of the deck keeps ratings.
struct RatingsReadModel: ReadModel {
    static let kind = ReadModelKind.ratings
    static let codeVersion = 1

    static let folds = Folds<RatingsReadModel>()
        .on(.placeRated) { try $0.onPlaceRated($1, $2, $3) }
        .on(.placeRatingCleared) { try $0.onPlaceRatingCleared($1, $2, $3) }

    /// Each user's stars for each place they rated.
    var stars: ReadModelTable<UserPlaceKey, StarsValue>
    /// The ranking: one key per rated place, best first.
    var ranked: ReadModelTable<RankedPlaceKey, Marker>
    /// How many places each user rated with each number of stars.
    var counts: ReadModelTable<UserKey, StarCounts>

    init(_ tables: ReadModelTables) {
        stars = tables.table("stars")
        ranked = tables.table("ranked")
        counts = tables.table("counts")
    }

    mutating func onPlaceRated(_ e: PlaceRated, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        // The rule holds ratings to 1 to 5 stars, but a fold does not trust a payload with a key's arithmetic.
        guard RatedPlaces.starRange.contains(e.stars) else { return }
        try rate(user: fold.user, e.placeId, e.stars, txn)
    }

    mutating func onPlaceRatingCleared(_ e: PlaceRatingCleared, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try rate(user: fold.user, e.placeId, nil, txn)
    }

    /// Moves `user`'s place from its stars so far (if rated) to `stars` (nil: unrated) in the
    /// ranking and the counts; a user left with no rating keeps no counts, as one who never rated.
    private mutating func rate(user: String, _ placeId: String, _ stars: Int?, _ txn: (any TableReader)?) throws {
        let key = UserPlaceKey(user, placeId)
        let previous = try self.stars.get(key, txn)?.stars
        guard previous != stars else { return }
        var counts = try self.counts.get(UserKey(user), txn) ?? StarCounts()
        if let previous {
            ranked.set(RankedPlaceKey(user, stars: previous, placeId), nil)
            try counts.remove(previous, user: user)
        }
        if let stars {
            ranked.set(RankedPlaceKey(user, stars: stars, placeId), Marker())
            counts.places[stars - 1] += 1
        }
        self.stars.set(key, stars.map(StarsValue.init))
        self.counts.set(UserKey(user), counts.places.allSatisfy { $0 == 0 } ? nil : counts)
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&stars)
        try visitor.visit(&ranked)
        try visitor.visit(&counts)
    }

    /// Up to `limit` of `user`'s rated places from `start` on, best first, and the key the next page starts at.
    func page(user: String, from start: RankedPlaceKey, limit: Int, _ txn: (any TableReader)?) throws -> (page: [RankedPlaceKey], next: RankedPlaceKey?) {
        var page: [RankedPlaceKey] = []
        var next: RankedPlaceKey?
        try ranked.forEach(from: start, txn) { key, _ in
            guard key.user == user else { return false }
            guard page.count < limit else {
                next = key
                return false
            }
            page.append(key)
            return true
        }
        return (page, next)
    }
}

/// One place a user rated, as the rated list shows it.
public struct RatedPlace: Sendable, Hashable, Codable {
    public var placeId: String
    /// The place's name in the catalog, as of the answer.
    public var name: String
    public var category: PlaceCategory
    /// The user's rating, 1 to 5 stars.
    public var stars: Int
}

/// A page of the places a user rated, best first (more stars first; among equal stars, by place
/// id bytes), with how many places the user gave each number of stars.
public struct RatedPlaces: Sendable, Hashable, Codable {
    /// The ratings a place can have.
    public static let starRange = 1...5

    public var user: String
    /// How many places the user rated with 1, 2, 3, 4 and 5 stars, in that order.
    public var counts: [Int]
    public var places: [RatedPlace]
    /// The cursor of the next page (absent on the last).
    public var nextCursor: String?

    /// The ranking key a cursor names, for `user`; the cursor is `<stars>:<placeId>` (one digit,
    /// 1 to 5), as the page before handed it out.
    static func start(user: String, cursor: String) throws -> RankedPlaceKey {
        guard let parts = PageCursor.split(cursor, at: ":"), parts.head.utf8.count == 1, let stars = Int(parts.head), starRange.contains(stars),
              !parts.tail.isEmpty, parts.tail.utf8.count <= 128
        else {
            throw LogbookError.invalidArgument(name: "cursor", reason: "not the nextCursor of a page of rated places")
        }
        return RankedPlaceKey(user, stars: stars, parts.tail)
    }

    /// The cursor that starts a page at `key`.
    static func cursor(_ key: RankedPlaceKey) -> String { "\(key.stars):\(key.placeId)" }
}

extension ReadQuery where Answer == RatedPlaces {
    /// A page of the places the user rated, best first: `limit` places (clamped to 1 … 500) from
    /// `cursor` (the previous page's `nextCursor`) on.
    public static func ratedPlaces(limit: Int = 20, cursor: String? = nil) -> ReadQuery {
        let limit = min(max(1, limit), 500)
        let parameters = "\(limit) " + (cursor.map { "cursor " + $0 } ?? "first")
        return ReadQuery("rated-places", cached: .ratedPlaces, parameters: parameters, cost: { 128 * $0.places.count + 96 }) { projections, user, txn in
            try projections.ratedPlaces(user: user, limit: limit, cursor: cursor, txn)
        }
    }
}

extension ReadModelSet {
    /// The ratings read model, changed in place.
    var ratings: RatingsReadModel {
        get { self[RatingsReadModel.self] }
        _modify { yield &self[RatingsReadModel.self] }
    }

    /// A page of `user`'s rated places (see ``ReadQuery/ratedPlaces(limit:cursor:)``).
    mutating func ratedPlaces(user: String, limit: Int, cursor: String?, _ txn: (any TableReader)?) throws -> RatedPlaces {
        _ = try requireProfile(user, txn)
        let start = try cursor.map { try RatedPlaces.start(user: user, cursor: $0) } ?? RankedPlaceKey(user, stars: RatedPlaces.starRange.upperBound, "")
        let (page, next) = try ratings.page(user: user, from: start, limit: limit, txn)
        var rated: [RatedPlace] = []
        for key in page {
            // A rating of a place the catalog lacks (a restore decides no rules) is left out, as the other lists leave out such places.
            guard let place = try places.catalogPlace(key.placeId, txn) else { continue }
            rated.append(RatedPlace(placeId: key.placeId, name: place.name, category: place.category, stars: key.stars))
        }
        let counts = try ratings.counts.peek(UserKey(user), txn) ?? StarCounts()
        return RatedPlaces(user: user, counts: counts.places, places: rated, nextCursor: next.map(RatedPlaces.cursor))
    }
}

extension CachedQuery {
    /// A user's rated places (names and categories from the catalog: a swipe or a visit does not change them).
    public static let ratedPlaces = CachedQuery(name: "rated-places", reads: [.profiles, .ratings], readsCatalog: true)
}

extension ReadModelKind {
    /// The ratings read model: each user's rated places, best first.
    public static let ratings = ReadModelKind(declared: "ratings")
}

/// Key of one rated place in its user's ranking: more stars first, then place id bytes.
struct RankedPlaceKey: TableKey {
    let user: String
    let stars: Int
    let placeId: String

    /// `stars` is within ``RatedPlaces/starRange``.
    init(_ user: String, stars: Int, _ placeId: String) {
        self.user = user
        self.stars = stars
        self.placeId = placeId
    }

    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) {
        w.keyString(user); w.keyUInt32(UInt32(RatedPlaces.starRange.upperBound - stars)); w.keyString(placeId)
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        let rank = try KeyReader.uint32(s, &o)
        guard rank < RatedPlaces.starRange.count else { throw DecodeFailure(reason: "a rank of \(rank) in a rated-place key") }
        stars = RatedPlaces.starRange.upperBound - Int(rank)
        placeId = try KeyReader.string(s, &o)
        guard o == s.count else { throw DecodeFailure(reason: "bytes after a rated-place key") }
    }

    static func < (a: RankedPlaceKey, b: RankedPlaceKey) -> Bool {
        if a.user != b.user { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        if a.stars != b.stars { return a.stars > b.stars }
        return a.placeId.utf8.lexicographicallyPrecedes(b.placeId.utf8)
    }
}

/// A user's rating of one place, 1 to 5 stars.
struct StarsValue: TableValue, Equatable {
    var stars: Int
    init(_ stars: Int) { self.stars = stars }
    func encode(into w: inout ByteWriter) { w.byte(UInt8(stars)) }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        stars = Int(try ByteReader.byte(s, &o))
        guard RatedPlaces.starRange.contains(stars), o == s.count else { throw DecodeFailure(reason: "not a rating of 1 to 5 stars") }
    }
}

/// How many places one user rated with 1, 2, 3, 4 and 5 stars.
struct StarCounts: TableValue, Equatable {
    var places = [Int](repeating: 0, count: RatedPlaces.starRange.count)
    init() {}

    /// One place fewer at `stars`; a count that would fall below zero means the counts and the
    /// ratings disagree, which is reported, not stored.
    mutating func remove(_ stars: Int, user: String) throws {
        guard places[stars - 1] > 0 else { throw LogbookError.storage("the rated-place counts of \(user) hold no place at \(stars) stars to remove") }
        places[stars - 1] -= 1
    }
    func encode(into w: inout ByteWriter) { for count in places { w.varint(UInt64(count)) } }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        for index in places.indices {
            let count = try ByteReader.varint(s, &o)
            guard let value = Int(exactly: count), value <= Int(UInt32.max) else { throw DecodeFailure(reason: "a count of \(count) rated places") }
            places[index] = value
        }
        guard o == s.count else { throw DecodeFailure(reason: "bytes after the counts of rated places") }
    }
}
