import Foundation

/// Reads the central directory of a zip file (ZIP64 included) and opens entries as streams:
/// stored entries are read as they are, deflated ones through `InflateSource`; every entry's
/// CRC-32 and size are checked when its stream ends.
final class ZipArchive {
    struct Entry: Hashable {
        var name: String
        var method: UInt16
        var flags: UInt16
        var crc32: UInt32
        var compressedSize: Int64
        var uncompressedSize: Int64
        var localHeaderOffset: Int64
    }

    let url: URL
    let fileName: String
    private(set) var entries: [Entry] = []

    init(url: URL, fileName: String) throws {
        self.url = url
        self.fileName = fileName
        let file = try FileByteSource(url: url, name: fileName)
        let size = try file.size()
        let tailLength = Int(min(size, 65_557))
        try file.seek(to: size - Int64(tailLength))
        let tail = try Self.readExactly(file, tailLength, fileName)
        var eocd = -1
        var index = tailLength - 22
        while index >= 0 {
            if Self.u32(tail, index) == 0x0605_4B50 { eocd = index; break }
            index -= 1
        }
        guard eocd >= 0 else { throw fail(.malformedZip, size, "no end-of-central-directory record") }
        var count = Int64(Self.u16(tail, eocd + 10))
        var directorySize = Int64(Self.u32(tail, eocd + 12))
        var directoryOffset = Int64(Self.u32(tail, eocd + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            guard eocd >= 20, Self.u32(tail, eocd - 20) == 0x0706_4B50 else {
                throw fail(.malformedZip, size, "ZIP64 values without a ZIP64 locator")
            }
            let recordOffset = Int64(Self.u64(tail, eocd - 12))
            guard recordOffset >= 0, recordOffset + 56 <= size else { throw fail(.malformedZip, recordOffset, "bad ZIP64 record offset") }
            try file.seek(to: recordOffset)
            let record = try Self.readExactly(file, 56, fileName)
            guard Self.u32(record, 0) == 0x0606_4B50 else { throw fail(.malformedZip, recordOffset, "bad ZIP64 record") }
            count = Int64(Self.u64(record, 32))
            directorySize = Int64(Self.u64(record, 40))
            directoryOffset = Int64(Self.u64(record, 48))
        }
        guard directoryOffset >= 0, directorySize >= 0, directoryOffset + directorySize <= size,
              directorySize <= 256 << 20, count <= 2_000_000 else {
            throw fail(.malformedZip, directoryOffset, "central directory lies outside the file")
        }
        try file.seek(to: directoryOffset)
        let directory = try Self.readExactly(file, Int(directorySize), fileName)
        var position = 0
        for _ in 0..<count {
            guard position + 46 <= directory.count, Self.u32(directory, position) == 0x0201_4B50 else {
                throw fail(.malformedZip, directoryOffset + Int64(position), "bad central directory entry")
            }
            let nameLength = Int(Self.u16(directory, position + 28))
            let extraLength = Int(Self.u16(directory, position + 30))
            let commentLength = Int(Self.u16(directory, position + 32))
            let end = position + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else { throw fail(.malformedZip, directoryOffset + Int64(position), "entry runs past the directory") }
            var entry = Entry(
                name: String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self),
                method: Self.u16(directory, position + 10), flags: Self.u16(directory, position + 8),
                crc32: Self.u32(directory, position + 16), compressedSize: Int64(Self.u32(directory, position + 20)),
                uncompressedSize: Int64(Self.u32(directory, position + 24)),
                localHeaderOffset: Int64(Self.u32(directory, position + 42)))
            var extra = position + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = Self.u16(directory, extra), length = Int(Self.u16(directory, extra + 2))
                var field = extra + 4
                if id == 0x0001 {
                    if entry.uncompressedSize == 0xFFFF_FFFF, field + 8 <= extraEnd { entry.uncompressedSize = Int64(Self.u64(directory, field)); field += 8 }
                    if entry.compressedSize == 0xFFFF_FFFF, field + 8 <= extraEnd { entry.compressedSize = Int64(Self.u64(directory, field)); field += 8 }
                    if entry.localHeaderOffset == 0xFFFF_FFFF, field + 8 <= extraEnd { entry.localHeaderOffset = Int64(Self.u64(directory, field)) }
                }
                extra += 4 + length
            }
            entries.append(entry)
            position = end
        }
    }

    private func fail(_ code: WorkoutFileError.Code, _ offset: Int64, _ message: String) -> WorkoutFileError {
        WorkoutFileError(code: code, fileName: fileName, byteOffset: offset, message: message)
    }

    /// The entry whose name is `name` or ends with "/" + `name`.
    func entry(named name: String) -> Entry? {
        entries.first { $0.name == name || $0.name.hasSuffix("/" + name) }
    }

    /// Opens an entry's content as a stream.
    func open(_ entry: Entry) throws -> any ByteSource {
        let label = "\(fileName)/\(entry.name)"
        guard entry.flags & 1 == 0 else { throw fail(.unsupported, entry.localHeaderOffset, "\(entry.name) is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw fail(.unsupported, entry.localHeaderOffset, "\(entry.name) uses compression method \(entry.method)")
        }
        let file = try FileByteSource(url: url, name: fileName)
        let size = try file.size()
        guard entry.localHeaderOffset >= 0, entry.localHeaderOffset + 30 <= size else {
            throw fail(.malformedZip, entry.localHeaderOffset, "local header outside the file")
        }
        try file.seek(to: entry.localHeaderOffset)
        let header = try Self.readExactly(file, 30, fileName)
        guard Self.u32(header, 0) == 0x0403_4B50 else { throw fail(.malformedZip, entry.localHeaderOffset, "bad local header") }
        let dataStart = entry.localHeaderOffset + 30 + Int64(Self.u16(header, 26)) + Int64(Self.u16(header, 28))
        guard entry.compressedSize >= 0, dataStart + entry.compressedSize <= size else {
            throw fail(.truncated, dataStart, "\(entry.name) runs past the end of the archive")
        }
        try file.seek(to: dataStart)
        let range = RangeByteSource(base: file, length: entry.compressedSize)
        let content: any ByteSource = entry.method == 0 ? range : InflateSource(input: range, fileName: label)
        return CheckedByteSource(base: content, expectedCRC: entry.crc32, expectedSize: entry.uncompressedSize, fileName: label)
    }

    static func readExactly(_ source: any ByteSource, _ count: Int, _ fileName: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try bytes.withUnsafeMutableBytes { raw in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
            }
            if got == 0 { throw WorkoutFileError(code: .truncated, fileName: fileName, message: "archive ends early") }
            filled += got
        }
        return bytes
    }

    static func u16<C: RandomAccessCollection>(_ b: C, _ i: Int) -> UInt16 where C.Element == UInt8, C.Index == Int {
        UInt16(b[b.startIndex + i]) | UInt16(b[b.startIndex + i + 1]) << 8
    }

    static func u32<C: RandomAccessCollection>(_ b: C, _ i: Int) -> UInt32 where C.Element == UInt8, C.Index == Int {
        UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16
    }

    static func u64<C: RandomAccessCollection>(_ b: C, _ i: Int) -> UInt64 where C.Element == UInt8, C.Index == Int {
        UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32
    }
}

