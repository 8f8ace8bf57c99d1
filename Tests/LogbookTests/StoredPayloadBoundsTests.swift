import BinaryCoding
import EventLog
import Foundation
@testable import Logbook
import Testing

/// Stored payloads whose numbers sit at the ends of Int64 (a damaged disk, a bug): each is a
/// typed `DomainCodingError`, never a trap (DESIGN §10). Found by FuzzBinaryPayload.
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
