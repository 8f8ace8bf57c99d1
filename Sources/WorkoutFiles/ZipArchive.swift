import Foundation

/// Reads the central directory of a zip file (ZIP64 included) and opens entries as streams:
/// stored entries are read as they are, deflated ones through `InflateSource` (zlib); every
/// entry's CRC-32 and size are checked when its stream ends, and what entries may inflate to is
/// bounded by `ParseOptions` (per entry, by compression ratio, and for the whole archive).
///
/// Every size and offset the file states is checked before it is used: converted with
/// `Int64(exactly:)`, added without overflow, and compared with the file's size by subtraction.
/// Whatever does not fit is `malformedZip` (or `truncated`, or `limitExceeded`) naming the value
/// and where it was read.
final class ZipArchive {
    /// One central-directory entry, with its sizes and offset as the directory states them.
    struct Entry: Hashable {
        var name: String
        var method: UInt16
        var flags: UInt16
        var crc32: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
        /// Where this entry's central-directory record starts in the file.
        var recordOffset: Int64
    }

    /// Most entries a central directory may list (an Apple Health export has a few thousand).
    static let maxEntries: UInt64 = 2_000_000
    /// Largest central directory read into memory.
    static let maxDirectoryBytes: UInt64 = 256 << 20

    let url: URL
    let fileName: String
    let options: ParseOptions
    private(set) var entries: [Entry] = []
    /// Entry index by full name, and by name without its first folder ("apple_health_export/…").
    private var byName: [String: Int] = [:]
    private var byInnerName: [String: Int] = [:]
    /// Bytes the entries opened so far declare, against `ParseOptions.maxInflatedBytesPerFile`.
    private var declaredTotal: UInt64 = 0

