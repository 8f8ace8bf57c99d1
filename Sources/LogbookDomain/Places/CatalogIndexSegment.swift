/// One version of a catalog place as the search index holds it: its text folded once (name,
/// subcategory and address, joined by a byte no UTF-8 text holds, so no match spans two of them)
/// and where it is.
struct IndexedPlace: Sendable {
    /// The place's number in catalog order.
    let sequence: UInt32
    let name: String
    let subcategory: String
    let address: String?
    let latitude: Double
    let longitude: Double
    let folded: [UInt8]

    /// The byte between folded fields.
    static let separator: UInt8 = 0xFF

    init(sequence: UInt32, place: PlaceAdded) {
        self.sequence = sequence
        name = place.name
        subcategory = place.subcategory
        address = place.address
        latitude = place.latitude
        longitude = place.longitude
        var folded: [UInt8] = []
        folded.reserveCapacity(place.name.utf8.count + place.subcategory.utf8.count + (place.address?.utf8.count ?? 0) + 2)
        TextFolding.appendFolded(place.name, to: &folded)
        folded.append(Self.separator)
        TextFolding.appendFolded(place.subcategory, to: &folded)
        folded.append(Self.separator)
        TextFolding.appendFolded(place.address ?? "", to: &folded)
        self.folded = folded
    }

    /// Whether this version has `place`'s searchable text (so its folding is `place`'s).
    func hasText(of place: PlaceAdded) -> Bool {
        name.utf8.elementsEqual(place.name.utf8) && subcategory.utf8.elementsEqual(place.subcategory.utf8)
            && (address ?? "").utf8.elementsEqual((place.address ?? "").utf8) && (address == nil) == (place.address == nil)
    }

    /// Whether this version is where `place` is (the same coordinates, bit for bit).
    func hasLocation(of place: PlaceAdded) -> Bool {
        latitude.bitPattern == place.latitude.bitPattern && longitude.bitPattern == place.longitude.bitPattern
    }

    /// Whether this version is the same as `other` in everything the index keeps.
    func isSameVersion(as other: IndexedPlace) -> Bool {
        sequence == other.sequence && folded == other.folded && name == other.name && subcategory == other.subcategory
            && address == other.address && latitude.bitPattern == other.latitude.bitPattern && longitude.bitPattern == other.longitude.bitPattern
    }
}

/// An immutable part of the catalog's search index: versions of places, the bytes, pairs and
/// triples of folded bytes each holds (posting lists of place numbers, in order) and a tree of where they are.
/// Built once; the index adds new segments as the catalog changes and merges them as they pile up.
final class CatalogIndexSegment: Sendable {
    /// By place number, then in the order the versions came.
    let places: [IndexedPlace]
    /// Each byte, pair or triple of folded bytes → the place numbers whose text holds it, ascending, once each.
    let postings: [UInt32: [UInt32]]
    /// Where the versions are (payload: the index in ``places``).
    let tree: SpherePointTree

    init(_ versions: [IndexedPlace]) {
        let places = versions.enumerated().sorted { a, b in
            a.element.sequence == b.element.sequence ? a.offset < b.offset : a.element.sequence < b.element.sequence
        }.map(\.element)
        self.places = places
        var postings: [UInt32: [UInt32]] = [:]
        var grams: [UInt32] = []
        for place in places {
            grams.removeAll(keepingCapacity: true)
            Self.grams(of: place.folded[...], into: &grams)
            for gram in grams {
                postings[gram, default: []].appendIfNew(place.sequence)
            }
        }
        self.postings = postings
        tree = SpherePointTree(places.indices.compactMap { index in
            let place = places[index]
            guard place.latitude.isFinite, place.longitude.isFinite else { return nil }
            return (place.latitude, place.longitude, Int32(index))
        })
    }

    /// A segment holding every version of `segments` (the same version once).
    static func merged(_ segments: [CatalogIndexSegment]) -> CatalogIndexSegment {
        let all = segments.flatMap(\.places).enumerated().sorted { a, b in
            a.element.sequence == b.element.sequence ? a.offset < b.offset : a.element.sequence < b.element.sequence
        }.map(\.element)
        var versions: [IndexedPlace] = []
        var run = 0
        for place in all {
            if versions.last?.sequence != place.sequence { run = versions.count }
            if !versions[run...].contains(where: { $0.isSameVersion(as: place) }) { versions.append(place) }
        }
        return CatalogIndexSegment(versions)
    }

    /// The versions of place `sequence` this segment holds.
    func versions(of sequence: UInt32) -> ArraySlice<IndexedPlace> {
        var low = 0, high = places.count
        while low < high {
            let middle = (low + high) / 2
            if places[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < places.count, places[end].sequence == sequence { end += 1 }
        return places[low..<end]
    }

    /// The keys a needle of folded bytes is looked up by: its triples, with two bytes its pair,
    /// with one its byte (nil for an empty needle: no key narrows it).
    static func keys(of needle: [UInt8]) -> [UInt32]? {
        guard !needle.isEmpty else { return nil }
        var keys: [UInt32] = []
        if needle.count == 1 {
            keys.append(single(needle[0]))
        } else if needle.count == 2 {
            keys.append(pair(needle[0], needle[1]))
        } else {
            for i in 0...(needle.count - 3) { keys.append(triple(needle[i], needle[i + 1], needle[i + 2])) }
        }
        return Array(Set(keys))
    }

    /// The place numbers of this segment whose text may hold a needle with `keys`: those listed
    /// under every key, ascending.
    func candidates(_ keys: [UInt32]) -> [UInt32] {
        var lists: [[UInt32]] = []
        for key in keys {
            guard let list = postings[key] else { return [] }
            lists.append(list)
        }
        lists.sort { $0.count < $1.count }
        guard var result = lists.first else { return [] }
        for list in lists.dropFirst() {
            result = result.filter { list.containsSorted($0) }
            if result.isEmpty { break }
        }
        return result
    }

    private static func single(_ a: UInt8) -> UInt32 { 2 << 24 | UInt32(a) }
    private static func pair(_ a: UInt8, _ b: UInt8) -> UInt32 { UInt32(a) << 8 | UInt32(b) }
    private static func triple(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 { 1 << 24 | UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c) }

    /// Every distinct byte, pair and triple of `folded` that crosses no separator.
    private static func grams(of folded: ArraySlice<UInt8>, into grams: inout [UInt32]) {
        let bytes = Array(folded)
        for byte in bytes where byte != IndexedPlace.separator { grams.append(single(byte)) }
        for i in bytes.indices.dropLast() where bytes[i] != IndexedPlace.separator && bytes[i + 1] != IndexedPlace.separator {
            grams.append(pair(bytes[i], bytes[i + 1]))
            if i + 2 < bytes.count, bytes[i + 2] != IndexedPlace.separator { grams.append(triple(bytes[i], bytes[i + 1], bytes[i + 2])) }
        }
        grams.sort()
        var unique = 0
        for gram in grams where unique == 0 || grams[unique - 1] != gram {
            grams[unique] = gram
            unique += 1
        }
        grams.removeSubrange(unique...)
    }
}

extension Array where Element == UInt32 {
    /// Appends `value` unless it is already the last element (lists built in ascending order).
    mutating func appendIfNew(_ value: UInt32) {
        if last != value { append(value) }
    }

    /// Whether the ascending array holds `value` (binary search).
    func containsSorted(_ value: UInt32) -> Bool {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value
    }
}
