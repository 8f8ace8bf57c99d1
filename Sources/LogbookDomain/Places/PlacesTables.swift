import BinaryCoding
import EventLog
import Foundation

/// Key of a catalog record: the place id.
struct PlaceKey: TableKey {
    let placeId: String
    /// Shared: no user owns these records.
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { [] }
    func encode(into w: inout ByteWriter) { w.keyString(placeId) }
    init(_ placeId: String) { self.placeId = placeId }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        placeId = try KeyReader.string(s, &o)
    }
    static func < (a: PlaceKey, b: PlaceKey) -> Bool { a.placeId.utf8.lexicographicallyPrecedes(b.placeId.utf8) }
}

/// Key of a record numbered in order (the catalog's order).
struct SequenceKey: TableKey {
    let sequence: UInt32
    /// Shared: no user owns these records.
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { [] }
    func encode(into w: inout ByteWriter) { w.keyUInt32(sequence) }
    init(_ sequence: UInt32) { self.sequence = sequence }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        sequence = try KeyReader.uint32(s, &o)
    }
    static func < (a: SequenceKey, b: SequenceKey) -> Bool { a.sequence < b.sequence }
}

/// Key of one user's record about one place.
struct UserPlaceKey: TableKey {
    let user: String
    let placeId: String
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyString(placeId) }
    init(_ user: String, _ placeId: String) { self.user = user; self.placeId = placeId }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        placeId = try KeyReader.string(s, &o)
    }
    static func < (a: UserPlaceKey, b: UserPlaceKey) -> Bool {
        a.user == b.user ? a.placeId.utf8.lexicographicallyPrecedes(b.placeId.utf8) : a.user.utf8.lexicographicallyPrecedes(b.user.utf8)
    }
}

/// A place in the catalog, with its position in catalog order.
struct CatalogPlace: TableValue {
    var sequence: UInt32
    var place: PlaceAdded

    func encode(into w: inout ByteWriter) {
        w.varint(UInt64(sequence))
        w.append(BinaryEventCodec.encode(.placeAdded(place)))
    }

    init(sequence: UInt32, place: PlaceAdded) {
        self.sequence = sequence
        self.place = place
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        sequence = UInt32(truncatingIfNeeded: try ByteReader.varint(s, &o))
        do {
            guard case .placeAdded(let place) = try BinaryEventCodec.decode(.placeAdded, schemaVersion: 1, payload: s.extracting(o...)) else {
                throw DecodeFailure(reason: "not a place")
            }
            self.place = place
        } catch {
            throw DecodeFailure(reason: "\(error)")
        }
    }
}

/// A text value (a place id in catalog order).
struct TextValue: TableValue {
    var text: String
    func encode(into w: inout ByteWriter) { w.string(text) }
    init(_ text: String) { self.text = text }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        text = try ByteReader.string(s, &o)
    }
}

/// A count kept in a table of its own (the catalog's size, so a new place's sequence is known
/// without reading the whole catalog order).
struct CountValue: TableValue, Equatable {
    var count: UInt32
    func encode(into w: inout ByteWriter) { w.varint(UInt64(count)) }
    init(_ count: UInt32) { self.count = count }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        let value = try ByteReader.varint(s, &o)
        guard let count = UInt32(exactly: value) else { throw DecodeFailure(reason: "a count of \(value) is past UInt32") }
        self.count = count
    }
}

/// Where a place stands for one user.
public enum PlaceStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// In the deck.
    case notSeen = "not_seen"
    /// Swiped right: on the saved list.
    case interested
    /// Swiped left: hidden.
    case notInterested = "not_interested"
    case visited
}

/// One user's state of one place.
struct UserPlace: TableValue, Equatable {
    var status: PlaceStatus = .notSeen
    var visitCount = 0
    var lastVisit: Timestamp?
    var notes: String?
    /// 1 to 5 stars. Written after the other fields only when set, so a record of a place never
    /// rated keeps the bytes it had before ratings existed.
    var rating: Int?

    func encode(into w: inout ByteWriter) {
        w.enumeration(status)
        w.int(visitCount)
        if let lastVisit { w.byte(1); w.timestamp(lastVisit) } else { w.byte(0) }
        w.optionalString(notes)
        if let rating { w.int(rating) }
    }

    init() {}

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        status = try FieldReader.enumeration(s, &o, PlaceStatus.self)
        visitCount = try FieldReader.int(s, &o)
        lastVisit = try ByteReader.byte(s, &o) == 0 ? nil : try FieldReader.timestamp(s, &o)
        notes = try FieldReader.optionalString(s, &o)
        rating = o < s.count ? try FieldReader.int(s, &o) : nil
    }

    var isBlank: Bool { status == .notSeen && visitCount == 0 && lastVisit == nil && notes == nil && rating == nil }
}

/// Key of one numbered change of the catalog (a place added or edited): its revision.
struct RevisionKey: TableKey {
    let revision: UInt64
    /// Shared: no user owns these records.
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { [] }
    func encode(into w: inout ByteWriter) {
        w.keyUInt32(UInt32(truncatingIfNeeded: revision >> 32))
        w.keyUInt32(UInt32(truncatingIfNeeded: revision))
    }
    init(_ revision: UInt64) { self.revision = revision }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        let high = try KeyReader.uint32(s, &o)
        revision = UInt64(high) << 32 | UInt64(try KeyReader.uint32(s, &o))
    }
    static func < (a: RevisionKey, b: RevisionKey) -> Bool { a.revision < b.revision }
}

/// The catalog's revision: how many changes (places added or edited) it has had.
struct RevisionValue: TableValue, Equatable {
    var revision: UInt64
    func encode(into w: inout ByteWriter) { w.varint(revision) }
    init(_ revision: UInt64) { self.revision = revision }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        revision = try ByteReader.varint(s, &o)
    }
}
