public import EventLog
public import Foundation

/// One event in the JSON wire form of DESIGN §3 — as exported, imported (one per line) and
/// served. Output is canonical: fixed key order for the envelope, sorted keys inside `metadata`
/// and `data`, no insignificant whitespace, so exporting the same event always gives the same
/// bytes. Events are written in the current schema version of their type (older payloads are
/// upcast on the way out). An erased user's event is a tombstone: its envelope, `"data":null`
/// and `"erased":true` (DESIGN §7); importing one records the event as erased.
@dynamicMemberLookup
public struct WireEvent: Sendable, Hashable {
    /// The event's envelope (stream, version, ids, times). Its position is ``Position/start`` when
    /// the wire form carried none; its type and schema version are the event's current ones.
    public var envelope: EventEnvelope
    /// The metadata object as canonical JSON text (`{}` when empty).
    public var metadata: String
    /// The event's data; nil for a tombstone (its user was erased).
    public var event: DomainEvent?
    /// The event's type.
    public let type: EventType

    public init(
        position: UInt64?, stream: String, streamVersion: UInt64, eventId: UUID, subject: String?, occurredAt: Timestamp,
        recordedAt: Timestamp, correlationId: UUID? = nil, causationId: UUID? = nil, metadata: String = "{}", event: DomainEvent
    ) {
        envelope = EventEnvelope(
            position: Position(position ?? 0), stream: stream, streamVersion: streamVersion, recordedAt: recordedAt,
            header: EventHeader(
                eventId: eventId, type: event.type.rawValue, schemaVersion: event.type.currentSchemaVersion, subject: subject,
                occurredAt: occurredAt, correlationId: correlationId, causationId: causationId))
        self.metadata = metadata
        self.event = event
        self.type = event.type
    }

    /// The tombstone of an erased user's event: the envelope without its data.
    public init(tombstone envelope: EventEnvelope, type: EventType, metadata: String = "{}") {
        self.envelope = envelope
        self.metadata = metadata
        self.event = nil
        self.type = type
    }

    /// True for a tombstone: the event's user was erased and its data is gone.
    public var isErased: Bool { event == nil }

    /// The envelope's fields, read as the event's own.
    public subscript<T>(dynamicMember keyPath: KeyPath<EventEnvelope, T>) -> T { envelope[keyPath: keyPath] }
    /// The header's fields, read as the event's own.
    public subscript<T>(dynamicMember keyPath: KeyPath<EventHeader, T>) -> T { envelope.header[keyPath: keyPath] }

    /// The event's position (nil when not known: ignored on import, where positions are assigned anew).
    public var position: UInt64? { envelope.position == .start ? nil : envelope.position.rawValue }
    /// The schema version the wire form is written in: the type's current one (older payloads
    /// are upcast on the way out); a tombstone keeps the version it was stored in.
    public var schemaVersion: UInt32 { envelope.schemaVersion }

    /// The wire form of a stored event of `logbook` (its payload opened, decoded and upcast).
    public init(_ recorded: RecordedEvent, of logbook: Logbook) throws(LogbookError) {
        try self.init(envelope: recorded.envelope, metadata: recorded.metadata.span, payload: recorded.payload.span, of: logbook)
    }

    /// The wire form of an event of `logbook` seen by a scan: its envelope and its borrowed bytes.
    public init(envelope e: EventEnvelope, metadata: Span<UInt8>, payload: Span<UInt8>, of logbook: Logbook) throws(LogbookError) {
        guard let type = EventType(rawValue: e.type) else { throw .coding(.unknownEventType(e.type)) }
        let event = try logbook.payloads.open(e, payload) { (plaintext) throws(LogbookError) -> DomainEvent? in
            guard let plaintext else { return nil }
            do throws(DomainCodingError) {
                return try BinaryEventCodec.decode(type, schemaVersion: e.schemaVersion, payload: plaintext)
            } catch {
                throw .coding(error)
            }
        }
        var metadataText = "{}"
        if !metadata.isEmpty {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(metadata.count)
            for index in metadata.indices { bytes.append(metadata[index]) }
            metadataText = String(decoding: bytes, as: UTF8.self)
        }
        envelope = e
        if event != nil { envelope.schemaVersion = type.currentSchemaVersion }
        self.metadata = metadataText
        self.event = event
        self.type = type
    }

