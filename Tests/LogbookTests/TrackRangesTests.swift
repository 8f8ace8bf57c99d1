import EventLog
@testable import LogbookDomain
import Testing

/// Minimum, time-weighted average and maximum of each measure a track holds, computed by hand.
@Suite("Track ranges")
struct TrackRangesTests {
    @Test("values hold until the next timed point, at most 30 s; without times the plain mean; absent measures are absent")
    func handComputed() {
        // 0 s: 100 bpm, 10 s: 120 bpm, 20 s: no rate, 80 s: 160 bpm (the 60 s gap counts 30 s), 90 s: 140 bpm (holds nothing).
        let track = TrackSamples(
            points: 5, offsetMillis: [0, 10_000, 20_000, 80_000, 90_000], altitudeCentimeters: [1_000, 1_050, nil, 1_200, 1_150],
            distanceCentimeters: [0, 3_000, 6_000, 24_000, 27_000], heartRate: [100, 120, nil, 160, 140], cadence: [80, 82, 84, 86, 88])
        let ranges = TrackRanges(TrackAnalysis.points(track), unitMeters: 1000)
        // (100×10 + 120×10 + 160×10) / 30 = 126.67 (the point without a rate ends 120's hold; 140 holds nothing).
        #expect(ranges.heartRate == MeasureRange(minimum: 100, average: 126.7, maximum: 160))
        // Speeds from distance over time: 3, 3, 3, 3 m/s (the first point has none): all 3.
        #expect(ranges.speed == MeasureRange(minimum: 3, average: 3, maximum: 3))
        #expect(ranges.pace == MeasureRange(minimum: 333, average: 333, maximum: 333))
        // 80×10 + 82×10 + 84×30 (60 s gap capped) + 86×10 = 5,000 over 60 s.
        #expect(ranges.cadence == MeasureRange(minimum: 80, average: 83.3, maximum: 88))
        // 10.0×10 + 10.5×10 (until the point without altitude) + 12.0×10 = 325 over 30 s.
        #expect(ranges.altitude == MeasureRange(minimum: 10, average: 10.8, maximum: 12))
        #expect(ranges.power == nil)

        let untimed = TrackSamples(points: 3, heartRate: [100, 110, 150], powerWatts: [200, nil, 250])
        let plain = TrackRanges(TrackAnalysis.points(untimed), unitMeters: 1609.344)
        #expect(plain.heartRate == MeasureRange(minimum: 100, average: 120, maximum: 150))
        #expect(plain.power == MeasureRange(minimum: 200, average: 225, maximum: 250))
        #expect(plain.speed == nil && plain.pace == nil && plain.altitude == nil)
    }

    @Test("standing is no pace, and a pace is at most an hour per unit")
    func paceBounds() {
        #expect(TrackAnalysis.pace(speed: 0.3, unitMeters: 1000) == nil)
        #expect(TrackAnalysis.pace(speed: 0.31, unitMeters: 1609.344) == 3_600)
        #expect(TrackAnalysis.pace(speed: 4, unitMeters: 1000) == 250)
        #expect(TrackAnalysis.pace(speed: nil, unitMeters: 1000) == nil)
    }
}
