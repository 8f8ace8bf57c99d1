import EventLog
import Foundation

/// The JSON line of a ``WireEvent``: written canonically (the envelope's keys in their fixed
/// order, then `metadata` and `data` with sorted keys) and read strictly in one pass over the
/// bytes, `data` decoded straight into its payload type. Errors name the field and the column.
extension WireEvent {
    /// The canonical JSON line (without the newline).
    public var jsonLine: String { String(decoding: jsonBytes, as: UTF8.self) }

    /// The canonical JSON line's UTF-8 bytes (without the newline).
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        appendJSON(to: &out)
        return out
    }

    /// Appends the canonical JSON line (without the newline) to `out`.
    public func appendJSON(to out: inout [UInt8]) {
        var w = JSONWriter(adopting: out)
        out = []
        write(to: &w)
        out = w.bytes
    }

    func write(to w: inout JSONWriter) {
        w.raw("{\"position\":")
        if let position { w.uint(UInt(position)) } else { w.null() }
        w.raw(",\"stream\":"); w.string(envelope.stream)
        w.raw(",\"streamVersion\":"); w.uint(UInt(envelope.streamVersion))
        w.raw(",\"eventId\":"); w.uuid(envelope.eventId)
        w.raw(",\"type\":"); w.string(type.rawValue)
        w.raw(",\"schemaVersion\":"); w.uint(UInt(schemaVersion))
        w.raw(",\"subject\":")
        if let subject = envelope.subject { w.string(subject) } else { w.null() }
        w.raw(",\"occurredAt\":"); w.timestamp(envelope.occurredAt)
        w.raw(",\"recordedAt\":"); w.timestamp(envelope.recordedAt)
        w.raw(",\"correlationId\":")
        if let id = envelope.correlationId { w.uuid(id) } else { w.null() }
        w.raw(",\"causationId\":")
        if let id = envelope.causationId { w.uuid(id) } else { w.null() }
        w.raw(",\"metadata\":"); w.raw(metadata.utf8)
        guard let event else { w.raw(",\"data\":null,\"erased\":true}"); return }
        w.raw(",\"data\":")
        PayloadJSONWriting.write(event, to: &w)
        w.raw(UInt8(ascii: "}"))
    }

    /// Parses one line of the wire form, strictly: every field is checked and an error names the
    /// first one that is wrong, with its column.
    public init(jsonLine: String) throws(LogbookError) {
        try self.init(jsonBytes: Array(jsonLine.utf8))
    }

    /// Parses one line of the wire form from its UTF-8 bytes (`range` of them, default all).
    public init(jsonBytes bytes: [UInt8], in range: Range<Int>? = nil) throws(LogbookError) {
        var reader = JSONReader(bytes, in: range)
        // Facts in the wire form are held to the schemas' value ranges too.
        reader.checksSchemaRanges = true
        var parts = EnvelopeParts()
        do {
            try parts.read(&reader)
            try reader.expectEnd()
        } catch {
            throw Self.failure(error, type: parts.typeName)
        }
        try self.init(parts, bytes: bytes, origin: range?.lowerBound ?? 0)
    }

    private init(_ parts: EnvelopeParts, bytes: [UInt8], origin: Int) throws(LogbookError) {
        guard let typeName = parts.typeName else { throw .invalidArgument(name: "type", reason: "required field is missing") }
        guard let type = EventType(rawValue: typeName) else { throw .coding(.unknownEventType(typeName)) }
        guard let version = parts.schemaVersion else { throw .invalidArgument(name: "schemaVersion", reason: "required field is missing") }
        guard version <= UInt64(UInt32.max), type.schemaVersions.contains(UInt32(version)) else {
            throw .coding(.unknownSchemaVersion(type: typeName, version: UInt32(clamping: version)))
        }
        let schemaVersion = UInt32(version)
        var event: DomainEvent?
        switch parts.data {
        case .absent: throw .invalidArgument(name: "data", reason: "required field is missing")
        case .null: event = nil
        case .decoded(let decoded): event = decoded
        case .deferred(let range):
            var reader = JSONReader(bytes, in: range, origin: origin)
            reader.checksSchemaRanges = true
            do {
                event = try PayloadJSONReading.read(type, schemaVersion: schemaVersion, from: &reader)
            } catch {
                throw Self.failure(error.under("data"), type: typeName)
            }
        }
        if parts.erased {
            guard event == nil else { throw .invalidArgument(name: "data", reason: "a tombstone (erased) has null data") }
        } else if event == nil {
            throw .invalidArgument(name: "data", reason: "must not be null (only a tombstone, with \"erased\":true, has null data)")
        }
        func required<T>(_ value: T?, _ name: String) throws(LogbookError) -> T {
            guard let value else { throw .invalidArgument(name: name, reason: "required field is missing") }
            return value
        }
        let stream = try required(parts.stream, "stream")
        let streamVersion = try required(parts.streamVersion, "streamVersion")
        let eventId = try required(parts.eventId, "eventId")
        let occurredAt = try required(parts.occurredAt, "occurredAt")
        let recordedAt = try required(parts.recordedAt, "recordedAt")
        guard let event else {
            guard parts.subject != nil else { throw .invalidArgument(name: "subject", reason: "a tombstone is an erased user's event: it names the user") }
            self.init(tombstone: EventEnvelope(
                position: Position(parts.position ?? 0), stream: stream, streamVersion: streamVersion, recordedAt: recordedAt,
                header: EventHeader(
                    eventId: eventId, type: typeName, schemaVersion: schemaVersion, subject: parts.subject, occurredAt: occurredAt,
                    correlationId: parts.correlationId, causationId: parts.causationId)), type: type, metadata: parts.metadata)
            return
        }
        self.init(
            position: parts.position, stream: stream, streamVersion: streamVersion, eventId: eventId, subject: parts.subject,
            occurredAt: occurredAt, recordedAt: recordedAt, correlationId: parts.correlationId, causationId: parts.causationId,
            metadata: parts.metadata, event: event)
    }

    /// A reader's error as Logbook's: text that is not JSON names the event; a `data` field is
    /// the payload codec's error for `type`; an envelope field is an invalid argument.
    static func failure(_ error: JSONReadError, type: String?) -> LogbookError {
        if error.syntax { return .invalidArgument(name: "event", reason: "not JSON: \(error.reasonWithColumn)") }
        if let type, error.field == "data" || error.field.hasPrefix("data.") || error.field.hasPrefix("data[") {
            return .coding(.invalidJSON(type: type, field: error.field, reason: error.reasonWithColumn))
        }
        return .invalidArgument(name: error.field.isEmpty ? "event" : error.field, reason: error.reasonWithColumn)
    }
}

