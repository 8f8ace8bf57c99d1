import EventLog

/// Unix seconds of calendar fields read from a file, through EventLog's `CivilDate` (proleptic
/// Gregorian, no Foundation calendar, no time zone).
enum CivilTime {
    /// Unix seconds of a UTC wall time, or nil for impossible fields (a day that does not exist,
    /// a year outside 1–9999).
    static func unixSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64? {
        guard let date = CivilDate(year: year, month: month, day: day),
              (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        return Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
