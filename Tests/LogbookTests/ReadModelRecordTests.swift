import BinaryCoding
import EventLog
@testable import Logbook
@testable import LogbookDomain
import Testing

/// A stored part of a recorded track is read whole: bytes after its samples are damage, since the
/// samples' own bounds are judged against the record's length. Found by FuzzReadModel.
@Suite struct TrackPartRecordTests {
    @Test func bytesAfterTheSamplesAreUndecodable() throws {
        var w = ByteWriter()
        TrackPartValue(TrackSamples(points: 2, heartRate: [120, nil])).encode(into: &w)
        let exact = w.bytes
        #expect(try TrackPartValue(decoding: exact.span).samples == TrackSamples(points: 2, heartRate: [120, nil]))
        let padded = exact + [0, 0, 0, 0, 0, 0]
        #expect(throws: DecodeFailure.self) { try TrackPartValue(decoding: padded.span) }
    }
}

/// Track samples are stored with at least one column, as the domain records them: points without
/// one were bounded only by the bytes around them, so a payload could decode to samples whose own
/// encoding the decoder refused. Found by FuzzBinaryPayload.
@Suite struct TrackSamplesWithoutColumnsTests {
    @Test func pointsWithoutAColumnAreUndecodable() throws {
        // workout.track_recorded v1: id "-", part and parts in non-minimal varints, 68 points, no column.
        let payload: [UInt8] = [0x01, 0x2D, 0x91, 0xFF, 0x05, 0x05, 0xC4, 0x00, 0x00]
        #expect(throws: DomainCodingError.self) {
            try BinaryEventCodec.decode(.workoutTrackRecorded, schemaVersion: 1, payload: payload.span)
        }
        var w = ByteWriter()
        TrackSampleCoding.encode(TrackSamples(points: 3, cadence: [80, nil, 82]), into: &w)
        var o = 0
        let bytes = w.bytes
        #expect(try TrackSampleCoding.decode(bytes.span, &o) == TrackSamples(points: 3, cadence: [80, nil, 82]))
    }
}

/// A list key stores its workout's start negated (newest first): stored bytes that read as Int64.min
/// are damage, not a trap negating them. Found by FuzzReadModel.
@Suite struct ActivityListKeyBoundsTests {
    @Test func aStartOfInt64MinIsUndecodable() throws {
        var w = ByteWriter()
        w.keyString("u-1"); w.keyInt(Int64.min); w.keyString("w-1")
        let damaged = w.bytes
        #expect(throws: DecodeFailure.self) { try ActivityListKey(decoding: damaged.span) }
        var good = ByteWriter()
        ActivityListKey("u-1", 1_763_625_600_000_000, "w-1").encode(into: &good)
        let bytes = good.bytes
        let key = try ActivityListKey(decoding: bytes.span)
        #expect(key.startInstant == 1_763_625_600_000_000 && key.workoutId == "w-1")
    }
}

/// The samples already counted for a day are stored as deltas: deltas whose sum leaves 64 bits are
/// damage, not a trap adding them. Found by FuzzReadModel.
@Suite struct CountedSamplesBoundsTests {
    @Test func deltasBeyond64BitsAreUndecodable() throws {
        var w = ByteWriter()
        w.byte(0); w.varint(2)
        w.signedVarint(Int64.max); w.signedVarint(60)
        let damaged = w.bytes
        #expect(throws: DecodeFailure.self) { try CountedSamples(decoding: damaged.span) }
        var samples = CountedSamples()
        _ = samples.insert(start: 1_763_625_600_000_000, end: 1_763_625_630_000_000, dayStart: 1_763_596_800_000_000)
        var good = ByteWriter()
        samples.encode(into: &good)
        let bytes = good.bytes
        #expect(try CountedSamples(decoding: bytes.span) == samples)
    }
}
