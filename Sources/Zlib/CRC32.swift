import CZlib

/// CRC-32 (ISO-HDLC, the checksum of zip and gzip), computed by zlib's `crc32_z`.
public struct CRC32: Sendable, Hashable {
    /// The checksum of the bytes added so far.
    public private(set) var checksum: UInt32 = 0

    /// A checksum of no bytes.
    public init() {}

    /// Adds bytes the caller lends for the duration of the call.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let next = crc32_z(UInt(checksum), base.assumingMemoryBound(to: Bytef.self), bytes.count)
        checksum = UInt32(truncatingIfNeeded: next)
    }

    /// Adds bytes.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }
}
