/// A user's five heart-rate zone bounds (the Training article, "Zones"), from a maximum and an optional resting rate.
///
/// With a resting rate the bounds are on the heart-rate reserve R = max − rest: bound_k = rest + R × f_k;
/// without one, bound_k = max × f_k; f = 50, 60, 70, 80, 90 % for k = 1…5. A bound is in general not a
/// whole number of beats per minute, so it is kept **exactly**, in hundredths of a bpm
/// (``boundHundredths``: rest × 100 + R × f_k in percent), and presented as the smallest whole bpm inside
/// the zone (``lowestBeatsPerMinute``: the bound rounded up). ``zone(of:)`` compares h × 100 with the exact
/// bound, so no rounding ever decides a zone.
package struct HeartRateZones: Sendable, Hashable {
    /// The maximum heart rates the profile accepts.
    package static let maxHeartRateRange = 100...240
    /// The resting heart rates the profile accepts.
    package static let restingHeartRateRange = 25...120
    /// f_1 … f_5, in percent.
    package static let percentages = [50, 60, 70, 80, 90]

    /// The maximum heart rate, bpm.
    package let maxHeartRate: Int
    /// The resting rate the bounds use: nil without one, and nil when the given one was not below the
    /// maximum (a reserve of zero or less has no zones; the bounds then come from the maximum alone).
    package let restingHeartRate: Int?
    /// bound_1 … bound_5 × 100, exact (hundredths of a bpm), strictly increasing.
    package let boundHundredths: [Int]

    /// The zones of a maximum rate (100–240) and an optional resting rate (25–120); nil when either is
    /// outside its range (the profile rules never store such values).
    ///
    /// A resting rate at or above the maximum (possible within both ranges, e.g. max 110, rest 115) is
    /// ignored: the bounds are then those of the maximum alone.
    package init?(maxHeartRate: Int, restingHeartRate: Int? = nil) {
        guard Self.maxHeartRateRange.contains(maxHeartRate) else { return nil }
        if let rest = restingHeartRate, !Self.restingHeartRateRange.contains(rest) { return nil }
        self.maxHeartRate = maxHeartRate
        if let rest = restingHeartRate, rest < maxHeartRate {
            self.restingHeartRate = rest
            let reserve = maxHeartRate - rest
            boundHundredths = Self.percentages.map { rest * 100 + reserve * $0 }
        } else {
            self.restingHeartRate = nil
            boundHundredths = Self.percentages.map { maxHeartRate * $0 }
        }
    }

    /// For k = 1…5 (index 0…4): the smallest whole bpm in zone k, that is bound_k rounded up.
    package var lowestBeatsPerMinute: [Int] {
        boundHundredths.map { ($0 + 99) / 100 }
    }

    /// The zone of a heart rate: 0 below bound_1, k when bound_k ≤ h < bound_(k+1), 5 at or above bound_5.
    ///
    /// Exact: h × 100 is compared with the bound's hundredths. Any `Int` is accepted (a rate so large that
    /// h × 100 overflows is zone 5, so negative is zone 0).
    package func zone(of heartRate: Int) -> Int {
        let (scaled, overflow) = heartRate.multipliedReportingOverflow(by: 100)
        if overflow { return heartRate > 0 ? 5 : 0 }
        var zone = 0
        for bound in boundHundredths where scaled >= bound { zone += 1 }
        return zone
    }
}
