import BinaryCoding
import EventLog

/// The building blocks of the domain's binary storage encoding: timestamps, dates, optionals.
extension ByteWriter {
    mutating func timestamp(_ value: Timestamp) {
        signedVarint(value.microsecondsSinceEpoch)
        signedVarint(Int64(value.utcOffsetSeconds))
    }

    mutating func date(_ value: CivilDate) { signedVarint(Int64(value.daysSinceEpoch)) }

    mutating func int(_ value: Int) { signedVarint(Int64(value)) }

    mutating func optionalInt(_ value: Int?) {
        guard let value else { return byte(0) }
        byte(1)
        int(value)
    }

    mutating func optionalString(_ value: String?) {
        guard let value else { return byte(0) }
        byte(1)
        string(value)
    }

    mutating func enumeration<E: RawRepresentable & CaseIterable & Equatable>(_ value: E) {
        byte(UInt8(E.allCases.firstIndex(of: value).map { E.allCases.distance(from: E.allCases.startIndex, to: $0) } ?? 0))
    }
}

/// Reads what the ``ByteWriter`` extension writes, from a borrowed payload.
enum FieldReader {
    static func timestamp(_ span: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> Timestamp {
        let micros = try ByteReader.signedVarint(span, &o)
        let offset = try ByteReader.signedVarint(span, &o)
        guard (-Int64(Timestamp.maxOffsetSeconds)...Int64(Timestamp.maxOffsetSeconds)).contains(offset) else { throw DecodeFailure(reason: "UTC offset out of range") }
        return Timestamp(microsecondsSinceEpoch: micros, utcOffsetSeconds: Int32(offset))
    }

    static func date(_ span: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> CivilDate {
        let days = try ByteReader.signedVarint(span, &o)
        guard (-2_999_999...2_999_999).contains(days) else { throw DecodeFailure(reason: "date out of range") }
        return CivilDate(daysSinceEpoch: Int(days))
    }

    static func int(_ span: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> Int {
        Int(try ByteReader.signedVarint(span, &o))
    }

    static func optionalInt(_ span: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> Int? {
        try ByteReader.byte(span, &o) == 0 ? nil : try int(span, &o)
    }

    static func optionalString(_ span: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> String? {
        try ByteReader.byte(span, &o) == 0 ? nil : try ByteReader.string(span, &o)
    }

    /// A count, then that many cases of `E` (one byte each): the count is checked against the bytes left.
    static func enumerations<E: CaseIterable>(_ span: Span<UInt8>, _ o: inout Int, _ type: E.Type) throws(DecodeFailure) -> [E] {
        let count = try ByteReader.varint(span, &o)
        guard count <= UInt64(span.count - o) else { throw DecodeFailure(reason: "\(count) \(E.self) values in \(span.count - o) bytes") }
        var values: [E] = []
        for _ in 0..<count { values.append(try enumeration(span, &o, type)) }
        return values
    }

    static func enumeration<E: CaseIterable>(_ span: Span<UInt8>, _ o: inout Int, _ type: E.Type) throws(DecodeFailure) -> E {
        let index = Int(try ByteReader.byte(span, &o))
        guard index < E.allCases.count else { throw DecodeFailure(reason: "no \(E.self) number \(index)") }
        return E.allCases[E.allCases.index(E.allCases.startIndex, offsetBy: index)]
    }
}
