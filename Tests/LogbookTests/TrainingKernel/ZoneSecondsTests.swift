import Testing
@testable import LogbookDomain

@Suite struct ZoneSecondsTests {
    @Test func secondsPerZoneAndLoad() throws {
        // Bounds 125, 138, 151, 164, 177.
        let zones = try #require(HeartRateZones(maxHeartRate: 190, restingHeartRate: 60))
        let histogram = HeartRateSeconds(entries: [
            .init(beatsPerMinute: 100, seconds: 600), .init(beatsPerMinute: 125, seconds: 300), .init(beatsPerMinute: 137, seconds: 300),
            .init(beatsPerMinute: 138, seconds: 1_200), .init(beatsPerMinute: 151, seconds: 900), .init(beatsPerMinute: 170, seconds: 250),
            .init(beatsPerMinute: 177, seconds: 61),
        ], estimated: false, withoutHeartRateSeconds: 0)
        let result = ZoneSeconds(histogram: histogram, zones: zones)
        #expect(result.secondsInZone == [600, 600, 1_200, 900, 250, 61])
        #expect(result.easySeconds == 1_800 && result.moderateSeconds == 900 && result.hardSeconds == 311)
        // (600×1 + 1200×2 + 900×3 + 250×4 + 61×5) / 60 = 7005 / 60 = 116.75 → 116.
        #expect(result.load == 116)
        #expect(ZoneSeconds.load(secondsInZone: [99, 0, 0, 0, 0, 12]) == 1)
    }

    @Test func noMaximumRateMeansNoZones() {
        let histogram = HeartRateSeconds(track: [], movingSeconds: 600, averageHeartRate: 150)
        #expect(ZoneSeconds.of(histogram, zones: nil) == nil)
        #expect(ZoneSeconds.of(histogram, zones: HeartRateZones(maxHeartRate: 200)) != nil)
    }

    @Test func sumsAddFlooredLoads() throws {
        let zones = try #require(HeartRateZones(maxHeartRate: 200))
        // 59 s in zone 1 (100…119 bpm): load 0 each; the sum of two is 0, not floor(118 / 60) = 1.
        let one = ZoneSeconds(histogram: HeartRateSeconds(entries: [.init(beatsPerMinute: 110, seconds: 59)], estimated: false, withoutHeartRateSeconds: 0), zones: zones)
        let without = ZoneSeconds(histogram: HeartRateSeconds(track: [], movingSeconds: 700, averageHeartRate: nil), zones: zones)
        let week = [one, one, without].reduce(ZoneSeconds.zero, +)
        #expect(week.secondsInZone == [0, 118, 0, 0, 0, 0])
        #expect(week.load == 0)
        #expect(week.withoutHeartRateSeconds == 700)
    }
}
