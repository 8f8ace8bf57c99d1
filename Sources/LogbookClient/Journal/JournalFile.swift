#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A journal's file: one line per ``JournalRecord``, each `<checksum> <JSON>\n`, appended and
/// flushed to the disk (`fsync`) before the call that wrote it returns.
///
/// - A process holds the file locked (`flock`) while it has it open: a second journal on the same
///   file is refused with ``CommandJournalError/inUse(_:)``.
/// - A crash can leave a last line written in part; opening drops it (it was never acknowledged).
///   A damaged line before the last is refused with ``CommandJournalError/damaged(_:line:)``:
///   nothing is dropped silently.
/// - ``rewrite(_:)`` replaces the file by a shorter one holding only what is still live: written
///   beside it, flushed, renamed over it, and the directory flushed.
final class JournalFile {
    let path: String
    private var descriptor: Int32
    /// The file's length in bytes.
    private(set) var bytes: Int

    /// The largest file opened (a journal's own file never grows past twice its limit).
    static let largestFile = 1 << 30

    /// Opens (creating) the file at `path` and reads its records, in order.
    init(path: String) throws(CommandJournalError) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .file(path, Self.failure("open")) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = Self.failure("flock")
            systemClose(descriptor)
            throw busy ? .inUse(path) : .file(path, reason)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size <= Self.largestFile else {
            let reason = Self.failure("fstat")
            systemClose(descriptor)
            throw status.st_size > Self.largestFile ? .damaged(path, line: 0) : .file(path, reason)
        }
        self.descriptor = descriptor
        bytes = Int(status.st_size)
        // A file just made: its name is flushed too, so a power cut cannot take the whole file.
        if bytes == 0 { Self.syncDirectory(of: path) }
    }

    deinit { close() }

    /// Closes the file (and gives up its lock); later writes fail with ``CommandJournalError/closed(_:)``.
    func close() {
        if descriptor >= 0 { systemClose(descriptor) }
        descriptor = -1
    }

    /// The file's records. A last line written in part is cut off the file.
    func records() throws(CommandJournalError) -> [JournalRecord] {
        var content = [UInt8](repeating: 0, count: bytes)
        var read = 0
        while read < bytes {
            let count = content.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + read, bytes - read, off_t(read)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .file(path, Self.failure("read")) }
            read += count
        }
        var records: [JournalRecord] = []
        var start = 0
        var line = 0
        while start < content.count {
            line += 1
            let end = content[start...].firstIndex(of: UInt8(ascii: "\n"))
            let record = end.flatMap { Self.decode(content[start..<$0]) }
            guard let end, let record else {
                // Only the last line may be torn: cut it off.
                guard end == nil || end == content.count - 1 else { throw .damaged(path, line: line) }
                guard ftruncate(descriptor, off_t(start)) == 0, fsync(descriptor) == 0 else { throw .file(path, Self.failure("ftruncate")) }
                bytes = start
                break
            }
            records.append(record)
            start = end + 1
        }
        return records
    }

    /// Appends `records` and flushes them to the disk.
    func append(_ records: [JournalRecord]) throws(CommandJournalError) {
        guard descriptor >= 0 else { throw .closed(path) }
        let lines = try Self.lines(records)
        try Self.write(lines, to: descriptor, at: bytes, path: path)
        guard fsync(descriptor) == 0 else { throw .file(path, Self.failure("fsync")) }
        bytes += lines.count
    }

    /// The bytes `record` takes as a line.
    static func size(of record: JournalRecord) throws(CommandJournalError) -> Int { try lines([record]).count }

    /// Replaces the file with one holding `records` alone.
    func rewrite(_ records: [JournalRecord]) throws(CommandJournalError) {
        guard descriptor >= 0 else { throw .closed(path) }
        let lines = try Self.lines(records)
        let temporary = path + ".new"
        let fresh = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fresh >= 0 else { throw .file(temporary, Self.failure("open")) }
        do throws(CommandJournalError) {
            try Self.write(lines, to: fresh, at: 0, path: temporary)
            guard fsync(fresh) == 0 else { throw .file(temporary, Self.failure("fsync")) }
            guard flock(fresh, LOCK_EX | LOCK_NB) == 0 else { throw .file(temporary, Self.failure("flock")) }
            guard rename(temporary, path) == 0 else { throw .file(path, Self.failure("rename")) }
        } catch {
            systemClose(fresh)
            unlink(temporary)
            throw error
        }
        Self.syncDirectory(of: path)
        close()
        descriptor = fresh
        bytes = lines.count
    }

    /// Flushes the directory holding `path` (its entries: a file made or renamed there).
    private static func syncDirectory(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        guard directory >= 0 else { return }
        fsync(directory)
        systemClose(directory)
    }

    // MARK: Lines

    private static func lines(_ records: [JournalRecord]) throws(CommandJournalError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var lines: [UInt8] = []
        for record in records {
            let json: Data
            do { json = try encoder.encode(record) } catch { throw .file("", "cannot encode a record: \(error)") }
            lines += hex(checksum(json)).utf8
            lines.append(UInt8(ascii: " "))
            lines += json
            lines.append(UInt8(ascii: "\n"))
        }
        return lines
    }

    private static func decode(_ line: ArraySlice<UInt8>) -> JournalRecord? {
        guard line.count > 17, line[line.startIndex + 16] == UInt8(ascii: " ") else { return nil }
        let json = Data(line.dropFirst(17))
        guard String(decoding: line.prefix(16), as: UTF8.self) == hex(checksum(json)) else { return nil }
        return try? JSONDecoder().decode(JournalRecord.self, from: json)
    }

    /// FNV-1a, 64 bits: finds a line cut short or overwritten, not a forgery (the file is the app's own).
    private static func checksum(_ bytes: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int, path: String) throws(CommandJournalError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, bytes.count - written, off_t(offset + written)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .file(path, failure("write")) }
            written += count
        }
    }

    private static func failure(_ call: String) -> String { "\(call): \(String(cString: strerror(errno)))" }
}

/// The system's `close`, named apart from ``JournalFile/close()``.
private func systemClose(_ descriptor: Int32) {
    _ = close(descriptor)
}
