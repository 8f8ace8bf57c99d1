import Testing
@testable import LogbookDomain

/// Zone of `h` by a second formulation: (h − rest) × 100 ≥ R × p, with rest 0 and R = max without a resting rate.
private func referenceZone(_ h: Int, max: Int, rest: Int?) -> Int {
    let base = rest ?? 0
    let reserve = max - base
    return [50, 60, 70, 80, 90].filter { (h - base) * 100 >= reserve * $0 }.count
}

/// The smallest whole bpm at or above the exact bound rest + R × p / 100, found by counting up.
private func referenceLowest(max: Int, rest: Int?, percent: Int) -> Int {
    let base = rest ?? 0
    var bpm = 0
    while (bpm - base) * 100 < (max - base) * percent { bpm += 1 }
    return bpm
}

@Suite struct HeartRateZonesTests {
    @Test func boundsOfKnownSettings() throws {
        let reserve = try #require(HeartRateZones(maxHeartRate: 190, restingHeartRate: 60))
        #expect(reserve.boundHundredths == [12_500, 13_800, 15_100, 16_400, 17_700])
        #expect(reserve.lowestBeatsPerMinute == [125, 138, 151, 164, 177])
        let plain = try #require(HeartRateZones(maxHeartRate: 185))
        #expect(plain.boundHundredths == [9_250, 11_100, 12_950, 14_800, 16_650])
        #expect(plain.lowestBeatsPerMinute == [93, 111, 130, 148, 167])
        #expect([92, 93, 110, 111, 129, 130, 147, 148, 166, 167].map(plain.zone(of:)) == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5])
        let odd = try #require(HeartRateZones(maxHeartRate: 187, restingHeartRate: 53))
        #expect(odd.boundHundredths == [12_000, 13_340, 14_680, 16_020, 17_360])
        #expect(odd.lowestBeatsPerMinute == [120, 134, 147, 161, 174])
        #expect([119, 120, 133, 134, 146, 147, 160, 161, 173, 174].map(odd.zone(of:)) == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5])
    }

    /// Every maximum and resting rate the profile accepts: h = bound − 1, bound, bound + 1 of every zone.
    @Test func exactBoundsAgainstReference() throws {
        for max in HeartRateZones.maxHeartRateRange {
            for rest in [nil] + HeartRateZones.restingHeartRateRange.map(Optional.some) where rest.map({ $0 < max }) ?? true {
                let zones = try #require(HeartRateZones(maxHeartRate: max, restingHeartRate: rest))
                for (index, percent) in HeartRateZones.percentages.enumerated() {
                    let lowest = referenceLowest(max: max, rest: rest, percent: percent)
                    #expect(zones.lowestBeatsPerMinute[index] == lowest)
                    // At least zone k from its lowest whole bpm, below it one beat lower (with a tiny reserve,
                    // several bounds can share one whole bpm, and a zone holds no whole bpm at all).
                    #expect(zones.zone(of: lowest) >= index + 1)
                    #expect(zones.zone(of: lowest - 1) <= index)
                    for h in [lowest - 1, lowest, lowest + 1] {
                        #expect(zones.zone(of: h) == referenceZone(h, max: max, rest: rest), "max \(max) rest \(String(describing: rest)) h \(h)")
                    }
                }
            }
        }
    }

    @Test func sweepAgainstReference() throws {
        for (max, rest) in [(100, nil), (100, 99), (240, 25), (240, 120), (199, 47), (163, nil), (221, 88)] as [(Int, Int?)] {
            let zones = try #require(HeartRateZones(maxHeartRate: max, restingHeartRate: rest))
            for h in -5...305 { #expect(zones.zone(of: h) == referenceZone(h, max: max, rest: rest)) }
        }
    }

    @Test func settingsOutsideTheProfileRules() throws {
        #expect(HeartRateZones(maxHeartRate: 99) == nil)
        #expect(HeartRateZones(maxHeartRate: 241) == nil)
        #expect(HeartRateZones(maxHeartRate: 180, restingHeartRate: 24) == nil)
        #expect(HeartRateZones(maxHeartRate: 180, restingHeartRate: 121) == nil)
        // A resting rate not below the maximum is ignored: the maximum's own bounds.
        let ignored = try #require(HeartRateZones(maxHeartRate: 110, restingHeartRate: 115))
        #expect(ignored.restingHeartRate == nil)
        #expect(ignored == HeartRateZones(maxHeartRate: 110))
        #expect(HeartRateZones(maxHeartRate: 110, restingHeartRate: 110)?.restingHeartRate == nil)
    }

    @Test func hostileRatesNeverTrap() throws {
        let zones = try #require(HeartRateZones(maxHeartRate: 190, restingHeartRate: 50))
        #expect(zones.zone(of: .max) == 5)
        #expect(zones.zone(of: .min) == 0)
        #expect(zones.zone(of: Int.max / 100 + 1) == 5)
        #expect(zones.zone(of: -1) == 0)
    }
}
