import Zlib

/// Decompresses a gzip stream (RFC 1952, first member) with zlib and checks its CRC-32 and
/// size, so Strava's `activities/123.fit.gz` originals parse like plain files.
///
/// The header's flags are honoured (FEXTRA, FNAME, FCOMMENT, FHCRC; the header may be at most
/// 1 MiB); the 8-byte trailer is read from where zlib's raw inflate says the deflate stream
/// ended. The member's output is bounded by `ParseOptions`' inflation limits.
final class GzipSource: ByteSource {
    private let inflate: InflateSource
    private let fileName: String
    private var crc = CRC32()
    private var size: UInt32 = 0
    private var done = false

    /// Whether bytes start with the gzip magic number.
    static func isGzip(_ prefix: [UInt8]) -> Bool { prefix.count >= 2 && prefix[0] == 0x1F && prefix[1] == 0x8B }

    init(base: any ByteSource, fileName: String, options: ParseOptions) throws {
        self.fileName = fileName
        var head: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        func need(_ count: Int) throws {
            while head.count < count {
                guard head.count < 1 << 20 else {
                    throw WorkoutFileError(code: .limitExceeded, fileName: fileName, message: "gzip header is too long")
                }
                let got = try scratch.withUnsafeMutableBytes { try base.read(into: $0) }
                guard got > 0 else {
                    throw WorkoutFileError(code: .truncated, fileName: fileName, byteOffset: Int64(head.count), message: "gzip header ends early")
                }
                head.append(contentsOf: scratch[0..<got])
            }
        }
        try need(10)
        guard head[0] == 0x1F, head[1] == 0x8B, head[2] == 8 else {
            throw WorkoutFileError(code: .badHeader, fileName: fileName, byteOffset: 0, message: "not a deflate gzip stream")
        }
        let flags = head[3]
        guard flags & 0xE0 == 0 else {
            throw WorkoutFileError(code: .badHeader, fileName: fileName, byteOffset: 3, message: "gzip header sets reserved flag bits")
        }
        var position = 10
        if flags & 4 != 0 {
            try need(position + 2)
            // FEXTRA's length is two bytes: position stays below 1 MiB + 65,537.
            position += 2 + (Int(head[position]) | Int(head[position + 1]) << 8)
        }
        for bit in [UInt8(8), 16] where flags & bit != 0 {
            while true {
                try need(position + 1)
                position += 1
                if head[position - 1] == 0 { break }
            }
        }
        if flags & 2 != 0 { position += 2 }
        try need(position)
        let rest = PrefixedByteSource(prefix: Array(head[position...]), base: base)
        inflate = try InflateSource(input: rest, fileName: fileName, limit: InflationLimit(options, entry: fileName))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !done else { return 0 }
        let got = try inflate.read(into: buffer)
        if got > 0 {
            crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            size &+= UInt32(truncatingIfNeeded: got) // ISIZE is the size modulo 2^32
            return got
        }
        done = true
        let trailer = try inflate.takeTrailer(8)
        let storedCRC = UInt32(trailer[0]) | UInt32(trailer[1]) << 8 | UInt32(trailer[2]) << 16 | UInt32(trailer[3]) << 24
        let storedSize = UInt32(trailer[4]) | UInt32(trailer[5]) << 8 | UInt32(trailer[6]) << 16 | UInt32(trailer[7]) << 24
        guard storedCRC == crc.checksum, storedSize == size else {
            throw WorkoutFileError(code: .badCRC, fileName: fileName, byteOffset: inflate.compressedBytesConsumed,
                                   message: "gzip CRC-32 or size does not match")
        }
        return 0
    }
}

/// Serves `prefix` and then the rest of `base`.
final class PrefixedByteSource: ByteSource {
    private var prefix: [UInt8]
    private var offset = 0
    private let base: any ByteSource

    init(prefix: [UInt8], base: any ByteSource) {
        self.prefix = prefix
        self.base = base
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset < prefix.count {
            let count = min(buffer.count, prefix.count - offset)
            prefix.withUnsafeBytes { raw in buffer.baseAddress!.copyMemory(from: raw.baseAddress! + offset, byteCount: count) }
            offset += count
            if offset == prefix.count { prefix = []; offset = 0 }
            return count
        }
        return try base.read(into: buffer)
    }
}
