import BinaryCoding

/// A key of a read-model table: encodes to bytes whose order is the key's order.
protocol TableKey: Hashable, Comparable, Sendable {
    func encode(into writer: inout ByteWriter)
    init(decoding span: Span<UInt8>) throws(DecodeFailure)

    /// The prefixes of the keys of `owner`'s records, in a table keyed by this type: the user's
    /// id for keys that start with it, the user's workouts' ids for keys that start with a
    /// workout's, none for records that belong to no user (``RecordOwner``).
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]]
}

/// A value of a read-model table, stored in a compact binary form.
protocol TableValue: Sendable {
    func encode(into writer: inout ByteWriter)
    init(decoding span: Span<UInt8>) throws(DecodeFailure)
}

extension ByteWriter {
    /// Writes a key component that sorts as text and ends unambiguously (ids never contain NUL).
    mutating func keyString(_ value: String) {
        bytes.append(contentsOf: value.utf8)
        bytes.append(0)
    }

    /// Writes a signed integer as 8 big-endian bytes with the sign bit flipped, so keys sort numerically.
    mutating func keyInt(_ value: Int64) {
        let biased = UInt64(bitPattern: value) ^ (1 << 63)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: biased >> UInt64(shift))) }
    }

    /// Writes a 4-byte big-endian unsigned integer.
    mutating func keyUInt32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}

/// Reads what the key helpers write.
enum KeyReader {
    static func string(_ span: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> String {
        var bytes: [UInt8] = []
        while true {
            guard o < span.count else { throw DecodeFailure(reason: "unterminated key string") }
            let byte = span[o]
            o += 1
            if byte == 0 { break }
            bytes.append(byte)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw DecodeFailure(reason: "invalid UTF-8 in a key") }
        return text
    }

    /// Reads a day (days since 1970) that `keyInt` wrote. Every day a timestamp can fall on is
    /// within ±2^27; one beyond ±2^30 (a damaged store) is refused, so a day and its neighbours
    /// never overflow `Int32`.
    static func day(_ span: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> Int32 {
        let value = try int(span, &o)
        guard (-(1 << 30)...(1 << 30)).contains(value) else { throw DecodeFailure(reason: "a key's day out of range") }
        return Int32(value)
    }

    static func int(_ span: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> Int64 {
        guard o + 8 <= span.count else { throw DecodeFailure(reason: "key integer past the end") }
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(span[o + i]) }
        o += 8
        return Int64(bitPattern: value ^ (1 << 63))
    }

    static func uint32(_ span: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> UInt32 {
        guard o + 4 <= span.count else { throw DecodeFailure(reason: "key integer past the end") }
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | UInt32(span[o + i]) }
        o += 4
        return value
    }
}
