/// Seconds per heart-rate zone, and the Edwards TRIMP load, of one workout or (summed) of a week
/// (the Training article, "Load" and "The weekly summary").
///
/// A workout's load is floor(Σ_k seconds in zone k × k / 60), k = 1…5: zone 0 adds nothing. A sum of
/// workouts (``+``) adds their loads, each floored first, as the contract's day and week loads require;
/// it never recomputes the load from the summed seconds.
package struct ZoneSeconds: Sendable, Hashable {
    /// Seconds in zones 0…5 (six entries).
    package private(set) var secondsInZone: [Int]
    /// Seconds of workouts with no heart rate at all.
    package private(set) var withoutHeartRateSeconds: Int
    /// Edwards TRIMP load (for a sum: the sum of each workout's floored load).
    package private(set) var load: Int

    /// Nothing: the start of a sum.
    package static let zero = ZoneSeconds(secondsInZone: [0, 0, 0, 0, 0, 0], withoutHeartRateSeconds: 0, load: 0)

    private init(secondsInZone: [Int], withoutHeartRateSeconds: Int, load: Int) {
        self.secondsInZone = secondsInZone
        self.withoutHeartRateSeconds = withoutHeartRateSeconds
        self.load = load
    }

    /// The zone seconds and load of one workout's histogram under the given zones.
    package init(histogram: HeartRateSeconds, zones: HeartRateZones) {
        var seconds = [0, 0, 0, 0, 0, 0]
        for entry in histogram.entries {
            let zone = zones.zone(of: entry.beatsPerMinute)
            seconds[zone] = seconds[zone].saturatingAdd(entry.seconds)
        }
        self.init(secondsInZone: seconds, withoutHeartRateSeconds: histogram.withoutHeartRateSeconds,
                  load: Self.load(secondsInZone: seconds))
    }

    /// The zone seconds of a histogram, or nil when there are no zones (no maximum heart rate):
    /// the contract's "null, not 0".
    package static func of(_ histogram: HeartRateSeconds, zones: HeartRateZones?) -> ZoneSeconds? {
        zones.map { ZoneSeconds(histogram: histogram, zones: $0) }
    }

    /// floor(Σ_k seconds[k] × k / 60) for k = 1…5 of a six-entry array (saturating; missing entries are 0).
    package static func load(secondsInZone seconds: [Int]) -> Int {
        var weighted = 0
        for zone in 1...5 where zone < seconds.count {
            weighted = weighted.saturatingAdd(max(seconds[zone], 0).saturatingMultiply(zone))
        }
        return weighted / 60
    }

    /// Zones 1 and 2.
    package var easySeconds: Int { secondsInZone[1].saturatingAdd(secondsInZone[2]) }
    /// Zone 3.
    package var moderateSeconds: Int { secondsInZone[3] }
    /// Zones 4 and 5.
    package var hardSeconds: Int { secondsInZone[4].saturatingAdd(secondsInZone[5]) }

    /// The sum of two (a day's or a week's workouts): seconds add, loads add (each already floored).
    package static func + (lhs: ZoneSeconds, rhs: ZoneSeconds) -> ZoneSeconds {
        ZoneSeconds(
            secondsInZone: (0..<6).map { lhs.secondsInZone[$0].saturatingAdd(rhs.secondsInZone[$0]) },
            withoutHeartRateSeconds: lhs.withoutHeartRateSeconds.saturatingAdd(rhs.withoutHeartRateSeconds),
            load: lhs.load.saturatingAdd(rhs.load))
    }
}
