import BinaryCoding
@testable import EventLog
@testable import EventLogLMDB
import Foundation
import Testing

/// LMDB log records whose numbers sit at the ends of Int64 (a damaged disk, a bug) are corruption,
/// never a trap (the HostileInput article). Found by FuzzLogRecord.
@Suite struct RecordBoundsTests {
    /// A record with the given UTC offsets (zigzag varints), in the layout `RecordCodec` documents.
    static func record(occurredOffset: Int64, recordedOffset: Int64) -> [UInt8] {
        var w = ByteWriter()
        w.uint32(0)  // checksum (decoding fails before it is compared)
        w.byte(1)  // format
        w.byte(0)  // no subject
        w.varint(1); w.varint(1); w.varint(0); w.varint(0)  // type, stream, version, first of its stream
        w.signedVarint(0); w.signedVarint(recordedOffset)
        w.byte(0); w.varint(1); w.uuid(UUID()); w.signedVarint(0); w.signedVarint(occurredOffset)
        return w.bytes
    }

    @Test(arguments: [(Int64.min, Int64(0)), (0, Int64.min), (Int64.max, 0), (64_801, 0)] as [(Int64, Int64)])
    func anOffsetOutOfRangeIsCorruption(_ occurred: Int64, _ recorded: Int64) {
        let bytes = Self.record(occurredOffset: occurred, recordedOffset: recorded)
        #expect(throws: DecodeFailure.self) { try RecordCodec.decodeUnchecked(bytes.span) }
        do {
            _ = try RecordCodec.decodeVerified(bytes.span, position: 1)
            Issue.record("a record with a UTC offset of \(occurred)/\(recorded) s decoded")
        } catch {
            #expect(error.code == .corruption)
        }
    }
}
