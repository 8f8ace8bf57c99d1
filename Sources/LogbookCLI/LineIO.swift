import EventLog
import Foundation

/// Writes lines to a file or standard output through a buffer.
final class LineSink {
    private let handle: FileHandle
    private let ownsHandle: Bool
    private var buffer: [UInt8] = []

    init(path: String?) throws {
        if let path {
            // Exports and other outputs hold user data: the owner's alone.
            guard PrivateFiles.createFile(atPath: path) else { throw CLIError("cannot create \(path)") }
            guard let handle = FileHandle(forWritingAtPath: path) else { throw CLIError("cannot open \(path) for writing") }
            self.handle = handle
            ownsHandle = true
        } else {
            handle = FileHandle.standardOutput
            ownsHandle = false
        }
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ line: String) throws {
        try write { $0.append(contentsOf: line.utf8) }
    }

    /// Writes the line `writeLine` appends to the buffer it is given.
    func write(_ writeLine: (inout [UInt8]) throws -> Void) throws {
        try writeLine(&buffer)
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 { try flush() }
    }

    func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if ownsHandle { try handle.close() }
    }
}

/// Reads a file (or standard input) once, in blocks of whole lines, without loading it whole.
final class LineSource {
    let name: String
    /// The file to read; nil for standard input.
    private let path: String?

    init(path: String) throws {
        if path == "-" {
            self.path = nil
            name = "stdin"
        } else {
            guard FileManager.default.isReadableFile(atPath: path) else { throw CLIError("cannot read \(path)") }
            self.path = path
            name = path
        }
    }

    /// The non-empty lines of a stretch of the file: their 1-based numbers and ranges in `bytes`.
    struct Block: Sendable {
        var bytes: [UInt8]
        var lines: [(number: Int, range: Range<Int>)]
    }

    /// Calls `body` with the file's non-empty lines in blocks of whole lines, read about
    /// `blockBytes` at a time (a longer line is read on until it ends). A `\r` before a line's
    /// newline is not part of the line, nor is a UTF-8 byte order mark before the first.
    func forEachBlock(blockBytes: Int = 4 << 20, _ body: (Block) async throws -> Void) async throws {
        let handle: FileHandle
        if let path {
            guard let file = FileHandle(forReadingAtPath: path) else { throw CLIError("cannot open \(path)") }
            handle = file
        } else {
            handle = FileHandle.standardInput
        }
        defer { if path != nil { try? handle.close() } }
        var pending: [UInt8] = []
        var number = 0
        var first = true
        while true {
            let chunk = try handle.read(upToCount: blockBytes) ?? Data()
            let finished = chunk.isEmpty
            pending.append(contentsOf: chunk)
            if first, pending.count >= 3 || finished {
                first = false
                if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
            }
            // The block ends after its last newline; the rest waits for the next read.
            guard let cut = finished ? pending.count : pending.lastIndex(of: 0x0A).map({ $0 + 1 }) else { continue }
            var bytes = pending
            pending = Array(bytes[cut...])
            bytes.removeSubrange(cut...)
            var lines: [(number: Int, range: Range<Int>)] = []
            var start = 0
            while start < bytes.count {
                let newline = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
                number += 1
                var end = newline
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                if end > start { lines.append((number, start..<end)) }
                start = newline + 1
            }
            if !lines.isEmpty { try await body(Block(bytes: bytes, lines: lines)) }
            if finished { return }
        }
    }
}
