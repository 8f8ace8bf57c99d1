import Foundation
import Logbook

/// What the checking pass of `logbook import` validated, held for the writing pass in the events'
/// compact binary form: in memory up to a bound, then in a temporary spill file, so the JSON is
/// parsed once and memory stays bounded whatever the file's size.
final class ImportSpill {
    /// Records held in memory before they go to the spill file.
    private static let memoryBound = 64 << 20
    /// Bytes read from the spill file at a time.
    private static let readChunk = 8 << 20

    private var memory: [UInt8] = []
    private var file: FileHandle?
    private var path: String?
    private(set) var count = 0

    /// Adds one event (a varint length, then its compact form).
    func append(_ event: WireEvent) throws {
        let record = event.compactBytes
        var length = UInt64(record.count)
        while length >= 0x80 { memory.append(UInt8(truncatingIfNeeded: length) | 0x80); length >>= 7 }
        memory.append(UInt8(length))
        memory.append(contentsOf: record)
        count += 1
        if memory.count >= Self.memoryBound { try spill() }
    }

    private func spill() throws {
        if file == nil {
            let spillPath = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-import-\(UUID().uuidString).spill").path
            guard FileManager.default.createFile(atPath: spillPath, contents: nil, attributes: [.posixPermissions: 0o600]), let handle = FileHandle(forUpdatingAtPath: spillPath) else {
                throw CLIError("cannot create the import's spill file \(spillPath)")
            }
            file = handle
            path = spillPath
        }
        try file?.write(contentsOf: memory)
        memory.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with batches of the events, in order, of at most `batchSize` events.
    func forEachBatch(of batchSize: Int, _ body: ([WireEvent]) async throws -> Void) async throws {
        var batch: [WireEvent] = []
        batch.reserveCapacity(batchSize)
        func take(_ bytes: [UInt8]) async throws -> Int {
            var offset = 0
            while let (start, end) = Self.record(in: bytes, at: offset) {
                batch.append(try WireEvent(compact: bytes.span.extracting(start..<end)))
                offset = end
                if batch.count == batchSize { try await body(batch); batch.removeAll(keepingCapacity: true) }
            }
            return offset
        }
        if let file {
            try file.seek(toOffset: 0)
            var pending: [UInt8] = []
            while let chunk = try file.read(upToCount: Self.readChunk), !chunk.isEmpty {
                pending.append(contentsOf: chunk)
                pending.removeFirst(try await take(pending))
            }
            guard pending.isEmpty else { throw CLIError("the import's spill file ends inside a record") }
        }
        let used = try await take(memory)
        guard used == memory.count else { throw CLIError("the import's held events end inside a record") }
        if !batch.isEmpty { try await body(batch) }
    }

    /// The bounds of the record at `offset`, if it is there whole.
    private static func record(in bytes: [UInt8], at offset: Int) -> (Int, Int)? {
        var length = 0
        var shift = 0
        var index = offset
        while index < bytes.count, shift < 63 {
            let byte = bytes[index]
            index += 1
            length |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return length <= bytes.count - index ? (index, index + length) : nil }
            shift += 7
        }
        return nil
    }

    /// Removes the spill file.
    func discard() {
        try? file?.close()
        if let path { try? FileManager.default.removeItem(atPath: path) }
        file = nil
        path = nil
    }
}
