/// Little-endian bytes for hand-built hostile inputs.
public struct LEBytes: Sendable {
    /// The bytes so far.
    public var bytes: [UInt8] = []

    /// Empty.
    public init() {}

    public mutating func u8(_ value: UInt8) { bytes.append(value) }
    public mutating func u16(_ value: UInt16) { for shift in [0, 8] { bytes.append(UInt8(truncatingIfNeeded: value >> UInt16(shift))) } }
    public mutating func u32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
    public mutating func u64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
    public mutating func append(_ more: [UInt8]) { bytes += more }
}

/// Zip archives whose sizes and offsets are chosen to hit every conversion and addition.
public enum HostileZip {
    /// The 72-byte file of the report: a local-file header, a ZIP64 locator whose record offset
    /// is 0xFFFF_FFFF_FFFF_FFFF, and an end-of-central-directory record counting 0xFFFF entries.
    public static func seventyTwoBytes() -> [UInt8] {
        var out = LEBytes()
        out.u32(0x0403_4B50); out.append([UInt8](repeating: 0, count: 26))
        out.append(zip64Locator(recordOffset: .max).bytes)
        out.u32(0x0605_4B50); out.u16(0); out.u16(0); out.u16(0xFFFF); out.u16(0xFFFF)
        out.u32(0); out.u32(0); out.u16(0)
        precondition(out.bytes.count == 72)
        return out.bytes
    }

    public static func zip64Locator(recordOffset: UInt64) -> LEBytes {
        var out = LEBytes()
        out.u32(0x0706_4B50); out.u32(0); out.u64(recordOffset); out.u32(1)
        return out
    }

    /// A local header, a 56-byte ZIP64 end-of-central-directory record stating `count`, `size`
    /// and `offset` for the directory, the locator (pointing at `recordOffset`, by default the
    /// real record) and an end record whose 32-bit fields say "see ZIP64".
    public static func zip64Record(count: UInt64, size: UInt64, offset: UInt64, recordOffset: UInt64? = nil) -> [UInt8] {
        var out = LEBytes()
        out.u32(0x0403_4B50); out.append([UInt8](repeating: 0, count: 26))
        let record = UInt64(out.bytes.count)
        out.u32(0x0606_4B50); out.u64(44); out.u16(45); out.u16(45); out.u32(0); out.u32(0)
        out.u64(count); out.u64(count); out.u64(size); out.u64(offset)
        out.append(zip64Locator(recordOffset: recordOffset ?? record).bytes)
        out.u32(0x0605_4B50); out.u16(0); out.u16(0); out.u16(0xFFFF); out.u16(0xFFFF)
        out.u32(0xFFFF_FFFF); out.u32(0xFFFF_FFFF); out.u16(0)
        return out.bytes
    }

    /// One stored entry named `name` whose central record defers its sizes and local-header
    /// offset to a ZIP64 extra field holding the given values.
    public static func zip64Entry(name: String = "export.xml", data: [UInt8] = Array("<HealthData/>".utf8),
                           compressed: UInt64? = nil, uncompressed: UInt64? = nil, localOffset: UInt64 = 0) -> [UInt8] {
        let nameBytes = Array(name.utf8)
        let crc = Checksum.crc32(data)
        var out = LEBytes()
        out.u32(0x0403_4B50); out.u16(45); out.u16(0); out.u16(0); out.u16(0); out.u16(0)
        out.u32(crc); out.u32(0xFFFF_FFFF); out.u32(0xFFFF_FFFF)
        out.u16(UInt16(nameBytes.count)); out.u16(0); out.append(nameBytes); out.append(data)
        let directoryOffset = out.bytes.count
        out.u32(0x0201_4B50); out.u16(45); out.u16(45); out.u16(0); out.u16(0); out.u16(0); out.u16(0)
        out.u32(crc); out.u32(0xFFFF_FFFF); out.u32(0xFFFF_FFFF)
        out.u16(UInt16(nameBytes.count)); out.u16(28); out.u16(0); out.u16(0); out.u16(0); out.u32(0)
        out.u32(0xFFFF_FFFF); out.append(nameBytes)
        out.u16(1); out.u16(24)
        out.u64(uncompressed ?? UInt64(data.count)); out.u64(compressed ?? UInt64(data.count)); out.u64(localOffset)
        let directorySize = out.bytes.count - directoryOffset
        out.u32(0x0605_4B50); out.u16(0); out.u16(0); out.u16(1); out.u16(1)
        out.u32(UInt32(directorySize)); out.u32(UInt32(directoryOffset)); out.u16(0)
        return out.bytes
    }
}

