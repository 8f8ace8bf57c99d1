import BinaryCoding
import EventLog
@testable import Logbook
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
