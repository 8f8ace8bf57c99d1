/// The checksums the fixture writers put into files, written here independently of the parsers'
/// own (a different algorithm where there is one), so a test cannot pass by sharing a bug.
public enum Checksum {
    /// The FIT CRC-16 as the FIT SDK's reference code computes it: four bits at a time through a
    /// 16-entry table (polynomial 0xA001 reflected, initial value `start`).
    public static func fit(_ bytes: some Sequence<UInt8>, start: UInt16 = 0) -> UInt16 {
        let table: [UInt16] = [
            0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
            0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
        ]
        var crc = start
        for byte in bytes {
            var low = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ low ^ table[Int(byte & 0xF)]
            low = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ low ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }

    private static let crc32Table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 of zip entries and gzip members (ISO 3309: reflected 0x04C11DB7, all ones in and out).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crc32Table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Array where Element == UInt8 {
    /// Appends the low `size` bytes of `value`, least significant first unless `bigEndian`.
    public mutating func append(integer value: UInt64, size: Int, bigEndian: Bool = false) {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
        append(contentsOf: bigEndian ? bytes.reversed() : bytes)
    }

    /// Appends a little-endian `UInt16`.
    public mutating func append(le16 value: Int) { append(integer: UInt64(UInt16(truncatingIfNeeded: value)), size: 2) }

    /// Appends a little-endian `UInt32`.
    public mutating func append(le32 value: UInt32) { append(integer: UInt64(value), size: 4) }

    /// Overwrites the little-endian `UInt16` at `index`.
    public mutating func replace(le16 value: UInt16, at index: Int) {
        self[index] = UInt8(value & 0xFF)
        self[index + 1] = UInt8(value >> 8)
    }

    /// Overwrites the little-endian `UInt32` at `index`.
    public mutating func replace(le32 value: UInt32, at index: Int) {
        for shift in 0..<4 { self[index + shift] = UInt8(truncatingIfNeeded: value >> UInt32(8 * shift)) }
    }
}
