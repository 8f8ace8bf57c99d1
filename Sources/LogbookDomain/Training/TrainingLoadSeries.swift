/// Day loads and their rolling sums (the Training article, "Load"): acute (7 days), chronic28 (28 days) and the
/// acute:chronic workload ratio, for one user.
///
/// Input is one load per workout (or per day): entries of the same day are added, so a day's load is the sum
/// of its workouts' loads, each floored first (``ZoneSeconds/load``). For a day D, acute is the sum of the
/// loads of D−6…D, chronic28 of D−27…D, and ACWR = acute × 4 / chronic28 rounded half away from zero to
/// two decimals, nil when chronic28 is 0. The ratio is kept exactly as an `Int` of hundredths
/// (123 means 1.23), computed with integer arithmetic; ``Point/acwr`` is a `Double` view for JSON only.
///
/// Limits (hostile input never traps): entries whose day is outside ``DayNumbers/validRange`` are ignored,
/// negative loads count as 0, and a day's load is held at ``maxDayLoad`` (2⁴⁰, far above anything a day
/// of workouts can reach), so no window sum can overflow.
package struct TrainingLoadSeries: Sendable, Hashable {
    /// A load on a day (one workout's, or a whole day's).
    package struct DayLoad: Sendable, Hashable {
        package var day: Int
        package var load: Int

        /// An entry of every field.
        package init(day: Int, load: Int) {
            self.day = day
            self.load = load
        }
    }

    /// One day of the series.
    package struct Point: Sendable, Hashable {
        package var day: Int
        /// The day's own load.
        package var load: Int
        /// Sum of the 7 days ending on `day`.
        package var acute: Int
        /// Sum of the 28 days ending on `day`.
        package var chronic28: Int
        /// ACWR in hundredths (123 = 1.23), nil when `chronic28` is 0.
        package var acwrHundredths: Int?

        /// ACWR as a `Double` (hundredths / 100), for JSON: never use it for decisions.
        package var acwr: Double? { acwrHundredths.map { Double($0) / 100 } }
    }

    /// The largest load a single day holds.
    package static let maxDayLoad = 1 << 40
    /// The most days ``series(from:through:)`` answers (about ten years).
    package static let maxSeriesDays = 3_700

    /// Days with a load, ascending, each once.
    private let days: [Int]
    /// `prefix[i]` = sum of the loads of `days[0..<i]`.
    private let prefix: [Int]

    /// The series of the given loads; entries of one day are added.
    package init(loads: some Sequence<DayLoad>) {
        let sorted = loads.filter { DayNumbers.validRange.contains($0.day) }.sorted { $0.day < $1.day }
        var days: [Int] = []
        var dayLoads: [Int] = []
        for entry in sorted {
            let load = max(entry.load, 0)
            if days.last == entry.day {
                dayLoads[dayLoads.count - 1] = min(dayLoads[dayLoads.count - 1].saturatingAdd(load), Self.maxDayLoad)
            } else {
                days.append(entry.day)
                dayLoads.append(min(load, Self.maxDayLoad))
            }
        }
        var prefix = [0]
        prefix.reserveCapacity(dayLoads.count + 1)
        for load in dayLoads { prefix.append(prefix[prefix.count - 1] + load) }
        self.days = days
        self.prefix = prefix
    }

    /// The load of one day (0 without workouts).
    package func load(on day: Int) -> Int { sum(from: day, through: day) }

    /// Sum of the loads of the 7 days ending on `day`.
    package func acute(on day: Int) -> Int { window(7, endingOn: day) }

    /// Sum of the loads of the 28 days ending on `day`.
    package func chronic28(on day: Int) -> Int { window(28, endingOn: day) }

    /// Sum of the `length` days ending on `day` (0 for a day outside ``DayNumbers/validRange``).
    private func window(_ length: Int, endingOn day: Int) -> Int {
        guard DayNumbers.validRange.contains(day) else { return 0 }
        return sum(from: day - (length - 1), through: day)
    }

    /// Load, acute, chronic28 and ACWR as of one day.
    package func point(on day: Int) -> Point {
        guard DayNumbers.validRange.contains(day) else {
            return Point(day: day, load: 0, acute: 0, chronic28: 0, acwrHundredths: nil)
        }
        let acute = acute(on: day)
        let chronic = chronic28(on: day)
        return Point(day: day, load: load(on: day), acute: acute, chronic28: chronic,
                     acwrHundredths: Self.acwrHundredths(acute: acute, chronic28: chronic))
    }

    /// One point per day of `from…through` (both clamped to ``DayNumbers/validRange``), computed with a sliding
    /// window: O(days + log entries). Empty when `from > through`; at most ``maxSeriesDays`` points (the
    /// first ones) for a longer range.
    package func series(from: Int, through: Int) -> [Point] {
        let first = max(from, DayNumbers.validRange.lowerBound)
        var last = min(through, DayNumbers.validRange.upperBound)
        guard first <= last else { return [] }
        last = min(last, first + Self.maxSeriesDays - 1)
        // Dense loads of first−27 … last, filled from the sorted days.
        let origin = first - 27
        var dense = [Int](repeating: 0, count: last - origin + 1)
        var index = lowerBound(origin)
        while index < days.count, days[index] <= last {
            dense[days[index] - origin] = prefix[index + 1] - prefix[index]
            index += 1
        }
        var acute = dense[21...27].reduce(0, +)
        var chronic = dense[0...27].reduce(0, +)
        var points: [Point] = []
        points.reserveCapacity(last - first + 1)
        for day in first...last {
            let i = day - origin
            if day > first {
                acute += dense[i] - dense[i - 7]
                chronic += dense[i] - dense[i - 28]
            }
            points.append(Point(day: day, load: dense[i], acute: acute, chronic28: chronic,
                                acwrHundredths: Self.acwrHundredths(acute: acute, chronic28: chronic)))
        }
        return points
    }

    /// round(acute × 4 / chronic28 × 100), half away from zero, exactly; nil when chronic28 ≤ 0 or acute < 0.
    ///
    /// acute × 400 = q × chronic28 + r; the result is q, plus 1 when 2r ≥ chronic28. Full-width arithmetic:
    /// no `Int` input overflows (a ratio above `Int.max` hundredths saturates).
    package static func acwrHundredths(acute: Int, chronic28: Int) -> Int? {
        guard chronic28 > 0, acute >= 0 else { return nil }
        // Split acute = whole × chronic + part so the full-width division's quotient always fits.
        let whole = acute / chronic28
        let part = acute % chronic28
        let (q, r) = chronic28.dividingFullWidth(part.multipliedFullWidth(by: 400))
        let rounded = r >= chronic28 - r ? q + 1 : q
        return whole.saturatingMultiply(400).saturatingAdd(rounded)
    }

    /// Sum of the loads of days `from…through` (inclusive), by binary search on the prefix sums.
    private func sum(from: Int, through: Int) -> Int {
        let lower = max(from, DayNumbers.validRange.lowerBound)
        let upper = min(through, DayNumbers.validRange.upperBound)
        guard lower <= upper else { return 0 }
        return prefix[lowerBound(upper + 1)] - prefix[lowerBound(lower)]
    }

    /// The index of the first stored day ≥ `day`.
    private func lowerBound(_ day: Int) -> Int {
        var low = 0
        var high = days.count
        while low < high {
            let mid = (low + high) / 2
            if days[mid] < day { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
