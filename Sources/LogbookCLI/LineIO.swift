import Foundation

/// Writes lines to a file or standard output through a buffer.
final class LineSink {
    private let handle: FileHandle
    private let ownsHandle: Bool
    private var buffer: [UInt8] = []

    init(path: String?) throws {
        if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CLIError("cannot create \(path)") }
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

/// Reads a file (or standard input, spooled to a temporary file first) line
/// by line, in chunks, without loading it whole.
final class LineSource {
    let name: String
    private let path: String
    private let temporary: Bool

    init(path: String) throws {
        if path == "-" {
            let spool = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-import-\(UUID().uuidString).ndjson").path
            guard FileManager.default.createFile(atPath: spool, contents: nil), let out = FileHandle(forWritingAtPath: spool) else {
                throw CLIError("cannot spool standard input to \(spool)")
            }
            while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty { try out.write(contentsOf: chunk) }
            try out.close()
            self.path = spool
            name = "stdin"
            temporary = true
        } else {
            guard FileManager.default.isReadableFile(atPath: path) else { throw CLIError("cannot read \(path)") }
            self.path = path
            name = path
            temporary = false
        }
    }

    func discard() {
        if temporary { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The non-empty lines of a stretch of the file: their 1-based numbers and ranges in `bytes`.
    struct Block: Sendable {
        var bytes: [UInt8]
        var lines: [(number: Int, range: Range<Int>)]
    }

    /// Calls `body` with the file's lines in blocks of whole lines of about `blockBytes` bytes
    /// (a line longer than that is a block of its own).
    func forEachBlock(blockBytes: Int = 4 << 20, _ body: (Block) async throws -> Void) async throws {
        var block = Block(bytes: [], lines: [])
        try await forEachLine { number, bytes, range in
            let start = block.bytes.count
            block.bytes.append(contentsOf: bytes[range])
            block.lines.append((number, start..<block.bytes.count))
            if block.bytes.count >= blockBytes {
                try await body(block)
                block = Block(bytes: [], lines: [])
            }
        }
        if !block.lines.isEmpty { try await body(block) }
    }

    /// Calls `body` with each non-empty line's 1-based number and its bytes (`range` of the
    /// buffer given; the buffer is only valid during the call).
    func forEachLine(_ body: (Int, [UInt8], Range<Int>) async throws -> Void) async throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError("cannot open \(path)") }
        defer { try? handle.close() }
        var buffer: [UInt8] = []
        var start = 0
        var number = 0
        var finished = false
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                number += 1
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                if end > start { try await body(number, buffer, start..<end) }
                start = newline + 1
                continue
            }
            if finished {
                if start < buffer.count { try await body(number + 1, buffer, start..<buffer.count) }
                return
            }
            buffer.removeFirst(start)
            start = 0
            if let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                buffer.append(contentsOf: chunk)
                // A UTF-8 byte order mark (some Windows tools write one) is not part of the first line.
                if number == 0, start == 0, buffer.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
            } else {
                finished = true
            }
        }
    }
}