    init(url: URL, fileName: String, options: ParseOptions = ParseOptions()) throws {
        self.url = url
        self.fileName = fileName
        self.options = options
        let file = try FileByteSource(url: url, name: fileName, deadline: options.readDeadline)
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
        let eocdOffset = size - Int64(tailLength - eocd)
        var count = UInt64(Self.u16(tail, eocd + 10))
        var directorySize = UInt64(Self.u32(tail, eocd + 12))
        var directoryOffset = UInt64(Self.u32(tail, eocd + 16))
        var directoryFrom = eocdOffset
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            guard eocd >= 20, Self.u32(tail, eocd - 20) == 0x0706_4B50 else {
                throw fail(.malformedZip, eocdOffset, "ZIP64 values without a ZIP64 locator")
            }
            let stated = Self.u64(tail, eocd - 12)
            guard let recordOffset = Int64(exactly: stated), size >= 56, recordOffset <= size - 56 else {
                throw fail(.malformedZip, eocdOffset - 12,
                           "the ZIP64 end-of-central-directory record offset \(stated) is not inside the \(size)-byte file")
            }
            try file.seek(to: recordOffset)
            let record = try Self.readExactly(file, 56, fileName)
            guard Self.u32(record, 0) == 0x0606_4B50 else { throw fail(.malformedZip, recordOffset, "bad ZIP64 record") }
            count = Self.u64(record, 32)
            directorySize = Self.u64(record, 40)
            directoryOffset = Self.u64(record, 48)
            directoryFrom = recordOffset
        }
        guard count <= Self.maxEntries else {
            throw fail(.limitExceeded, directoryFrom, "the central directory lists \(count) entries; at most \(Self.maxEntries) are read")
        }
        guard directorySize <= Self.maxDirectoryBytes else {
            throw fail(.limitExceeded, directoryFrom,
                       "the central directory is \(directorySize) bytes; at most \(Self.maxDirectoryBytes) are read")
        }
        // Both values are compared with the file's size before either becomes an Int64.
        guard directoryOffset <= UInt64(size), directorySize <= UInt64(size) - directoryOffset else {
            throw fail(.malformedZip, directoryFrom,
                       "the central directory (\(directorySize) bytes at offset \(directoryOffset)) lies outside the \(size)-byte file")
        }
        let directoryStart = Int64(directoryOffset)
        try file.seek(to: directoryStart)
        let directory = try Self.readExactly(file, Int(directorySize), fileName)
        entries.reserveCapacity(Int(min(count, directorySize / 46)))
        var position = 0
        for _ in 0..<count {
            let recordOffset = directoryStart + Int64(position)
            guard directory.count - position >= 46, Self.u32(directory, position) == 0x0201_4B50 else {
                throw fail(.malformedZip, recordOffset, "bad central directory entry")
            }
            let nameLength = Int(Self.u16(directory, position + 28))
            let extraLength = Int(Self.u16(directory, position + 30))
            let commentLength = Int(Self.u16(directory, position + 32))
            let end = position + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else { throw fail(.malformedZip, recordOffset, "entry runs past the directory") }
            var entry = Entry(
                name: String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self),
                method: Self.u16(directory, position + 10), flags: Self.u16(directory, position + 8),
                crc32: Self.u32(directory, position + 16), compressedSize: UInt64(Self.u32(directory, position + 20)),
                uncompressedSize: UInt64(Self.u32(directory, position + 24)),
                localHeaderOffset: UInt64(Self.u32(directory, position + 42)), recordOffset: recordOffset)
            Self.applyZIP64Extra(&entry, directory, from: position + 46 + nameLength, length: extraLength)
            if byName[entry.name] == nil { byName[entry.name] = entries.count }
            if let slash = entry.name.firstIndex(of: "/") {
                let inner = String(entry.name[entry.name.index(after: slash)...])
                if byInnerName[inner] == nil { byInnerName[inner] = entries.count }
            }
            entries.append(entry)
            position = end
        }
    }

    /// Replaces 0xFFFF_FFFF sizes and offset with the ZIP64 extra field's 64-bit values (in the
    /// order the format gives them, each present only when its 32-bit field is 0xFFFF_FFFF).
    private static func applyZIP64Extra(_ entry: inout Entry, _ directory: [UInt8], from start: Int, length: Int) {
        var extra = start
        let extraEnd = start + length
        while extraEnd - extra >= 4 {
            let id = u16(directory, extra), fieldLength = Int(u16(directory, extra + 2))
            let fieldEnd = min(extraEnd, extra + 4 + fieldLength)
            var field = extra + 4
            if id == 0x0001 {
                if entry.uncompressedSize == 0xFFFF_FFFF, fieldEnd - field >= 8 { entry.uncompressedSize = u64(directory, field); field += 8 }
                if entry.compressedSize == 0xFFFF_FFFF, fieldEnd - field >= 8 { entry.compressedSize = u64(directory, field); field += 8 }
                if entry.localHeaderOffset == 0xFFFF_FFFF, fieldEnd - field >= 8 { entry.localHeaderOffset = u64(directory, field) }
            }
            extra += 4 + fieldLength
        }
    }

    private func fail(_ code: WorkoutFileError.Code, _ offset: Int64, _ message: String) -> WorkoutFileError {
        WorkoutFileError(code: code, fileName: fileName, byteOffset: offset, message: message)
    }

    /// The first entry named `name`, else the first named `name` inside one top folder (an
    /// Apple Health export's entries sit in `apple_health_export/`). A lookup costs one hash,
    /// whatever the number of entries.
    func entry(named name: String) -> Entry? {
        (byName[name] ?? byInnerName[name]).map { entries[$0] }
    }

    /// Opens an entry's content as a stream.
    func open(_ entry: Entry) throws -> any ByteSource {
        let label = "\(fileName)/\(entry.name)"
        guard entry.flags & 1 == 0 else { throw fail(.unsupported, entry.recordOffset, "\(entry.name) is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw fail(.unsupported, entry.recordOffset, "\(entry.name) uses compression method \(entry.method)")
        }
        let file = try FileByteSource(url: url, name: fileName, deadline: options.readDeadline)
        let size = try file.size()
        guard let headerOffset = Int64(exactly: entry.localHeaderOffset), size >= 30, headerOffset <= size - 30 else {
            throw fail(.malformedZip, entry.recordOffset,
                       "\(entry.name): local header offset \(entry.localHeaderOffset) is not inside the \(size)-byte file")
        }
        try file.seek(to: headerOffset)
        let header = try Self.readExactly(file, 30, fileName)
        guard Self.u32(header, 0) == 0x0403_4B50 else { throw fail(.malformedZip, headerOffset, "bad local header") }
        // headerOffset + 30 <= size, and the two lengths are at most 65,535 each: no overflow.
        let dataStart = headerOffset + 30 + Int64(Self.u16(header, 26)) + Int64(Self.u16(header, 28))
        guard dataStart <= size, entry.compressedSize <= UInt64(size - dataStart) else {
            throw fail(.truncated, headerOffset,
                       "\(entry.name): \(entry.compressedSize) compressed bytes from offset \(dataStart) run past the end of the \(size)-byte archive")
        }
        // Limits by the sizes the directory declares, before a byte is inflated; the entry's
        // stream then fails if it gives more than it declared (CheckedByteSource).
        let limit = InflationLimit(options, entry: label)
        try limit.checkDeclared(uncompressed: entry.uncompressedSize, compressed: entry.compressedSize,
                                deflated: entry.method == 8, fileName: fileName, offset: entry.recordOffset)
        let perFile = UInt64(max(0, options.maxInflatedBytesPerFile))
        guard declaredTotal <= perFile, entry.uncompressedSize <= perFile - declaredTotal else {
            throw fail(.limitExceeded, entry.recordOffset,
                       "\(entry.name) would bring the entries read from this archive past \(perFile) bytes (ParseOptions.maxInflatedBytesPerFile)")
        }
        declaredTotal += entry.uncompressedSize
        try file.seek(to: dataStart)
        let range = RangeByteSource(base: file, length: Int64(entry.compressedSize))
        let content: any ByteSource = entry.method == 0 ? range : try InflateSource(input: range, fileName: label, limit: limit)
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
