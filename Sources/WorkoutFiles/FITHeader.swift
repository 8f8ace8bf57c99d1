/// The FIT file header (12 or 14 bytes) and the FIT CRC-16.
///
/// Layout (FIT protocol, "File Header"): size, protocol version, profile version (LE u16),
/// data size (LE u32, excluding header and trailing CRC), ".FIT", and for 14-byte headers a
/// CRC of the first 12 bytes (0 means "not computed").
struct FITHeader: Hashable {
    var headerSize: Int
    var protocolVersion: UInt8
    var profileVersion: UInt16
    var dataSize: Int
    var headerCRC: UInt16?

    /// Parses and validates a header from `bytes` (at least `bytes[0]` long).
    static func parse(_ bytes: UnsafePointer<UInt8>, available: Int, fileName: String, offset: Int64) throws -> FITHeader {
        let size = Int(bytes[0])
        guard size >= 12 else {
            throw WorkoutFileError(code: .badHeader, fileName: fileName, byteOffset: offset,
                                   message: "FIT header size \(size) is smaller than 12")
        }
        guard available >= size else {
            throw WorkoutFileError(code: .truncated, fileName: fileName, byteOffset: offset + Int64(available),
                                   message: "file ends inside the \(size)-byte FIT header")
        }
        guard bytes[8] == UInt8(ascii: "."), bytes[9] == UInt8(ascii: "F"),
              bytes[10] == UInt8(ascii: "I"), bytes[11] == UInt8(ascii: "T") else {
            throw WorkoutFileError(code: .badHeader, fileName: fileName, byteOffset: offset + 8,
                                   message: "FIT header lacks the \".FIT\" signature")
        }
        let dataSize = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        var header = FITHeader(headerSize: size, protocolVersion: bytes[1],
                               profileVersion: UInt16(bytes[2]) | UInt16(bytes[3]) << 8,
                               dataSize: dataSize, headerCRC: nil)
        if size >= 14 {
            let stored = UInt16(bytes[12]) | UInt16(bytes[13]) << 8
            header.headerCRC = stored
            if stored != 0 {
                var crc = FITCRC()
                crc.update(UnsafeRawBufferPointer(start: bytes, count: 12))
                guard crc.value == stored else {
                    throw WorkoutFileError(code: .badCRC, fileName: fileName, byteOffset: offset + 12,
                                           message: "FIT header CRC is 0x\(String(stored, radix: 16)) but the header hashes to 0x\(String(crc.value, radix: 16))")
                }
            }
        }
        guard header.protocolVersion >> 4 <= 2 else {
            throw WorkoutFileError(code: .unsupported, fileName: fileName, byteOffset: offset + 1,
                                   message: "FIT protocol major version \(header.protocolVersion >> 4) is not supported")
        }
        return header
    }
}

/// CRC-16 as defined by the FIT protocol (reflected polynomial 0xA001, initial value 0).
struct FITCRC {
    private static let table: [UInt16] = (0..<256).map { n in
        var crc = UInt16(n)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }

    private(set) var value: UInt16 = 0

    /// Adds bytes to the running CRC.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = value
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = (crc >> 8) ^ table[Int((crc ^ UInt16(byte)) & 0xFF)] }
        }
        value = crc
    }
}
