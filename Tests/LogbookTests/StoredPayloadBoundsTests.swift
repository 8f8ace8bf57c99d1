import BinaryCoding
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import Testing

/// Stored payloads whose numbers sit at the ends of Int64 (a damaged disk, a bug): each is a
/// typed `DomainCodingError`, never a trap (the HostileInput article). Found by FuzzBinaryPayload.
@Suite struct StoredPayloadBoundsTests {
    /// A payload of `type`'s current version, as written by `body`.
    static func decode(_ type: EventType, _ body: (inout ByteWriter) -> Void) throws(DomainCodingError) -> DomainEvent {
        var w = ByteWriter()
        body(&w)
        let payload = w.bytes
        return try BinaryEventCodec.decode(type, schemaVersion: type.currentSchemaVersion, payload: payload.span)
    }

    @Test func aDateOfInt64MinIsUndecodable() {
        // abs(Int64.min) trapped in FieldReader.date.
        #expect(throws: DomainCodingError.self) {
            try Self.decode(.goalSet) { w in w.signedVarint(Int64.min); w.signedVarint(1); w.byte(0) }
        }
    }

    @Test func aUTCOffsetOfInt64MinIsUndecodable() {
        // abs(Int64.min) trapped in FieldReader.timestamp.
        #expect(throws: DomainCodingError.self) {
            try Self.decode(.workoutPaused) { w in w.string("w-1"); w.signedVarint(0); w.signedVarint(Int64.min) }
        }
    }

    @Test func stepSampleTimesBeyond64BitsAreUndecodable() {
        func samples(startDelta: Int64, offsetDelta: Int64) -> (inout ByteWriter) -> Void {
            { w in
                w.byte(1)  // whole seconds
                w.varint(1); w.string("phone")
                w.varint(1)
                w.varint(0); w.signedVarint(startDelta); w.signedVarint(offsetDelta); w.signedVarint(60); w.signedVarint(0)
                w.signedVarint(10)
            }
        }
        // The start's delta times a million overflowed; an offset of Int64.min trapped in abs.
        #expect(throws: DomainCodingError.self) { try Self.decode(.stepsRecorded, samples(startDelta: Int64.max / 1_000_000 + 1, offsetDelta: 0)) }
        #expect(throws: DomainCodingError.self) { try Self.decode(.stepsRecorded, samples(startDelta: 0, offsetDelta: Int64.min)) }
        #expect(throws: Never.self) { try Self.decode(.stepsRecorded, samples(startDelta: 1_763_625_600, offsetDelta: 3600)) }
    }
}

/// A version-1 `steps.recorded` payload reads as version 2, which stores times as deltas: times no
/// 64-bit delta holds are undecodable, not a trap when the event is encoded again. Found by FuzzBinaryPayload.
@Suite struct StepsRecordedV1BoundsTests {
    @Test func timesTooFarApartAreUndecodable() throws {
        func payload(start: Int64, end: Int64) -> [UInt8] {
            var w = ByteWriter()
            w.string("phone"); w.varint(1)
            w.signedVarint(start); w.signedVarint(0); w.signedVarint(end); w.signedVarint(0); w.signedVarint(5)
            return w.bytes
        }
        let far = payload(start: Int64.min + 1, end: Int64.max)
        #expect(throws: DomainCodingError.self) { try BinaryEventCodec.decode(.stepsRecorded, schemaVersion: 1, payload: far.span) }
        let near = payload(start: 1_763_625_600_000_000, end: 1_763_625_660_000_000)
        let event = try BinaryEventCodec.decode(.stepsRecorded, schemaVersion: 1, payload: near.span)
        let again = BinaryEventCodec.encode(event)
        #expect(try BinaryEventCodec.decode(.stepsRecorded, schemaVersion: 2, payload: again.span) == event)
    }
}