/// The envelope's members as they are read, before the event is put together.
private struct EnvelopeParts {
    enum Payload {
        case absent
        case null
        case decoded(DomainEvent)
        /// Came before the type or its schema version: read once those are known.
        case deferred(Range<Int>)
    }

    var position: UInt64?
    var sawPosition = false
    var stream: String?
    var streamVersion: UInt64?
    var eventId: UUID?
    var typeName: String?
    var schemaVersion: UInt64?
    var subject: String?
    var sawSubject = false
    var occurredAt: Timestamp?
    var recordedAt: Timestamp?
    var correlationId: UUID?
    var sawCorrelation = false
    var causationId: UUID?
    var sawCausation = false
    var metadata = "{}"
    var sawMetadata = false
    var data = Payload.absent
    var erased = false
    var sawErased = false

    mutating func read(_ reader: inout JSONReader) throws(JSONReadError) {
        try reader.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "position":
                try Self.once(&sawPosition, r)
                position = try r.consumeNull() ? nil : r.readUInt64()
            case "stream": try r.read(&stream)
            case "streamVersion": try r.once(streamVersion); streamVersion = try r.readUInt64()
            case "eventId":
                try r.once(eventId)
                eventId = try r.readUUID()
                if eventId == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) { throw r.invalid("the nil UUID is not an event id") }
            case "type": try r.read(&typeName)
            case "schemaVersion": try r.once(schemaVersion); schemaVersion = try r.readUInt64()
            case "subject":
                try Self.once(&sawSubject, r)
                subject = try r.consumeNull() ? nil : r.readString()
            case "occurredAt": try r.read(&occurredAt)
            case "recordedAt": try r.read(&recordedAt)
            case "correlationId":
                try Self.once(&sawCorrelation, r)
                correlationId = try r.consumeNull() ? nil : r.readUUID()
            case "causationId":
                try Self.once(&sawCausation, r)
                causationId = try r.consumeNull() ? nil : r.readUUID()
            case "metadata":
                try Self.once(&sawMetadata, r)
                if try r.consumeNull() { break }
                guard r.peek() == UInt8(ascii: "{") else { throw r.invalid("expected an object") }
                var canonical = JSONWriter()
                try r.copyCanonical(to: &canonical)
                metadata = String(decoding: canonical.bytes, as: UTF8.self)
            case "data":
                guard case .absent = data else { throw r.invalidMember("duplicate field") }
                if try r.consumeNull() {
                    data = .null
                } else if let typeName, let type = EventType(rawValue: typeName), let schemaVersion,
                          schemaVersion <= UInt64(UInt32.max), type.schemaVersions.contains(UInt32(schemaVersion)) {
                    data = .decoded(try PayloadJSONReading.read(type, schemaVersion: UInt32(schemaVersion), from: &r))
                } else {
                    data = .deferred(try r.skipValue())
                }
            case "erased":
                try Self.once(&sawErased, r)
                // Only the JSON literal true: not 1, not "true", not false.
                r.skipSpace()
                let at = r.index
                let value: Bool
                do throws(JSONReadError) {
                    value = try r.readBool()
                } catch {
                    throw error.syntax ? error : r.invalid("only ever true (a tombstone), or left out", at: at)
                }
                guard value else { throw r.invalid("only ever true (a tombstone), or left out", at: at) }
                erased = true
            default:
                throw r.unknownField()
            }
        }
    }

    private static func once(_ seen: inout Bool, _ reader: JSONReader) throws(JSONReadError) {
        guard !seen else { throw reader.invalidMember("duplicate field") }
        seen = true
    }
}

extension JSONReader {
    /// A UUID string (8-4-4-4-12 hexadecimal digits, either case).
    mutating func readUUID() throws(JSONReadError) -> UUID {
        skipSpace()
        let at = index
        guard let range = try readRawString(), range.count == 36 else {
            if peek() == UInt8(ascii: "\"") { _ = try readString() }
            throw invalid("not a UUID", at: at)
        }
        let text = slice(range)
        var octets = [UInt8](repeating: 0, count: 16)
        var octet = 0
        var high = true
        for (offset, byte) in text.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { throw invalid("not a UUID", at: at) }
                continue
            }
            guard let nibble = Self.hexDigit(byte) else { throw invalid("not a UUID", at: at) }
            if high { octets[octet] = nibble << 4 } else { octets[octet] |= nibble; octet += 1 }
            high.toggle()
        }
        let o = octets
        return UUID(uuid: (o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15]))
    }
}
