/// A calendar date (proleptic Gregorian) with no time zone: what "the local day" of an event is.
///
/// Arithmetic is done with Howard Hinnant's days-from-civil algorithms, so it never depends on the
/// process's time zone, calendar or locale.
public struct CivilDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A date, if the fields name a real day between years 1 and 9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...CivilDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative: before).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    /// Parses `yyyy-mm-dd`.
    public init?(parsing text: String) {
        self.init(yyyymmdd: Array(text.utf8)[...])
    }

    /// Parses `yyyy-mm-dd` from its UTF-8 bytes.
    public init?(yyyymmdd b: ArraySlice<UInt8>) {
        let s = b.startIndex
        guard b.count == 10, b[s + 4] == UInt8(ascii: "-"), b[s + 7] == UInt8(ascii: "-"),
              let y = Digits.parse(b[s..<(s + 4)]), let m = Digits.parse(b[(s + 5)..<(s + 7)]), let d = Digits.parse(b[(s + 8)..<(s + 10)])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Appends `yyyy-mm-dd` as UTF-8.
    public func appendText(to out: inout [UInt8]) {
        if year >= 0 && year <= 9999 {
            out.append(addingCapacity: 4) { text in
                Digits.write2(year / 100, to: &text)
                Digits.write2(year % 100, to: &text)
            }
        } else {
            Digits.append(year, width: 4, to: &out)
        }
        out.append(addingCapacity: 6) { text in
            text.append(UInt8(ascii: "-"))
            Digits.write2(month, to: &text)
            text.append(UInt8(ascii: "-"))
            Digits.write2(day, to: &text)
        }
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Day of the week, 1 = Monday … 7 = Sunday (ISO 8601).
    public var isoWeekday: Int {
        let d = daysSinceEpoch
        // 1970-01-01 was a Thursday (4).
        return ((d % 7 + 7) % 7 + 3) % 7 + 1
    }

    /// The date `days` days later (negative: earlier).
    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// `yyyy-mm-dd`.
    public var description: String {
        var text: [UInt8] = []
        text.reserveCapacity(10)
        appendText(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CivilDate(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a yyyy-mm-dd date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Fixed-width decimal digits, parsed and printed without Foundation formatters.
enum Digits {
    static func parse(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return bytes.isEmpty ? nil : value
    }

    /// Writes `value` (0 through 99) as two digits into room already made: one block of
    /// output instead of an `Array.append` (and its uniqueness check) per digit.
    @inline(__always)
    static func write2(_ value: Int, to text: inout OutputSpan<UInt8>) {
        text.append(UInt8(truncatingIfNeeded: 0x30 &+ value / 10))
        text.append(UInt8(truncatingIfNeeded: 0x30 &+ value % 10))
    }

    /// Appends `value` as at least `width` characters, zeros in front: how the text forms write
    /// every date and time field.
    static func append(_ value: Int, width: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<max(width, 1) { divisor *= 10 }
        guard value >= 0, value < divisor * 10 else {
            // Wider than the field (years outside 0…9999): its decimal text, zeros in front up to the width.
            let text = String(value).utf8
            for _ in text.count..<max(width, text.count) { out.append(0x30) }
            out.append(contentsOf: text)
            return
        }
        // Exactly `width` digits, highest first, only appended.
        var rest = value
        while divisor > 0 {
            out.append(UInt8(truncatingIfNeeded: 0x30 + rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