    /// The event as a proposal to append when restoring: ids, times and metadata kept (a
    /// tombstone's payload is empty; its user is recorded as erased before it is appended).
    public var proposed: ProposedEvent {
        var proposal = ProposedEvent(
            eventId: envelope.eventId, type: type.rawValue, schemaVersion: schemaVersion, subject: envelope.subject,
            occurredAt: envelope.occurredAt, recordedAt: envelope.recordedAt, correlationId: envelope.correlationId,
            causationId: envelope.causationId, metadata: metadata == "{}" ? [] : Array(metadata.utf8),
            payload: event.map(BinaryEventCodec.encode) ?? [])
        proposal.decoded = event
        return proposal
    }

    /// The canonical JSON line (without the newline).
    public var jsonLine: String {
        var line = "{"
        line += "\"position\":" + (position.map(String.init) ?? "null")
        line += ",\"stream\":" + JSONText.string(envelope.stream)
        line += ",\"streamVersion\":\(envelope.streamVersion)"
        line += ",\"eventId\":" + JSONText.string(envelope.eventId.uuidString.lowercased())
        line += ",\"type\":" + JSONText.string(type.rawValue)
        line += ",\"schemaVersion\":\(schemaVersion)"
        line += ",\"subject\":" + (envelope.subject.map(JSONText.string) ?? "null")
        line += ",\"occurredAt\":" + JSONText.string(envelope.occurredAt.rfc3339)
        line += ",\"recordedAt\":" + JSONText.string(envelope.recordedAt.rfc3339)
        line += ",\"correlationId\":" + (envelope.correlationId.map { JSONText.string($0.uuidString.lowercased()) } ?? "null")
        line += ",\"causationId\":" + (envelope.causationId.map { JSONText.string($0.uuidString.lowercased()) } ?? "null")
        line += ",\"metadata\":" + metadata
        guard let event else { return line + ",\"data\":null,\"erased\":true}" }
        line += ",\"data\":" + String(decoding: JSONEventCodec.encode(event), as: UTF8.self)
        return line + "}"
    }

    /// Parses one line of the wire form, strictly: every field is checked and an error names the
    /// first one that is wrong.
    public init(jsonLine: String) throws(LogbookError) {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(jsonLine.utf8)) as? [String: Any] else {
                throw LogbookError.invalidArgument(name: "event", reason: "a line must be one JSON object")
            }
            object = parsed
        } catch let error as LogbookError {
            throw error
        } catch {
            throw .invalidArgument(name: "event", reason: "not JSON")
        }
        let known: Set<String> = ["position", "stream", "streamVersion", "eventId", "type", "schemaVersion", "subject", "occurredAt",
                                  "recordedAt", "correlationId", "causationId", "metadata", "data", "erased"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidArgument(name: unknown, reason: "unknown field")
        }
        let fields = JSONFields(object)
        let typeName: String = try fields.required("type")
        guard let type = EventType(rawValue: typeName) else { throw .coding(.unknownEventType(typeName)) }
        let schemaVersion = UInt32(try fields.required("schemaVersion") as UInt64)
        guard let data = object["data"] else { throw .invalidArgument(name: "data", reason: "required field is missing") }
        var erased: Bool?
        if let value = object["erased"] {
            // Only the JSON literal true: not 1, not "true", not false.
            guard let number = value as? NSNumber, !isNotBoolean(number), number.boolValue else {
                throw .invalidArgument(name: "erased", reason: "only ever true (a tombstone), or left out")
            }
            erased = true
        }
        guard (erased == true) == (data is NSNull) else {
            throw .invalidArgument(name: "data", reason: erased == true ? "a tombstone (erased) has null data" : "required field is missing")
        }
        let event: DomainEvent?
        if erased == true {
            event = nil
        } else { do {
            event = try JSONEventCodec.decode(type, schemaVersion: schemaVersion, data: try JSONSerialization.data(withJSONObject: data, options: [.fragmentsAllowed]))
        } catch let error as DomainCodingError {
            throw .coding(error)
        } catch {
            throw .invalidArgument(name: "data", reason: "not a JSON object")
        } }
        var metadata = "{}"
        if let value = object["metadata"], !(value is NSNull) {
            guard let dictionary = value as? [String: Any] else { throw .invalidArgument(name: "metadata", reason: "expected an object") }
            if !dictionary.isEmpty {
                do {
                    metadata = String(decoding: try JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
                } catch {
                    throw .invalidArgument(name: "metadata", reason: "not serialisable")
                }
            }
        }
        let position: UInt64? = try fields.optional("position")
        let stream: String = try fields.required("stream")
        let streamVersion: UInt64 = try fields.required("streamVersion")
        let eventId = try fields.uuid("eventId")
        let subject: String? = try fields.optional("subject")
        let occurredAt = try fields.timestamp("occurredAt")
        let recordedAt = try fields.timestamp("recordedAt")
        let correlationId = try fields.optionalUUID("correlationId")
        let causationId = try fields.optionalUUID("causationId")
        guard let event else {
            guard subject != nil else { throw .invalidArgument(name: "subject", reason: "a tombstone is an erased user's event: it names the user") }
            guard type.schemaVersions.contains(schemaVersion) else {
                throw .coding(.unknownSchemaVersion(type: type.rawValue, version: schemaVersion))
            }
            self.init(tombstone: EventEnvelope(
                position: Position(position ?? 0), stream: stream, streamVersion: streamVersion, recordedAt: recordedAt,
                header: EventHeader(
                    eventId: eventId, type: type.rawValue, schemaVersion: schemaVersion, subject: subject, occurredAt: occurredAt,
                    correlationId: correlationId, causationId: causationId)), type: type, metadata: metadata)
            return
        }
        self.init(
            position: position, stream: stream, streamVersion: streamVersion, eventId: eventId, subject: subject,
            occurredAt: occurredAt, recordedAt: recordedAt, correlationId: correlationId, causationId: causationId,
            metadata: metadata, event: event)
    }
}

