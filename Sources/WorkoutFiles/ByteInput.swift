import Foundation

/// A forward-only supply of bytes (a file, a memory buffer, a zip entry, an inflate stream).
protocol ByteSource: AnyObject {
    /// Copies up to `buffer.count` bytes into `buffer`; returns 0 only at the end of input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Reads a file through a `FileHandle` in chunks, never holding the whole file.
final class FileByteSource: ByteSource {
    private let handle: FileHandle
    private let name: String
    private let deadline: ContinuousClock.Instant?
    private(set) var bytesRead: Int64 = 0

    /// Opens `url`; reads throw `timeLimitExceeded` once `deadline` (if any) has passed.
    init(url: URL, name: String, deadline: ContinuousClock.Instant?) throws {
        self.name = name
        self.deadline = deadline
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw WorkoutFileError(code: .io, fileName: name, message: "cannot open file: \(error.localizedDescription)")
        }
    }

    deinit { try? handle.close() }

    /// Moves to an absolute offset (used by the zip reader); a negative one is an error, not a trap.
    func seek(to offset: Int64) throws {
        guard offset >= 0 else {
            throw WorkoutFileError(code: .malformedZip, fileName: name, byteOffset: offset, message: "cannot seek to a negative offset")
        }
        do {
            try handle.seek(toOffset: UInt64(offset))
            bytesRead = offset
        } catch {
            throw WorkoutFileError(code: .io, fileName: name, byteOffset: offset, message: "cannot seek: \(error.localizedDescription)")
        }
    }

    /// Size of the file in bytes.
    func size() throws -> Int64 {
        do {
            let end = try handle.seekToEnd()
            try handle.seek(toOffset: UInt64(bytesRead))
            guard let size = Int64(exactly: end) else {
                throw WorkoutFileError(code: .io, fileName: name, message: "file size \(end) is out of range")
            }
            return size
        } catch let error as WorkoutFileError {
            throw error
        } catch {
            throw WorkoutFileError(code: .io, fileName: name, message: "cannot stat: \(error.localizedDescription)")
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        if let deadline, ContinuousClock.now >= deadline {
            throw WorkoutFileError(code: .timeLimitExceeded, fileName: name, byteOffset: bytesRead,
                                   message: "reading the file took longer than allowed (ParseOptions.readDeadline)")
        }
        let data: Data?
        do {
            data = try handle.read(upToCount: buffer.count)
        } catch {
            throw WorkoutFileError(code: .io, fileName: name, byteOffset: bytesRead, message: "read failed: \(error.localizedDescription)")
        }
        guard let data, !data.isEmpty else { return 0 }
        let count = min(data.count, buffer.count)
        data.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress!, byteCount: count)
        }
        bytesRead += Int64(count)
        return count
    }
}

/// Serves bytes from memory (tests, small entries, fuzzing).
final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + position, byteCount: count)
        }
        position += count
        return count
    }
}

/// A growable look-ahead window over a `ByteSource`.
///
/// Readers look at `pointer[start..<end]`; `fill(atLeast:)` makes more bytes available
/// contiguously, moving unconsumed bytes to the front. Memory is bounded by `maxCapacity`.
final class ByteWindow {
    let source: any ByteSource
    @exclusivity(unchecked) private(set) var storage: UnsafeMutableRawPointer
    @exclusivity(unchecked) private(set) var capacity: Int
    /// First unconsumed byte.
    @exclusivity(unchecked) var start = 0
    /// One past the last valid byte.
    @exclusivity(unchecked) private(set) var end = 0
    /// Absolute input offset of `storage[0]`.
    @exclusivity(unchecked) private(set) var baseOffset: Int64 = 0
    @exclusivity(unchecked) private(set) var atEOF = false
    let chunkSize: Int
    let maxCapacity: Int
    /// Sees every byte before it is dropped from the window (line counting, hashing).
    var onDiscard: ((UnsafeRawBufferPointer) -> Void)?

    init(source: any ByteSource, chunkSize: Int = 1 << 20, maxCapacity: Int = 64 << 20) {
        self.source = source
        self.chunkSize = chunkSize
        self.maxCapacity = max(maxCapacity, chunkSize * 2)
        self.capacity = chunkSize * 2
        self.storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Bytes available from `start`.
    @inline(__always) var available: Int { end - start }
    /// Absolute offset of `start`.
    var offset: Int64 { baseOffset + Int64(start) }
    /// Byte pointer for fast scanning.
    @inline(__always) var bytes: UnsafeMutablePointer<UInt8> { storage.assumingMemoryBound(to: UInt8.self) }

    /// Ensures `count` bytes are available from `start` unless input ends first;
    /// returns how many are available. Throws `limitExceeded` past `maxCapacity`.
    @discardableResult
    func fill(atLeast count: Int) throws -> Int {
        if end - start >= count || atEOF { return end - start }
        if start > 0 {
            onDiscard?(UnsafeRawBufferPointer(start: storage, count: start))
            let keep = end - start
            if keep > 0 { storage.copyMemory(from: storage + start, byteCount: keep) }
            baseOffset += Int64(start)
            start = 0
            end = keep
        }
        if count + chunkSize > capacity {
            guard count <= maxCapacity else {
                throw LimitError(needed: count)
            }
            let newCapacity = min(maxCapacity + chunkSize, max(capacity * 2, count + chunkSize))
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
            bigger.copyMemory(from: storage, byteCount: end)
            storage.deallocate()
            storage = bigger
            capacity = newCapacity
        }
        while end - start < count && !atEOF {
            let room = capacity - end
            let got = try source.read(into: UnsafeMutableRawBufferPointer(start: storage + end, count: room))
            if got == 0 { atEOF = true } else { end += got }
        }
        return end - start
    }

    /// Thrown by `fill` when a single token would need more than `maxCapacity` bytes.
    struct LimitError: Error { var needed: Int }
}

extension WorkoutFileError {
    /// Converts a window limit into a `limitExceeded` error.
    static func limit(_ name: String, offset: Int64, what: String) -> WorkoutFileError {
        WorkoutFileError(code: .limitExceeded, fileName: name, byteOffset: offset,
                         message: "\(what) is larger than the reader's bound")
    }
}
