import Foundation

/// Writes lines to a file or standard output through a buffer.
final class LineSink {
    private let handle: FileHandle
    private let ownsHandle: Bool
    private var buffer = Data()

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
        buffer.append(contentsOf: line.utf8)
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

/// Reads a file (or standard input, spooled to a temporary file so it can be read twice) line
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

    /// Calls `body` with each non-empty line and its 1-based number.
    func forEachLine(_ body: (Int, String) throws -> Void) throws {
        var lines = try Lines(path: path)
        while let (number, line) = try lines.next() { try body(number, line) }
    }

    func forEachLineAsync(_ body: (Int, String) async throws -> Void) async throws {
        var lines = try Lines(path: path)
        while let (number, line) = try lines.next() { try await body(number, line) }
    }

    private struct Lines {
        let handle: FileHandle
        var buffer: [UInt8] = []
        var start = 0
        var number = 0
        var finished = false

        init(path: String) throws {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError("cannot open \(path)") }
            self.handle = handle
        }

        mutating func next() throws -> (Int, String)? {
            while true {
                if let newline = buffer[start...].firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                    start = newline + 1
                    number += 1
                    if line.isEmpty { continue }
                    return (number, line)
                }
                if finished {
                    guard start < buffer.count else { return nil }
                    let line = String(decoding: buffer[start...], as: UTF8.self)
                    start = buffer.count
                    number += 1
                    return (number, line)
                }
                buffer.removeFirst(start)
                start = 0
                if let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                    buffer.append(contentsOf: chunk)
                } else {
                    finished = true
                    try handle.close()
                }
            }
        }
    }
}