/// At most `length` bytes of another source.
final class RangeByteSource: ByteSource {
    private let base: any ByteSource
    private var remaining: Int64

    init(base: any ByteSource, length: Int64) {
        self.base = base
        self.remaining = length
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard remaining > 0 else { return 0 }
        let want = Int(min(Int64(buffer.count), remaining))
        let got = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        remaining -= Int64(got)
        return got
    }
}

/// Verifies CRC-32 and size of a stream when it ends.
final class CheckedByteSource: ByteSource {
    private let base: any ByteSource
    private let expectedCRC: UInt32
    private let expectedSize: Int64
    private let fileName: String
    private var crc = CRC32()
    private var size: Int64 = 0

    init(base: any ByteSource, expectedCRC: UInt32, expectedSize: Int64, fileName: String) {
        self.base = base
        self.expectedCRC = expectedCRC
        self.expectedSize = expectedSize
        self.fileName = fileName
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let got = try base.read(into: buffer)
        if got > 0 {
            crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            size += Int64(got)
            if size > expectedSize {
                throw WorkoutFileError(code: .malformedZip, fileName: fileName, byteOffset: size, message: "entry is longer than its directory size")
            }
            return got
        }
        guard size == expectedSize else {
            throw WorkoutFileError(code: .truncated, fileName: fileName, byteOffset: size,
                                   message: "entry has \(size) bytes, directory says \(expectedSize)")
        }
        guard crc.checksum == expectedCRC else {
            throw WorkoutFileError(code: .badCRC, fileName: fileName, byteOffset: size, message: "entry CRC-32 does not match")
        }
        return 0
    }
}
