import Testing
@testable import LogbookDomain

private func point(_ millis: Int64, _ rate: Int?) -> HeartRateSeconds.Point {
    HeartRateSeconds.Point(offsetMillis: millis, heartRate: rate)
}

private func seconds(_ histogram: HeartRateSeconds) -> [Int: Int] {
    Dictionary(uniqueKeysWithValues: histogram.entries.map { ($0.beatsPerMinute, $0.seconds) })
}

@Suite struct HeartRateSecondsTests {
    @Test func eachRateHoldsUntilTheNextRatedPoint() {
        let track = (0..<61).map { point(Int64($0) * 1000, 150) }
        let histogram = HeartRateSeconds(track: track, movingSeconds: 60, averageHeartRate: 140)
        #expect(histogram.entries == [.init(beatsPerMinute: 150, seconds: 60)])
        #expect(!histogram.estimated)
        #expect(histogram.withoutHeartRateSeconds == 0)
    }

    @Test func gapsAreCappedAtThirtySeconds() {
        let capped = HeartRateSeconds(track: [point(0, 140), point(45_000, 150), point(46_000, 150)], movingSeconds: 46, averageHeartRate: nil)
        #expect(seconds(capped) == [140: 30, 150: 1])
        let exact = HeartRateSeconds(track: [point(0, 140), point(30_000, 150)], movingSeconds: 30, averageHeartRate: nil)
        #expect(seconds(exact) == [140: 30])
        let justOver = HeartRateSeconds(track: [point(0, 140), point(30_001, 150)], movingSeconds: 30, averageHeartRate: nil)
        #expect(seconds(justOver) == [140: 30])
    }

    @Test func theLastRatedPointHoldsNothing() {
        let single = HeartRateSeconds(track: [point(0, 150)], movingSeconds: 600, averageHeartRate: 150)
        // The track has a rate, so it is not estimated, and uncovered time is not "without heart rate".
        #expect(single.entries.isEmpty)
        #expect(!single.estimated)
        #expect(single.withoutHeartRateSeconds == 0)
        let trailing = HeartRateSeconds(track: [point(0, 150), point(5_000, 160), point(9_000, nil)], movingSeconds: 9, averageHeartRate: nil)
        #expect(seconds(trailing) == [150: 5])
    }

    @Test func pointsWithoutARateNeitherHoldNorInterrupt() {
        let track = [point(0, 140), point(10_000, nil), point(20_000, nil), point(25_000, 150), point(26_000, 150)]
        #expect(seconds(HeartRateSeconds(track: track, movingSeconds: 26, averageHeartRate: nil)) == [140: 25, 150: 1])
        // The gap to the next rated point counts, however many unrated points lie between: capped at 30 s.
        let long = [point(0, 140), point(10_000, nil), point(20_000, nil), point(50_000, 150), point(51_000, 150)]
        #expect(seconds(HeartRateSeconds(track: long, movingSeconds: 51, averageHeartRate: nil)) == [140: 30, 150: 1])
    }

    @Test func millisecondsAreFlooredPerRateAtTheEnd() {
        let track = [point(0, 140), point(500, 141), point(1_000, 140), point(1_500, 141), point(2_000, 140), point(2_500, 150), point(2_900, 150)]
        // 140: 3 × 500 ms = 1.5 s → 1; 141: 2 × 500 ms = 1 s; 150: 400 ms → 0, left out.
        let histogram = HeartRateSeconds(track: track, movingSeconds: 3, averageHeartRate: nil)
        #expect(histogram.entries == [.init(beatsPerMinute: 140, seconds: 1), .init(beatsPerMinute: 141, seconds: 1)])
    }

    @Test func estimatedFromTheAverageRate() {
        let noRates = [point(0, nil), point(1_000, nil)]
        let estimated = HeartRateSeconds(track: noRates, movingSeconds: 1_800, averageHeartRate: 145)
        #expect(estimated.entries == [.init(beatsPerMinute: 145, seconds: 1_800)])
        #expect(estimated.estimated)
        #expect(estimated.withoutHeartRateSeconds == 0)
        let noTrack = HeartRateSeconds(track: [], movingSeconds: 1_200, averageHeartRate: 150)
        #expect(noTrack.entries == [.init(beatsPerMinute: 150, seconds: 1_200)] && noTrack.estimated)
    }

    @Test func withoutAnyHeartRate() {
        let none = HeartRateSeconds(track: [point(0, nil)], movingSeconds: 2_400, averageHeartRate: nil)
        #expect(none.entries.isEmpty && !none.estimated && none.withoutHeartRateSeconds == 2_400)
        #expect(HeartRateSeconds(track: [], movingSeconds: -5, averageHeartRate: nil).withoutHeartRateSeconds == 0)
    }

    @Test func backwardsAndRepeatedOffsetsHoldNothing() {
        let track = [point(0, 140), point(10_000, 150), point(5_000, 160), point(5_000, 170), point(20_000, 180)]
        // 140 → 10 s; 150 → next at 5 s (backwards): 0; 160 → next at 5 s (repeat): 0; 170 → 15 s.
        #expect(seconds(HeartRateSeconds(track: track, movingSeconds: 20, averageHeartRate: nil)) == [140: 10, 170: 15])
    }

    @Test func hostileOffsetsAndRatesNeverTrap() {
        let track = [point(.min, 140), point(.max, 150), point(.min, 160), point(.max, 170), point(.max, 0), point(.max, 301), point(.max, -7)]
        let histogram = HeartRateSeconds(track: track, movingSeconds: .max, averageHeartRate: 999)
        #expect(seconds(histogram) == [140: 30, 160: 30])
        // Only implausible rates: no rate at all, and an implausible average is no average.
        let implausible = HeartRateSeconds(track: [point(0, 0), point(1_000, 400)], movingSeconds: 100, averageHeartRate: 0)
        #expect(implausible.entries.isEmpty && !implausible.estimated && implausible.withoutHeartRateSeconds == 100)
        // Many capped intervals: sums stay exact far beyond any real track.
        let many = (0..<200_000).map { point(Int64($0) * 60_000, 150) }
        #expect(seconds(HeartRateSeconds(track: many, movingSeconds: 0, averageHeartRate: nil)) == [150: 30 * 199_999])
    }

    @Test func storedHistogramsAreNormalized() {
        let histogram = HeartRateSeconds(
            entries: [.init(beatsPerMinute: 160, seconds: 5), .init(beatsPerMinute: 120, seconds: 0), .init(beatsPerMinute: 150, seconds: 3),
                      .init(beatsPerMinute: 160, seconds: .max)],
            estimated: false, withoutHeartRateSeconds: -3)
        #expect(histogram.entries == [.init(beatsPerMinute: 150, seconds: 3), .init(beatsPerMinute: 160, seconds: .max)])
        #expect(histogram.withoutHeartRateSeconds == 0)
        #expect(histogram.heartRateSeconds == .max)
    }
}
