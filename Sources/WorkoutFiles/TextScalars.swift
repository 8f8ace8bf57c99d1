/// Number and date parsing straight from UTF-8 bytes, without creating Strings on the fast path.
enum TextScalars {
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Strips ASCII whitespace at both ends.
    @inline(__always)
    static func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lower = 0, upper = text.count
        while lower < upper, isSpace(text[lower]) { lower += 1 }
        while upper > lower, isSpace(text[upper - 1]) { upper -= 1 }
        return UnsafeBufferPointer(rebasing: text[lower..<upper])
    }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Parses a finite decimal number; exact for up to 15 significant digits, falls back to
    /// the standard library otherwise (exponents, long mantissas).
    static func double(_ raw: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = trimmed(raw)
        guard !text.isEmpty, text.count < 400 else { return nil }
        var index = 0
        var negative = false
        if text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") {
            negative = text[0] == UInt8(ascii: "-")
            index = 1
        }
        var mantissa: Int64 = 0
        var digits = 0, fractionDigits = 0
        var seenDot = false, simple = true, sawDigit = false
        while index < text.count {
            let byte = text[index]
            if byte >= 0x30 && byte <= 0x39 {
                sawDigit = true
                if digits < 18 {
                    mantissa = mantissa * 10 + Int64(byte - 0x30)
                    if mantissa != 0 { digits += 1 }
                    if seenDot { fractionDigits += 1 }
                } else {
                    simple = false
                }
            } else if byte == UInt8(ascii: "."), !seenDot {
                seenDot = true
            } else {
                simple = false
                break
            }
            index += 1
        }
        if simple, digits <= 15, fractionDigits <= 22 {
            guard sawDigit else { return nil }
            let value = Double(mantissa) / powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// Parses a decimal integer (optionally with a fraction, which is rounded).
    static func integer(_ raw: UnsafeBufferPointer<UInt8>) -> Int? {
        double(raw).flatMap(roundedInt)
    }

    /// Rounds to Int, or nil when not finite or beyond ±10^15 (never traps).
    static func roundedInt(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) < 1e15 else { return nil }
        return Int(value.rounded())
    }

    /// Reads `count` ASCII digits at `index`.
    @inline(__always)
    static func digits(_ text: UnsafeBufferPointer<UInt8>, _ index: Int, _ count: Int) -> Int? {
        guard index >= 0, index + count <= text.count else { return nil }
        var value = 0
        for i in index..<(index + count) {
            let byte = text[i]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// ISO 8601 / RFC 3339 date-time: `YYYY-MM-DD[T ]hh:mm[:ss[.fff…]][Z|±hh[:]mm]`.
    /// A numeric offset makes the offset known; `Z` or no zone gives UTC with offset unknown.
    static func isoDate(_ raw: UnsafeBufferPointer<UInt8>) -> FileTimestamp? {
        let text = trimmed(raw)
        guard text.count >= 16,
              let year = digits(text, 0, 4), text[4] == UInt8(ascii: "-"),
              let month = digits(text, 5, 2), text[7] == UInt8(ascii: "-"),
              let day = digits(text, 8, 2),
              text[10] == UInt8(ascii: "T") || text[10] == UInt8(ascii: "t") || text[10] == 0x20,
              let hour = digits(text, 11, 2), text[13] == UInt8(ascii: ":"),
              let minute = digits(text, 14, 2) else { return nil }
        var index = 16
        var second = 0
        var micros: Int64 = 0
        if index < text.count, text[index] == UInt8(ascii: ":") {
            guard let s = digits(text, index + 1, 2) else { return nil }
            second = s
            index += 3
            if index < text.count, text[index] == UInt8(ascii: ".") || text[index] == UInt8(ascii: ",") {
                index += 1
                var scale: Int64 = 100_000
                let fractionStart = index
                while index < text.count, text[index] >= 0x30, text[index] <= 0x39 {
                    micros += Int64(text[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
                guard index > fractionStart else { return nil }
            }
        }
        guard let base = CivilTime.unixSeconds(year: year, month: month, day: day,
                                               hour: hour, minute: minute, second: second) else { return nil }
        var offset = 0
        var known = false
        if index + 1 < text.count, text[index] == 0x20 { index += 1 }
        if index < text.count {
            let zone = text[index]
            if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") {
                index += 1
            } else if zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") {
                guard let parsed = zoneOffset(text, index) else { return nil }
                offset = parsed.seconds
                index = parsed.end
                known = true
            } else {
                return nil
            }
        }
        guard index == text.count else { return nil }
        let utc = (base - Int64(offset)) * 1_000_000 + micros
        return FileTimestamp(microsecondsSinceEpoch: utc, utcOffsetSeconds: Int32(offset), offsetKnown: known)
    }

    /// `±hh[:]mm` or `±hh` at `index`; returns seconds east of UTC.
    static func zoneOffset(_ text: UnsafeBufferPointer<UInt8>, _ index: Int) -> (seconds: Int, end: Int)? {
        let sign = text[index] == UInt8(ascii: "-") ? -1 : 1
        guard let hours = digits(text, index + 1, 2) else { return nil }
        var end = index + 3
        var minutes = 0
        if end < text.count, text[end] == UInt8(ascii: ":") { end += 1 }
        if end < text.count {
            guard let m = digits(text, end, 2) else { return nil }
            minutes = m
            end += 2
        }
        guard hours <= 18, minutes < 60 else { return nil }
        return (sign * (hours * 3600 + minutes * 60), end)
    }

    /// Apple Health's `yyyy-MM-dd HH:mm:ss ±hhmm`.
    static func appleDate(_ raw: UnsafeBufferPointer<UInt8>) -> FileTimestamp? {
        isoDate(raw)
    }

    private static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun",
                                     "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Strava's English `MMM d, yyyy, h:mm:ss AM` (taken as UTC, offset unknown), or ISO text.
    static func stravaDate(_ text: String) -> FileTimestamp? {
        var copy = text
        if let iso = copy.withUTF8({ isoDate($0) }) {
            return FileTimestamp(microsecondsSinceEpoch: iso.microsecondsSinceEpoch)
        }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        guard parts.count >= 4,
              let month = monthNames.firstIndex(of: String(parts[0].prefix(3)).lowercased()),
              let day = Int(parts[1]), let year = Int(parts[2]) else { return nil }
        let clock = parts[3].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        var hour = clock[0]
        if parts.count >= 5 {
            let marker = parts[4].uppercased()
            guard hour >= 1 && hour <= 12 else { return nil }
            if marker == "AM" { hour = hour == 12 ? 0 : hour } else if marker == "PM" { hour = hour == 12 ? 12 : hour + 12 } else { return nil }
        }
        guard let seconds = CivilTime.unixSeconds(year: year, month: month + 1, day: day,
                                                  hour: hour, minute: clock[1], second: clock[2]) else { return nil }
        return FileTimestamp(unixSeconds: seconds)
    }
}

extension String {
    /// This string without leading and trailing ASCII spaces and tabs (no copy when there are none).
    func trimmingSpaces() -> String {
        let bytes = utf8
        guard let first = bytes.first, let last = bytes.last else { return self }
        if first != 0x20 && first != 0x09 && last != 0x20 && last != 0x09 { return self }
        return withUTF8Bytes { String(decoding: TextScalars.trimmed($0), as: UTF8.self) }
    }

    /// Runs `body` over this string's UTF-8 bytes.
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = self
        return copy.withUTF8(body)
    }
}
