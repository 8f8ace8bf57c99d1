import Zlib

/// At most `length` bytes of another source.
final class RangeByteSource: ByteSource {
    private let base: any ByteSource
    private var remaining: Int64

    init(base: any ByteSource, length: Int64) {
        self.base = base
        self.remaining = max(0, length)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard remaining > 0 else { return 0 }
        let want = Int(min(Int64(buffer.count), remaining))
        let got = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        remaining -= Int64(got)
        return got
    }
}

/// Verifies CRC-32 and size of a zip entry's stream when it ends; more bytes than the directory
/// states fail as soon as they appear.
final class CheckedByteSource: ByteSource {
    private let base: any ByteSource
    private let expectedCRC: UInt32
    private let expectedSize: UInt64
    private let fileName: String
    private var crc = CRC32()
    private var size: UInt64 = 0

    init(base: any ByteSource, expectedCRC: UInt32, expectedSize: UInt64, fileName: String) {
        self.base = base
        self.expectedCRC = expectedCRC
        self.expectedSize = expectedSize
        self.fileName = fileName
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let got = try base.read(into: buffer)
        if got > 0 {
            // size <= expectedSize holds here, so the subtraction cannot wrap.
            guard UInt64(got) <= expectedSize - size else {
                throw WorkoutFileError(code: .malformedZip, fileName: fileName, byteOffset: Int64(exactly: expectedSize),
                                       message: "entry is longer than its directory size \(expectedSize)")
            }
            crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            size += UInt64(got)
            return got
        }
        guard size == expectedSize else {
            throw WorkoutFileError(code: .truncated, fileName: fileName, byteOffset: Int64(exactly: size),
                                   message: "entry has \(size) bytes, directory says \(expectedSize)")
        }
        guard crc.checksum == expectedCRC else {
            throw WorkoutFileError(code: .badCRC, fileName: fileName, byteOffset: Int64(exactly: size), message: "entry CRC-32 does not match")
        }
        return 0
    }
}
