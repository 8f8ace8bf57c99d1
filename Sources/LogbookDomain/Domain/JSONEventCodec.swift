public import Foundation
import EventLog

/// The JSON wire form of event payloads (the `data` object of <doc:WireForm>): canonical on output
/// (sorted keys, no insignificant whitespace, so the same event always gives the same bytes),
/// strict on input (wrong types, missing, repeated and unknown fields are errors naming the
/// field and its column). Both directions work on bytes in one pass (`PayloadJSONReading`,
/// `PayloadJSONWriting`), without Foundation's general-purpose JSON.
public enum JSONEventCodec {
    /// The canonical `data` object of `event`, in the current schema version.
    public static func encode(_ event: DomainEvent) -> Data {
        Data(encodedBytes(event))
    }

    /// The canonical `data` object of `event` as UTF-8 bytes.
    public static func encodedBytes(_ event: DomainEvent) -> [UInt8] {
        var writer = JSONWriter()
        PayloadJSONWriting.write(event, to: &writer)
        return writer.bytes
    }

    /// Decodes a `data` object of `type` written in `schemaVersion`, upcast to the current version.
    public static func decode(_ type: EventType, schemaVersion: UInt32, data: Data) throws(DomainCodingError) -> DomainEvent {
        try decode(type, schemaVersion: schemaVersion, bytes: [UInt8](data))
    }

    /// Decodes the UTF-8 bytes of a `data` object of `type` written in `schemaVersion`.
    public static func decode(_ type: EventType, schemaVersion: UInt32, bytes: [UInt8]) throws(DomainCodingError) -> DomainEvent {
        guard type.schemaVersions.contains(schemaVersion) else {
            throw .unknownSchemaVersion(type: type.rawValue, version: schemaVersion)
        }
        var reader = JSONReader(bytes)
        do {
            let event = try PayloadJSONReading.read(type, schemaVersion: schemaVersion, from: &reader)
            try reader.expectEnd()
            return event
        } catch {
            if error.syntax { throw .invalidJSON(type: type.rawValue, field: "data", reason: "not JSON: \(error.reasonWithColumn)") }
            throw .invalidJSON(type: type.rawValue, field: error.under("data").field, reason: error.reasonWithColumn)
        }
    }
}
