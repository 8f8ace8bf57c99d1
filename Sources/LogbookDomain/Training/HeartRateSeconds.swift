/// Seconds spent at each heart rate during one workout (the Training article, "Seconds at a heart rate"): what the read
/// models keep, so that zones can be computed at query time from the current heart-rate settings.
///
/// - A track point's rate holds from its offset to the offset of the next point **that carries a rate**,
///   at most ``holdCapMillis`` (a longer gap is a pause and counts 30 s); the last rated point holds 0.
///   Points without a rate neither hold nor interrupt.
/// - Milliseconds are summed per bpm and floored to whole seconds at the end, per bpm.
/// - Time the track does not cover is not "without heart rate": a track with rates reports 0 there.
/// - A track with no rates falls back to the workout's average rate: its whole moving time at that rate,
///   marked ``estimated``. Without either, the moving time is ``withoutHeartRateSeconds``.
///
/// Hostile input never traps. Points are taken in the order given (the track's order); an offset equal to
/// or before the previous rated point's (a repeat, or time going backwards, which Logbook's track rule
/// refuses anyway) holds 0 ms. Every interval is clamped to 0…30,000 ms before it is added, differences
/// and sums use checked arithmetic and saturate at `Int64.max` (unreachable: that would take about
/// 3 × 10¹⁴ points; Logbook's limit of 500,000 points bounds a workout at 15,000,000 s). Rates outside
/// ``plausibleHeartRates`` (the track rule's 1–300) count as no rate; a negative moving time counts as 0.
package struct HeartRateSeconds: Sendable, Hashable {
    /// One track point: its offset from the workout's start, and its heart rate if the device recorded one.
    package struct Point: Sendable, Hashable {
        package var offsetMillis: Int64
        package var heartRate: Int?

        /// A point of every field.
        package init(offsetMillis: Int64, heartRate: Int?) {
            self.offsetMillis = offsetMillis
            self.heartRate = heartRate
        }
    }

    /// Whole seconds at one heart rate.
    package struct Entry: Sendable, Hashable {
        package var beatsPerMinute: Int
        package var seconds: Int

        /// An entry of every field.
        package init(beatsPerMinute: Int, seconds: Int) {
            self.beatsPerMinute = beatsPerMinute
            self.seconds = seconds
        }
    }

    /// The longest a rate holds: a longer gap between rated points is a pause.
    package static let holdCapMillis: Int64 = 30_000
    /// The heart rates taken as recorded (Logbook's track rule); others count as no rate.
    package static let plausibleHeartRates = 1...300

    /// Seconds per bpm, sorted by bpm, each bpm once, no zero entries.
    package let entries: [Entry]
    /// Whether the seconds come from the workout's average rate rather than its track.
    package let estimated: Bool
    /// Moving seconds of a workout with neither track rates nor an average rate.
    package let withoutHeartRateSeconds: Int

    /// The seconds of one workout from its track points (in track order), its moving time and its average rate.
    package init(track: some Sequence<Point>, movingSeconds: Int, averageHeartRate: Int?) {
        let moving = max(movingSeconds, 0)
        var millis = [Int64](repeating: 0, count: Self.plausibleHeartRates.upperBound + 1)
        var held: (rate: Int, offset: Int64)?
        var sawRate = false
        for point in track {
            guard let rate = point.heartRate, Self.plausibleHeartRates.contains(rate) else { continue }
            sawRate = true
            if let previous = held {
                let interval = Self.heldMillis(from: previous.offset, to: point.offsetMillis)
                millis[previous.rate] = millis[previous.rate].saturatingAdd(interval)
            }
            held = (rate, point.offsetMillis)
        }
        if sawRate {
            var entries: [Entry] = []
            for rate in Self.plausibleHeartRates where millis[rate] >= 1000 {
                entries.append(Entry(beatsPerMinute: rate, seconds: Int(millis[rate] / 1000)))
            }
            self.init(checkedEntries: entries, estimated: false, withoutHeartRateSeconds: 0)
        } else if let average = averageHeartRate, Self.plausibleHeartRates.contains(average) {
            let entries = moving > 0 ? [Entry(beatsPerMinute: average, seconds: moving)] : []
            self.init(checkedEntries: entries, estimated: true, withoutHeartRateSeconds: 0)
        } else {
            self.init(checkedEntries: [], estimated: false, withoutHeartRateSeconds: moving)
        }
    }

    /// A histogram read back from storage (or summed by a caller): entries are sorted, merged per bpm
    /// (saturating), and entries of 0 or fewer seconds dropped; a negative `withoutHeartRateSeconds` is 0.
    package init(entries: some Sequence<Entry>, estimated: Bool, withoutHeartRateSeconds: Int) {
        var merged: [Entry] = []
        for entry in entries.sorted(by: { $0.beatsPerMinute < $1.beatsPerMinute }) where entry.seconds > 0 {
            if let last = merged.last, last.beatsPerMinute == entry.beatsPerMinute {
                merged[merged.count - 1].seconds = last.seconds.saturatingAdd(entry.seconds)
            } else {
                merged.append(entry)
            }
        }
        self.init(checkedEntries: merged, estimated: estimated, withoutHeartRateSeconds: max(withoutHeartRateSeconds, 0))
    }

    private init(checkedEntries: [Entry], estimated: Bool, withoutHeartRateSeconds: Int) {
        self.entries = checkedEntries
        self.estimated = estimated
        self.withoutHeartRateSeconds = withoutHeartRateSeconds
    }

    /// Seconds with a heart rate (the sum of ``entries``, saturating).
    package var heartRateSeconds: Int {
        entries.reduce(0) { $0.saturatingAdd($1.seconds) }
    }

    /// How long a rate recorded at `from` holds until the next rated point at `to`: 0…30,000 ms.
    static func heldMillis(from: Int64, to: Int64) -> Int64 {
        guard to > from else { return 0 }
        let (gap, overflow) = to.subtractingReportingOverflow(from)
        return overflow ? holdCapMillis : min(gap, holdCapMillis)
    }
}
