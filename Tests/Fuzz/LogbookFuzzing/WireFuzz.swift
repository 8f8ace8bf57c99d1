import BinaryCoding
import EventLog
public import FuzzSupport
import Foundation
import Logbook

/// The fuzz targets of the JSON wire form and the binary payload codec: any bytes answer an
/// event or the codec's typed error, and what is read writes back and reads again the same.
public enum WireFuzz {
    /// One line of the wire form (`WireEvent(jsonBytes:)`, the import's and the restore's reader).
    public static let wireEvent = FuzzTarget("FuzzWireEvent") { bytes throws(FuzzFailure) in
        let event: WireEvent
        do {
            event = try WireEvent(jsonBytes: bytes)
        } catch {
            // The import reads lines out of one buffer: a line read in place must answer as the
            // same line read on its own, error messages (columns) included.
            if let newline = bytes.firstIndex(of: 0x0A) { try sameInPlace(bytes, line: 0..<newline) }
            return
        }
        try roundTrip(event)
        if let newline = bytes.firstIndex(of: 0x0A) { try sameInPlace(bytes, line: 0..<newline) }
    }

    /// A payload in the log's binary form: the first byte picks the event type, the second the
    /// schema version (0 to 2, so unknown versions are tried too), the rest is the payload.
    public static let binaryPayload = FuzzTarget("FuzzBinaryPayload") { bytes throws(FuzzFailure) in
        guard bytes.count >= 2 else { return }
        let type = EventType.allCases[Int(bytes[0]) % EventType.allCases.count]
        let version = UInt32(bytes[1] % 3)
        let payload = Array(bytes[2...])
        let event: DomainEvent
        do {
            event = try BinaryEventCodec.decode(type, schemaVersion: version, payload: payload.span)
        } catch {
            return
        }
        try FuzzCheck.expect(event.type == type, "\(type) v\(version) decoded as a \(event.type)")
        try binaryRoundTrip(event, "\(type) v\(version)")
    }

    /// The wire event writes back to a line that reads as the same event and writes the same
    /// bytes again; its compact form (the import's spill file) reads back as the same event.
    static func roundTrip(_ event: WireEvent) throws(FuzzFailure) {
        let line = event.jsonBytes
        let again: WireEvent
        do {
            again = try WireEvent(jsonBytes: line)
        } catch {
            throw FuzzFailure("a wire event's own line does not read back: \(error)\nline: \(String(decoding: line, as: UTF8.self))")
        }
        try FuzzCheck.expect(again == event, "a wire event's own line reads as another event: \(String(decoding: line, as: UTF8.self))")
        try FuzzCheck.expect(again.jsonBytes == line, "a wire event's line is not canonical: \(String(decoding: line, as: UTF8.self))")
        let compact = event.compactBytes
        do {
            let unpacked = try WireEvent(compact: compact.span)
            try FuzzCheck.expect(unpacked == event, "a wire event's compact form reads as another event: \(String(decoding: line, as: UTF8.self))")
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("a wire event's compact form does not read back: \(error)")
        }
        if let payload = event.event { try binaryRoundTrip(payload, "wire \(event.type)") }
    }

    /// `line` read in place in `bytes` answers as the same bytes read on their own.
    static func sameInPlace(_ bytes: [UInt8], line: Range<Int>) throws(FuzzFailure) {
        let inPlace = Result { () throws(LogbookError) in try WireEvent(jsonBytes: bytes, in: line) }
        let alone = Result { () throws(LogbookError) in try WireEvent(jsonBytes: Array(bytes[line])) }
        switch (inPlace, alone) {
        case (.success(let a), .success(let b)):
            try FuzzCheck.expect(a == b, "a line read in place reads as another event than on its own")
        case (.failure(let a), .failure(let b)):
            try FuzzCheck.expect("\(a)" == "\(b)", "a line read in place fails otherwise than on its own: \(a) / \(b)")
        default:
            throw FuzzFailure("a line read in place and on its own: one reads, the other fails")
        }
    }

    /// The event's binary payload decodes to the same event and encodes to the same bytes again.
    static func binaryRoundTrip(_ event: DomainEvent, _ what: String) throws(FuzzFailure) {
        let payload = BinaryEventCodec.encode(event)
        let again: DomainEvent
        do {
            again = try BinaryEventCodec.decode(event.type, schemaVersion: event.type.currentSchemaVersion, payload: payload.span)
        } catch {
            throw FuzzFailure("\(what): its own binary payload does not decode: \(error)")
        }
        // Compared as bytes: a stored double may be a NaN, which is not equal to itself.
        try FuzzCheck.expect(BinaryEventCodec.encode(again) == payload, "\(what): its binary payload decodes to another event")
    }

    /// The event's canonical JSON data decodes (as a command body does) to the same event.
    static func jsonRoundTrip(_ event: DomainEvent, _ what: String) throws(FuzzFailure) {
        let data = JSONEventCodec.encodedBytes(event)
        let again: DomainEvent
        do {
            again = try JSONEventCodec.decode(event.type, schemaVersion: event.type.currentSchemaVersion, bytes: data)
        } catch {
            throw FuzzFailure("\(what): its own JSON data does not decode: \(error)\ndata: \(String(decoding: data, as: UTF8.self))")
        }
        try FuzzCheck.expect(again == event, "\(what): its JSON data decodes to another event: \(String(decoding: data, as: UTF8.self))")
        try FuzzCheck.expect(JSONEventCodec.encodedBytes(again) == data, "\(what): its JSON data is not canonical")
    }
}
