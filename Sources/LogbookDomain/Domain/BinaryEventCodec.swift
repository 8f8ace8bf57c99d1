import BinaryCoding
import EventLog

/// The compact binary storage encoding of every event type and schema version.
///
/// Fields are written in declaration order (`Schemas/declarations`; the layouts themselves are
/// generated: `Generated/BinaryEventCodec+Fields.swift`): integers as zigzag varints, strings and
/// arrays length-prefixed, timestamps as (micros, offset), dates as days since 1970, enums as their
/// index, optionals behind a presence byte. The envelope's `schemaVersion` says which layout a
/// payload has; a field added in a later version is written after the earlier ones, and older
/// layouts that are not a prefix of today's are upcast by hand (see ``Upcasting``).
public enum BinaryEventCodec {
    /// The payload bytes of `event`, in the current schema version of its type.
    public static func encode(_ event: DomainEvent) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        encodeFields(event, into: &w)
        return w.bytes
    }

    /// Decodes a payload of `type` written in `schemaVersion`, upcast to the current version.
    public static func decode(_ type: EventType, schemaVersion: UInt32, payload: Span<UInt8>) throws(DomainCodingError) -> DomainEvent {
        guard type.schemaVersions.contains(schemaVersion) else {
            throw .unknownSchemaVersion(type: type.rawValue, version: schemaVersion)
        }
        var o = 0
        do {
            let event = try decodeFields(type, version: schemaVersion, payload, &o)
            guard o == payload.count else { throw DecodeFailure(reason: "\(payload.count - o) bytes left over") }
            return event
        } catch let failure as DecodeFailure {
            throw .undecodable(type: type.rawValue, reason: failure.reason)
        } catch {
            throw .undecodable(type: type.rawValue, reason: "\(error)")
        }
    }

    /// Optional laps in the layout of schema `version` of the workout events (a presence byte, a
    /// count, the laps), as read models store them too.
    static func writeLaps(_ laps: [Lap]?, _ w: inout ByteWriter, version: UInt32) {
        guard let laps else { return w.byte(0) }
        w.byte(1)
        w.varint(UInt64(laps.count))
        for lap in laps { writeLap(lap, &w, version: version) }
    }

    /// Laps written by ``writeLaps(_:_:version:)``.
    static func readLaps(_ s: Span<UInt8>, _ o: inout Int, version: UInt32) throws(DecodeFailure) -> [Lap]? {
        guard try ByteReader.byte(s, &o) != 0 else { return nil }
        return try readLapArray(s, &o, version: version, what: "laps")
    }

    /// A byte naming one of `E`'s cases by its place plus one; 0 (or any other byte) is nil
    /// (the profile's optional week start and units).
    static func indexPlusOne<E: CaseIterable>(_ s: Span<UInt8>, _ o: inout Int, _ type: E.Type) throws(DecodeFailure) -> E? {
        let byte = Int(try ByteReader.byte(s, &o))
        guard (1...E.allCases.count).contains(byte) else { return nil }
        return E.allCases[E.allCases.index(E.allCases.startIndex, offsetBy: byte - 1)]
    }
}

/// Why an event's payload could not be turned into a ``DomainEvent``.
public enum DomainCodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownEventType(String)
    case unknownSchemaVersion(type: String, version: UInt32)
    case undecodable(type: String, reason: String)
    /// A JSON payload is malformed or breaks the schema; `field` names where.
    case invalidJSON(type: String, field: String, reason: String)

    public var description: String {
        switch self {
        case .unknownEventType(let type): "unknown event type \"\(type)\""
        case .unknownSchemaVersion(let type, let version): "\(type) has no schema version \(version)"
        case .undecodable(let type, let reason): "undecodable \(type) payload: \(reason)"
        case .invalidJSON(let type, let field, let reason): "invalid \(type) data at \(field): \(reason)"
        }
    }
}