/// JSON text of single values, written by hand so output never depends on an encoder's options.
enum JSONText {
    static func string(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

/// Typed access to the fields of a parsed JSON object, with errors that name the field.
struct JSONFields {
    let object: [String: Any]
    init(_ object: [String: Any]) { self.object = object }

    func required<T>(_ name: String) throws(LogbookError) -> T {
        guard let value = object[name], !(value is NSNull) else { throw .invalidArgument(name: name, reason: "required field is missing") }
        return try cast(value, name)
    }

    func optional<T>(_ name: String) throws(LogbookError) -> T? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        return try cast(value, name)
    }

    private func cast<T>(_ value: Any, _ name: String) throws(LogbookError) -> T {
        if T.self == UInt64.self {
            guard let number = value as? NSNumber, isNotBoolean(number), number.doubleValue >= 0,
                  number.doubleValue == number.doubleValue.rounded(), let exact = UInt64(exactly: number.doubleValue)
            else { throw .invalidArgument(name: name, reason: "expected a non-negative integer") }
            return exact as! T
        }
        guard let typed = value as? T, !(value is NSNumber && T.self == String.self) else {
            throw .invalidArgument(name: name, reason: "expected \(T.self == String.self ? "a string" : "\(T.self)")")
        }
        return typed
    }

    func uuid(_ name: String) throws(LogbookError) -> UUID {
        let text: String = try required(name)
        do { return try ProposedEvent.eventID(parsing: text) } catch { throw .invalidArgument(name: name, reason: "not a UUID") }
    }

    func optionalUUID(_ name: String) throws(LogbookError) -> UUID? {
        guard let text: String = try optional(name) else { return nil }
        guard let id = UUID(uuidString: text) else { throw .invalidArgument(name: name, reason: "not a UUID") }
        return id
    }

    func timestamp(_ name: String) throws(LogbookError) -> Timestamp {
        let text: String = try required(name)
        do { return try Timestamp(parsing: text) } catch { throw .invalidArgument(name: name, reason: error.description) }
    }
}

/// True if the number is not a boolean (JSONSerialization gives booleans as NSNumber too).
private func isNotBoolean(_ number: NSNumber) -> Bool {
    String(cString: number.objCType) != "c"
}
