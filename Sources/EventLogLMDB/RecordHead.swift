/// A record's head as the writer encodes it, in a fixed buffer on the stack: the writer encodes
/// one for every event, and bytes appended one at a time to an array would each check the
/// array's uniqueness and capacity.
///
/// The longest head is 116 bytes (checksum, format and flags bytes; numbers, versions and links
/// as varints of at most 5 or 10 bytes; the recording time as a zigzag varint of at most 10 and
/// its UTC offset, an `Int32`, of at most 5), so 128 always hold one.
struct RecordHead {
    private var storage = InlineArray<128, UInt8>(repeating: 0)
    private(set) var count = 0

    init() {}

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        storage[count] = value
        count += 1
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            byte(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        byte(UInt8(truncatingIfNeeded: v))
    }

    @inline(__always)
    mutating func signedVarint(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    /// Writes `value` little-endian over the first four bytes.
    @inline(__always)
    mutating func patchUInt32AtStart(_ value: UInt32) {
        for index in 0..<4 { storage[index] = UInt8(truncatingIfNeeded: value >> UInt32(8 * index)) }
    }

    /// Lends the bytes written to `body`.
    @inline(__always)
    func withBytes<R, E>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R { try body(storage.span.extracting(0..<count)) }
}
