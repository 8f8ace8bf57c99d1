import BinaryCoding
import Crypto
package import EventLog
import Foundation
import LMDB

/// The files a backup of a shared log holds: its rows, one kind per file, each a magic line
/// followed by frames (a 4-byte little-endian length, then one row in ``ByteWriter``'s
/// encoding). Written once, hashed as written; read back as a stream, every length and field
/// bounds-checked, so a damaged file is an error naming the file and the frame, never a trap.
package enum RowsFile: String, Sendable, CaseIterable {
    case events = "events.rows"
    case checkpoints = "checkpoints.rows"
    case keptAnswers = "request-keys.rows"
    case userKeys = "user-keys.rows"

    /// The file's first bytes: format and kind.
    package var magic: [UInt8] { Array("logbook rows 1 \(rawValue)\n".utf8) }

    /// What it holds, for the manifest's reader.
    var holds: String {
        switch self {
        case .events: "every event through the head: position, stream and version, id, type, times, metadata and payload bytes"
        case .checkpoints: "every checkpoint (webhooks' records and consumers' positions)"
        case .keptAnswers: "answers to Idempotency-Key requests"
        case .userKeys: "each user's payload key, or the tombstone of an erased user"
        }
    }

    /// The largest frame read: the largest kept answer's body with room for its fields (an event
    /// is bounded lower, by the log's own limit).
    static let maxFrameBytes = KeptAnswer.maxBodyBytes + 64 << 10
}

