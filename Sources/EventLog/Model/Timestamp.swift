public import Foundation

/// An instant with the UTC offset it was recorded in, to the microsecond.
///
/// The offset is kept because the local day of an event is the calendar date in the offset it was
/// recorded with. Two timestamps naming the same instant with different offsets are different
/// values (`==`), but the same ``instant``. The text form is RFC 3339, canonical on output: no
/// fraction for whole seconds, three digits for whole milliseconds, else six; `Z` for offset 0.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microsecondsSinceEpoch: Int64
    /// The offset from UTC the timestamp was written in, in seconds (east positive).
    public var utcOffsetSeconds: Int32

    /// The largest offset accepted, ±18 hours.
    public static let maxOffsetSeconds: Int32 = 18 * 3600

    @inlinable
    public init(microsecondsSinceEpoch: Int64, utcOffsetSeconds: Int32 = 0) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The timestamp of a `Date`, written with the given offset.
    public init(_ date: Date, utcOffsetSeconds: Int32 = 0) {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded(.down)
        self.init(microsecondsSinceEpoch: Int64(micros), utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The instant as microseconds since the epoch (offset ignored): use it to compare instants.
    @inlinable
    public var instant: Int64 { microsecondsSinceEpoch }

    /// The instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(microsecondsSinceEpoch) / 1_000_000) }

    /// Microseconds since the epoch of the wall-clock reading in the timestamp's own offset.
    @usableFromInline
    var localMicroseconds: Int64 { microsecondsSinceEpoch + Int64(utcOffsetSeconds) * 1_000_000 }

    /// The calendar date in the timestamp's own offset: the event's local day.
    public var localDate: CivilDate { CivilDate(daysSinceEpoch: localDayNumber) }

    /// The local day as days since 1970-01-01, in the timestamp's own offset.
    @inlinable
    public var localDayNumber: Int {
        Int(localMicroseconds.floorDivided(by: 86_400_000_000))
    }

    /// Seconds since local midnight, in the timestamp's own offset.
    public var localSecondOfDay: Int {
        Int(localMicroseconds.floorModulo(86_400_000_000) / 1_000_000)
    }

    /// Orders by instant, then by offset, so the order is total and matches `==`.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.microsecondsSinceEpoch, lhs.utcOffsetSeconds) < (rhs.microsecondsSinceEpoch, rhs.utcOffsetSeconds)
    }

    /// The canonical RFC 3339 text.
    public var description: String { rfc3339 }

    /// The canonical RFC 3339 text, e.g. `2026-11-20T07:42:10+01:00` or `2026-11-20T06:42:10.513Z`.
    public var rfc3339: String {
        var text: [UInt8] = []
        text.reserveCapacity(32)
        appendRFC3339(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses RFC 3339 (`yyyy-mm-ddThh:mm:ss[.f…](Z|±hh:mm)`, up to six fraction digits).
    public init(parsing text: String) throws(TimestampParseError) {
        try self.init(rfc3339: Array(text.utf8)[...])
    }

    /// Parses RFC 3339 from its UTF-8 bytes (the wire codec's path: no `String` on success).
    public init(rfc3339 b: ArraySlice<UInt8>) throws(TimestampParseError) {
        if let canonical = Self.canonical(b.span) {
            self = canonical
            return
        }
        try self.init(everyForm: b)
    }

    /// The full parser: every form ``init(rfc3339:)`` accepts, and the reason for what it refuses.
    init(everyForm b: ArraySlice<UInt8>) throws(TimestampParseError) {
        func fail(_ why: String) -> TimestampParseError { TimestampParseError(text: String(decoding: b, as: UTF8.self), reason: why) }
        let s = b.startIndex
        guard b.count >= 20 else { throw fail("too short for yyyy-mm-ddThh:mm:ss and an offset") }
        guard let date = CivilDate(yyyymmdd: b[s..<(s + 10)]) else { throw fail("bad date") }
        guard b[s + 10] == UInt8(ascii: "T") || b[s + 10] == UInt8(ascii: "t") || b[s + 10] == UInt8(ascii: " ") else {
            throw fail("expected T between date and time")
        }
        guard b[s + 13] == UInt8(ascii: ":"), b[s + 16] == UInt8(ascii: ":"),
              let hour = Digits.parse(b[(s + 11)..<(s + 13)]), let minute = Digits.parse(b[(s + 14)..<(s + 16)]),
              let second = Digits.parse(b[(s + 17)..<(s + 19)]),
              hour < 24, minute < 60, second < 60
        else { throw fail("bad time of day") }
        var index = s + 19
        var fraction = 0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < b.endIndex, b[index] >= 0x30, b[index] <= 0x39 { index += 1 }
            let digits = index - start
            guard digits >= 1 else { throw fail("empty fraction of a second") }
            guard digits <= 6 else { throw fail("more than microsecond precision") }
            fraction = Digits.parse(b[start..<index])! * [1, 100_000, 10_000, 1000, 100, 10, 1][digits]
        }
        guard index < b.endIndex else { throw fail("missing UTC offset (Z or ±hh:mm)") }
        var offset = 0
        if b[index] == UInt8(ascii: "Z") || b[index] == UInt8(ascii: "z") {
            index += 1
        } else if b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-") {
            guard index + 6 == b.endIndex, b[index + 3] == UInt8(ascii: ":"),
                  let oh = Digits.parse(b[(index + 1)..<(index + 3)]), let om = Digits.parse(b[(index + 4)..<(index + 6)]), om < 60
            else { throw fail("bad UTC offset") }
            offset = (oh * 3600 + om * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
            guard abs(offset) <= Int(Timestamp.maxOffsetSeconds) else { throw fail("UTC offset beyond ±18:00") }
            index += 6
        } else {
            throw fail("missing UTC offset (Z or ±hh:mm)")
        }
        guard index == b.endIndex else { throw fail("unexpected text after the offset") }
        let localSeconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(
            microsecondsSinceEpoch: (localSeconds - Int64(offset)) * 1_000_000 + Int64(fraction),
            utcOffsetSeconds: Int32(offset))
    }

    /// The form every writer of the wire form uses — `yyyy-mm-ddThh:mm:ss`, an optional fraction
    /// of one to six digits, then `Z` or `±hh:mm` — read in one pass at fixed places (no slices,
    /// no optionals per field). Nil for anything else, valid or not: the full parser then
    /// accepts it or names what is wrong, so this path decides nothing the full one would not.
    @inline(__always)
    static func canonical(_ t: Span<UInt8>) -> Timestamp? {
        let n = t.count
        guard n >= 20, t[4] == UInt8(ascii: "-"), t[7] == UInt8(ascii: "-"), t[10] == UInt8(ascii: "T"),
              t[13] == UInt8(ascii: ":"), t[16] == UInt8(ascii: ":")
        else { return nil }
        let century = twoDigits(t, 0), yearOfCentury = twoDigits(t, 2)
        let month = twoDigits(t, 5), day = twoDigits(t, 8)
        let hour = twoDigits(t, 11), minute = twoDigits(t, 14), second = twoDigits(t, 17)
        // A non-digit makes its pair negative, which every range below refuses.
        guard century >= 0, yearOfCentury >= 0 else { return nil }
        let year = century &* 100 &+ yearOfCentury
        guard year >= 1, month >= 1, month <= 12, day >= 1, day <= CivilDate.daysIn(month: month, year: year),
              hour >= 0, hour < 24, minute >= 0, minute < 60, second >= 0, second < 60
        else { return nil }
        var index = 19
        var fraction = 0
        if t[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < n, digits < 7 {
                let digit = Int(t[index]) &- 0x30
                guard digit >= 0, digit <= 9 else { break }
                fraction = fraction &* 10 &+ digit
                digits += 1
                index += 1
            }
            guard digits >= 1, digits <= 6 else { return nil }
            for _ in digits..<6 { fraction &*= 10 }
        }
        var offset = 0
        if index + 1 == n, t[index] == UInt8(ascii: "Z") {
            offset = 0
        } else if index + 6 == n, t[index] == UInt8(ascii: "+") || t[index] == UInt8(ascii: "-"), t[index + 3] == UInt8(ascii: ":") {
            let offsetHours = twoDigits(t, index + 1), offsetMinutes = twoDigits(t, index + 4)
            guard offsetHours >= 0, offsetMinutes >= 0, offsetMinutes < 60 else { return nil }
            offset = (offsetHours &* 3600 &+ offsetMinutes &* 60) &* (t[index] == UInt8(ascii: "-") ? -1 : 1)
            guard abs(offset) <= Int(maxOffsetSeconds) else { return nil }
        } else {
            return nil
        }
        guard let date = CivilDate(year: year, month: month, day: day) else { return nil }
        let localSeconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Timestamp(microsecondsSinceEpoch: (localSeconds - Int64(offset)) * 1_000_000 + Int64(fraction), utcOffsetSeconds: Int32(offset))
    }

    /// The two decimal digits at `index` as a number; negative if either is not a digit.
    @inline(__always)
    private static func twoDigits(_ t: Span<UInt8>, _ index: Int) -> Int {
        let tens = Int(t[index]) &- 0x30, ones = Int(t[index + 1]) &- 0x30
        return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens &* 10 &+ ones : -1
    }

    /// Appends the canonical RFC 3339 text (``rfc3339``) as UTF-8, without building a `String`.
    public func appendRFC3339(to out: inout [UInt8]) {
        let local = localMicroseconds
        CivilDate(daysSinceEpoch: Int(local.floorDivided(by: 86_400_000_000))).appendText(to: &out)
        let micros = local.floorModulo(86_400_000_000)
        let second = Int(micros / 1_000_000)
        let fraction = Int(micros % 1_000_000)
        let offset = Int(utcOffsetSeconds)
        // The time of day, fraction and offset in one block of output: at most 1 + 8 + 7 + 6 = 22 bytes.
        out.append(addingCapacity: 22) { text in
            text.append(UInt8(ascii: "T"))
            Digits.write2(second / 3600, to: &text)
            text.append(UInt8(ascii: ":"))
            Digits.write2(second / 60 % 60, to: &text)
            text.append(UInt8(ascii: ":"))
            Digits.write2(second % 60, to: &text)
            if fraction != 0 {
                text.append(UInt8(ascii: "."))
                let (digits, value) = fraction % 1000 == 0 ? (3, fraction / 1000) : (6, fraction)
                var divisor = digits == 3 ? 100 : 100_000
                while divisor > 0 {
                    text.append(UInt8(truncatingIfNeeded: 0x30 &+ value / divisor % 10))
                    divisor /= 10
                }
            }
            if offset == 0 {
                text.append(UInt8(ascii: "Z"))
            } else {
                let magnitude = offset.magnitude
                text.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                Digits.write2(Int(magnitude / 3600), to: &text)
                text.append(UInt8(ascii: ":"))
                Digits.write2(Int(magnitude / 60 % 60), to: &text)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try Timestamp(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339)
    }
}

/// A timestamp's text could not be parsed; says which text and why.
public struct TimestampParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "invalid timestamp \"\(text)\": \(reason)" }
}

extension Int64 {
    @usableFromInline
    func floorDivided(by divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }

    func floorModulo(_ divisor: Int64) -> Int64 {
        let r = self % divisor
        return r < 0 ? r + divisor : r
    }
}
