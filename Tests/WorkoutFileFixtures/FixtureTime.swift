import Foundation

/// Instants for fixtures: Unix seconds to and from proleptic Gregorian UTC fields (Howard
/// Hinnant's day algorithms, no Foundation calendar), and the text forms the formats write.
public enum FixtureTime {
    /// The FIT epoch, 1989-12-31T00:00:00Z, in Unix seconds.
    public static let fitEpoch: Int64 = 631_065_600

    /// Unix seconds of a UTC wall time.
    public static func unix(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = Int64(era) * 146_097 + Int64(dayOfEra) - 719_468
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// UTC wall-time fields of Unix seconds.
    public static func fields(_ unix: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let secondOfDay = Int(unix - days * 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `2020-01-01T10:00:00Z`, or the local wall time with `+01:00` when `offset` is given
    /// (`colon: false` writes `+0100`); `micros` adds a fraction with trailing zeros removed.
    public static func iso(_ unix: Int64, micros: Int = 0, offset: Int32? = nil, colon: Bool = true) -> String {
        let f = fields(unix + Int64(offset ?? 0))
        var text = "\(f.year)-\(two(f.month))-\(two(f.day))T\(two(f.hour)):\(two(f.minute)):\(two(f.second))"
        if micros > 0 {
            var fraction = String(1_000_000 + micros).dropFirst()
            while fraction.hasSuffix("0") { fraction = fraction.dropLast() }
            text += "." + fraction
        }
        guard let offset else { return text + "Z" }
        return text + zone(offset, colon: colon)
    }

    /// `+01:00` / `-0500`.
    public static func zone(_ offset: Int32, colon: Bool = true) -> String {
        let magnitude = Int(offset.magnitude)
        return (offset < 0 ? "-" : "+") + two(magnitude / 3600) + (colon ? ":" : "") + two(magnitude / 60 % 60)
    }

    /// Apple Health's `2019-06-11 15:00:42 -0700` (local wall time and its offset).
    public static func apple(_ unix: Int64, offset: Int32) -> String {
        let f = fields(unix + Int64(offset))
        return "\(f.year)-\(two(f.month))-\(two(f.day)) \(two(f.hour)):\(two(f.minute)):\(two(f.second)) \(zone(offset, colon: false))"
    }

    /// Strava's English `Oct 5, 2014, 4:15:21 PM` (a UTC wall time).
    public static func strava(_ unix: Int64) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let f = fields(unix)
        let hour = f.hour % 12 == 0 ? 12 : f.hour % 12
        return "\(months[f.month - 1]) \(f.day), \(f.year), \(hour):\(two(f.minute)):\(two(f.second)) \(f.hour < 12 ? "AM" : "PM")"
    }

    /// The local calendar date `2015-08-15` of an instant at `offset`.
    public static func date(_ unix: Int64, offset: Int32) -> String {
        let f = fields(unix + Int64(offset))
        return "\(f.year)-\(two(f.month))-\(two(f.day))"
    }
}

/// Positions for fixtures: FIT semicircles, and great-circle distances computed the textbook way
/// (haversine on a sphere of the IUGG mean radius, 6,371,008.8 m) to check derived distances.
public enum Geo {
    /// Degrees of a FIT semicircle value (exact: 180 · 2⁻³¹ times an integer below 2³¹).
    public static func degrees(semicircles: Int32) -> Double { Double(semicircles) * 180 / 2_147_483_648 }

    /// Haversine distance in metres.
    public static func meters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (lat2 - lat1) * toRadians, dLon = (lon2 - lon1) * toRadians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * toRadians) * cos(lat2 * toRadians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }
}