/// Writes one rows file: frames appended through a buffer, hashed as they pass, made durable
/// at ``finish()``.
package struct RowsFileWriter {
    let kind: RowsFile
    let path: String
    private let handle: FileHandle
    private var hasher = SHA256()
    private var buffer: [UInt8] = []
    private var bytes = 0
    private(set) var rows = 0

    init(_ kind: RowsFile, in directory: String) throws {
        self.kind = kind
        path = directory + "/" + kind.rawValue
        guard PrivateFiles.createFile(atPath: path) else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        buffer = kind.magic
    }

    mutating func write(_ event: RecordedEvent) throws { try frame(Self.row(event)) }
    mutating func write(_ checkpoint: Checkpoint) throws { try frame(Self.row(checkpoint)) }
    mutating func write(_ keyed: KeyedAnswer) throws { try frame(Self.row(keyed)) }
    mutating func write(_ key: UserKeyRow) throws { try frame(Self.row(key)) }

    /// An event's row.
    package static func row(_ event: RecordedEvent) -> [UInt8] {
        var row = ByteWriter(capacity: 96 + event.metadata.count + event.payload.count)
        row.varint(event.position.rawValue)
        row.string(event.stream)
        row.varint(event.streamVersion)
        row.uuid(event.eventId)
        row.string(event.type)
        row.varint(UInt64(event.schemaVersion))
        optional(event.subject, &row) { $1.string($0) }
        row.signedVarint(event.occurredAt.microsecondsSinceEpoch)
        row.signedVarint(Int64(event.occurredAt.utcOffsetSeconds))
        row.signedVarint(event.recordedAt.microsecondsSinceEpoch)
        row.signedVarint(Int64(event.recordedAt.utcOffsetSeconds))
        optional(event.correlationId, &row) { $1.uuid($0) }
        optional(event.causationId, &row) { $1.uuid($0) }
        row.lengthPrefixed(event.metadata)
        row.lengthPrefixed(event.payload)
        return row.bytes
    }

    /// A checkpoint's row.
    package static func row(_ checkpoint: Checkpoint) -> [UInt8] {
        var row = ByteWriter(capacity: 32 + checkpoint.data.count)
        row.string(checkpoint.name)
        row.varint(checkpoint.position.rawValue)
        row.lengthPrefixed(checkpoint.data)
        return row.bytes
    }

    /// A kept answer's row.
    package static func row(_ keyed: KeyedAnswer) -> [UInt8] {
        let answer = keyed.answer
        var row = ByteWriter(capacity: 128 + answer.body.count)
        row.lengthPrefixed(keyed.key)
        row.signedVarint(answer.keptAt)
        row.lengthPrefixed(answer.fingerprint)
        row.varint(UInt64(max(answer.status, 0)))
        optional(answer.entityTag, &row) { $1.string($0) }
        row.lengthPrefixed(answer.body)
        return row.bytes
    }

    /// A user's key row: the user, the key (absent: a tombstone) and whether an erasure is unfinished.
    package static func row(_ key: UserKeyRow) -> [UInt8] {
        var row = ByteWriter(capacity: 48 + key.user.utf8.count)
        row.string(key.user)
        switch key.key {
        case .key(let bytes):
            row.byte(1)
            row.lengthPrefixed(bytes)
        case .erased:
            row.byte(0)
        }
        row.byte(key.erasing ? 1 : 0)
        return row.bytes
    }

    /// A frame: the row's length, 4 bytes little-endian, then the row.
    package static func frame(_ row: [UInt8]) -> [UInt8] {
        var frame = ByteWriter(capacity: 4 + row.count)
        frame.uint32(UInt32(truncatingIfNeeded: row.count))
        frame.append(row)
        return frame.bytes
    }

    /// Flushes, makes the file durable (on a thread of its own: an fsync of a large file waits
    /// on the disk for long) and answers its entry for the manifest.
    mutating func finish() async throws -> BackupFile {
        try flush()
        let handle = self.handle
        try await BlockingWork.onThread {
            try handle.synchronize()
            try handle.close()
        }
        return BackupFile(name: kind.rawValue, bytes: bytes, sha256: hasher.finalize().hex, holds: kind.holds)
    }

    private static func optional<T>(_ value: T?, _ row: inout ByteWriter, _ write: (T, inout ByteWriter) -> Void) {
        guard let value else { return row.byte(0) }
        row.byte(1)
        write(value, &row)
    }

    private mutating func frame(_ row: [UInt8]) throws {
        guard row.count <= RowsFile.maxFrameBytes else {
            throw BackupError.unreadableRows(file: kind.rawValue, row: rows + 1, reason: "a row of \(row.count) bytes is over the limit of \(RowsFile.maxFrameBytes)")
        }
        buffer.append(contentsOf: Self.frame(row))
        rows += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    private mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        hasher.update(data: buffer)
        try handle.write(contentsOf: buffer)
        bytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Reads one rows file frame by frame, in chunks of a mebibyte (or from bytes in memory);
/// every field is checked.
package struct RowsFileReader {
    let kind: RowsFile
    private let handle: FileHandle?
    private var buffer: [UInt8] = []
    private var offset = 0
    private var atEnd = false
    private(set) var rows = 0
    /// The bytes read so far and their SHA-256, checked against the manifest at the end.
    private var hasher = SHA256()
    private var bytesRead = 0

    init(_ kind: RowsFile, in directory: String) throws {
        self.kind = kind
        let path = directory + "/" + kind.rawValue
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BackupError.missingFile(name: kind.rawValue) }
        self.handle = handle
        try readMagic()
    }

    /// A reader of `bytes`, a whole rows file in memory.
    package init(_ kind: RowsFile, bytes: [UInt8]) throws {
        self.kind = kind
        handle = nil
        buffer = bytes
        atEnd = true
        hasher.update(data: bytes)
        bytesRead = bytes.count
        try readMagic()
    }

    private mutating func readMagic() throws {
        let magic = try take(kind.magic.count)
        guard magic == kind.magic else { throw failure("it does not begin with \"logbook rows 1 \(kind.rawValue)\"") }
    }

    func close() { try? handle?.close() }

    /// Once every row is read: the file as read had the manifest's size and SHA-256 (it was
    /// checked before the restore began; this catches a file changed since).
    package mutating func checkAtEnd(against file: BackupFile) throws {
        guard try isAtEnd() else { throw failure("bytes follow the last row") }
        guard bytesRead == file.bytes else { throw BackupError.sizeMismatch(name: file.name, expected: file.bytes, actual: bytesRead) }
        let digest = hasher.finalize().hex
        guard digest == file.sha256 else { throw BackupError.checksumMismatch(name: file.name, expected: file.sha256, actual: digest) }
    }

    /// The next event, or nil at the end of the file.
    package mutating func nextEvent() throws -> RecordedEvent? {
        try nextRow { span, offset throws(DecodeFailure) in
            let position = try ByteReader.varint(span, &offset)
            let stream = try ByteReader.string(span, &offset)
            let version = try ByteReader.varint(span, &offset)
            let id = try ByteReader.uuid(span, &offset)
            let type = try ByteReader.string(span, &offset)
            guard let schema = UInt32(exactly: try ByteReader.varint(span, &offset)) else { throw DecodeFailure(reason: "schema version out of range") }
            let subject = try Self.optional(span, &offset) { span, offset throws(DecodeFailure) in try ByteReader.string(span, &offset) }
            let occurred = try Self.timestamp(span, &offset)
            let recorded = try Self.timestamp(span, &offset)
            let correlation = try Self.optional(span, &offset) { span, offset throws(DecodeFailure) in try ByteReader.uuid(span, &offset) }
            let causation = try Self.optional(span, &offset) { span, offset throws(DecodeFailure) in try ByteReader.uuid(span, &offset) }
            let metadata = Self.copy(span, try ByteReader.lengthPrefixedRange(span, &offset))
            let payload = Self.copy(span, try ByteReader.lengthPrefixedRange(span, &offset))
            let header = EventHeader(
                eventId: id, type: type, schemaVersion: schema, subject: subject, occurredAt: occurred, correlationId: correlation,
                causationId: causation)
            return RecordedEvent(
                envelope: EventEnvelope(position: Position(position), stream: stream, streamVersion: version, recordedAt: recorded, header: header),
                metadata: metadata, payload: payload)
        }
    }

    package mutating func nextCheckpoint() throws -> Checkpoint? {
        try nextRow { span, offset throws(DecodeFailure) in
            let name = try ByteReader.string(span, &offset)
            let position = try ByteReader.varint(span, &offset)
            return Checkpoint(name: name, position: Position(position), data: Self.copy(span, try ByteReader.lengthPrefixedRange(span, &offset)))
        }
    }

    package mutating func nextAnswer() throws -> KeyedAnswer? {
        try nextRow { span, offset throws(DecodeFailure) in
            let key = Self.copy(span, try ByteReader.lengthPrefixedRange(span, &offset))
            let keptAt = try ByteReader.signedVarint(span, &offset)
            let fingerprint = Self.copy(span, try ByteReader.lengthPrefixedRange(span, &offset))
            guard let status = Int(exactly: try ByteReader.varint(span, &offset)), status <= 999 else { throw DecodeFailure(reason: "status out of range") }
            let tag = try Self.optional(span, &offset) { span, offset throws(DecodeFailure) in try ByteReader.string(span, &offset) }
            let body = Self.copy(span, try ByteReader.lengthPrefixedRange(span, &offset))
            return KeyedAnswer(key: key, answer: KeptAnswer(keptAt: keptAt, fingerprint: fingerprint, status: status, entityTag: tag, body: body))
        }
    }

    package mutating func nextUserKey() throws -> UserKeyRow? {
        try nextRow { span, offset throws(DecodeFailure) in
            let user = try ByteReader.string(span, &offset)
            let key = try Self.optional(span, &offset) { span, offset throws(DecodeFailure) in
                Self.copy(span, try ByteReader.lengthPrefixedRange(span, &offset))
            }
            if let key, key.count != 32 { throw DecodeFailure(reason: "a key of \(key.count) bytes, not 32") }
            let erasing = try ByteReader.byte(span, &offset)
            guard erasing <= 1 else { throw DecodeFailure(reason: "erasing flag \(erasing)") }
            return UserKeyRow(user: user, key: key.map { .key($0) } ?? .erased, erasing: erasing == 1)
        }
    }

    /// Reads one frame and decodes it whole with `decode`, or answers nil at a clean end.
    private mutating func nextRow<T>(_ decode: (Span<UInt8>, inout Int) throws(DecodeFailure) -> T) throws -> T? {
        guard try !isAtEnd() else { return nil }
        var length = ByteWriter(capacity: 4)
        length.append(try take(4))
        let count = Int(length.bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self).littleEndian })
        guard count <= RowsFile.maxFrameBytes else { throw failure("row \(rows + 1) claims \(count) bytes, over the limit of \(RowsFile.maxFrameBytes)") }
        let row = try take(count)
        rows += 1
        do throws(DecodeFailure) {
            var offset = 0
            let value = try decode(row.span, &offset)
            guard offset == row.count else { throw DecodeFailure(reason: "\(row.count - offset) bytes left over") }
            return value
        } catch {
            throw BackupError.unreadableRows(file: kind.rawValue, row: rows, reason: error.reason)
        }
    }

    private static func timestamp(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> Timestamp {
        let micros = try ByteReader.signedVarint(span, &offset)
        guard let seconds = Int32(exactly: try ByteReader.signedVarint(span, &offset)) else { throw DecodeFailure(reason: "UTC offset out of range") }
        return Timestamp(microsecondsSinceEpoch: micros, utcOffsetSeconds: seconds)
    }

    private static func optional<T>(
        _ span: Span<UInt8>, _ offset: inout Int, _ read: (Span<UInt8>, inout Int) throws(DecodeFailure) -> T
    ) throws(DecodeFailure) -> T? {
        switch try ByteReader.byte(span, &offset) {
        case 0: return nil
        case 1: return try read(span, &offset)
        case let other: throw DecodeFailure(reason: "presence byte \(other)")
        }
    }

    private static func copy(_ span: Span<UInt8>, _ range: Range<Int>) -> [UInt8] { span.extracting(range).copiedBytes() }

    private func failure(_ reason: String) -> BackupError {
        BackupError.unreadableRows(file: kind.rawValue, row: rows, reason: reason)
    }

    private mutating func isAtEnd() throws -> Bool {
        if offset < buffer.count { return false }
        try refill()
        return offset >= buffer.count
    }

    /// The next `count` bytes; a file that ends first is truncated.
    private mutating func take(_ count: Int) throws -> [UInt8] {
        var taken: [UInt8] = []
        taken.reserveCapacity(count)
        while taken.count < count {
            if offset >= buffer.count {
                try refill()
                guard offset < buffer.count else { throw failure("the file ends inside row \(rows + 1): it is truncated") }
            }
            let available = min(count - taken.count, buffer.count - offset)
            taken.append(contentsOf: buffer[offset..<(offset + available)])
            offset += available
        }
        return taken
    }

    private mutating func refill() throws {
        guard !atEnd, let handle else {
            atEnd = true
            return
        }
        let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
        if chunk.isEmpty { atEnd = true }
        hasher.update(data: chunk)
        bytesRead += chunk.count
        buffer = Array(chunk)
        offset = 0
    }
}
