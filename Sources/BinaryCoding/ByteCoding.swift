public import Foundation

/// Appends little-endian integers, LEB128 varints and raw bytes to a byte buffer.
public struct ByteWriter: Sendable {
    public var bytes: [UInt8]

    @inlinable
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inlinable @inline(__always)
    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    @inlinable @inline(__always)
    public mutating func signedVarint(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    @inlinable @inline(__always)
    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    @inlinable @inline(__always)
    public mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    @inlinable @inline(__always)
    public mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    @inlinable @inline(__always)
    public mutating func uuid(_ id: UUID) {
        let u = id.uuid
        bytes.append(contentsOf: [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
    }

    @inlinable @inline(__always)
    public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Appends the bytes `span` lends (copied: they outlive the loan).
    @inlinable
    public mutating func append(_ span: Span<UInt8>) { span.withUnsafeBufferPointer { bytes.append(contentsOf: $0) } }

    /// Writes a length-prefixed byte string.
    @inlinable @inline(__always)
    public mutating func lengthPrefixed(_ other: [UInt8]) {
        varint(UInt64(other.count))
        bytes.append(contentsOf: other)
    }

    /// Writes the 8 bytes of a `Double`'s bit pattern, little-endian.
    @inlinable @inline(__always)
    public mutating func double(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    /// Writes a length-prefixed UTF-8 string.
    @inlinable @inline(__always)
    public mutating func string(_ value: String) {
        varint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// Overwrites four bytes at `offset` with `value`, little-endian.
    @inlinable
    public mutating func patchUInt32(_ value: UInt32, at offset: Int) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> UInt32(8 * i)) }
    }
}

/// A decoding step ran past the end of a buffer or found an impossible value.
public struct DecodeFailure: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Reads what ``ByteWriter`` writes, from a borrowed span, advancing `offset`.
public enum ByteReader {
    @inlinable @inline(__always)
    public static func varint(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < span.count else { throw DecodeFailure(reason: "varint runs past the end") }
            let byte = span[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            guard shift < 64 else { throw DecodeFailure(reason: "varint longer than 64 bits") }
        }
    }

    @inlinable @inline(__always)
    public static func signedVarint(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> Int64 {
        let raw = try varint(span, &offset)
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    @inlinable @inline(__always)
    public static func byte(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> UInt8 {
        guard offset < span.count else { throw DecodeFailure(reason: "byte past the end") }
        defer { offset += 1 }
        return span[offset]
    }

    @inlinable @inline(__always)
    public static func uint16(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> UInt16 {
        guard offset + 2 <= span.count else { throw DecodeFailure(reason: "uint16 past the end") }
        defer { offset += 2 }
        return UInt16(span[offset]) | UInt16(span[offset + 1]) << 8
    }

    @inlinable @inline(__always)
    public static func uint32(_ span: Span<UInt8>, at offset: Int) throws(DecodeFailure) -> UInt32 {
        guard offset + 4 <= span.count else { throw DecodeFailure(reason: "uint32 past the end") }
        return span.bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
    }

    @inlinable @inline(__always)
    public static func uuid(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> UUID {
        guard offset + 16 <= span.count else { throw DecodeFailure(reason: "uuid past the end") }
        defer { offset += 16 }
        return UUID(uuid: span.bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: uuid_t.self))
    }

    @inlinable @inline(__always)
    public static func double(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> Double {
        guard offset + 8 <= span.count else { throw DecodeFailure(reason: "double past the end") }
        defer { offset += 8 }
        return Double(bitPattern: span.bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
    }

    /// Reads a length-prefixed UTF-8 string (invalid UTF-8 is an error, not repaired).
    @inlinable
    public static func string(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> String {
        let range = try lengthPrefixedRange(span, &offset)
        guard let utf8 = try? UTF8Span(validating: span.extracting(range)) else {
            throw DecodeFailure(reason: "invalid UTF-8 in a string")
        }
        return String(copying: utf8)
    }

    /// Reads a varint that must fit in `Int`.
    @inlinable @inline(__always)
    public static func int(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> Int {
        guard let value = Int(exactly: try varint(span, &offset)) else { throw DecodeFailure(reason: "number out of range") }
        return value
    }

    /// Skips a length-prefixed byte string, returning its range.
    @inlinable @inline(__always)
    public static func lengthPrefixedRange(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> Range<Int> {
        let length = try varint(span, &offset)
        guard length <= UInt64(span.count - offset) else { throw DecodeFailure(reason: "byte string runs past the end") }
        let start = offset
        offset += Int(length)
        return start..<offset
    }
}
