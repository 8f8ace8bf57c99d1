/// The IPv4 forms C's `inet_aton` reads besides dotted decimal — and so `getaddrinfo`, and so
/// many HTTP clients when handed such a host: one to four parts separated by dots, each decimal,
/// octal (a leading `0`) or hexadecimal (`0x`), the last filling the bytes left (`127.1`,
/// `0x7f.1`, `2130706433`, `0177.0.0.01`). Read here so that a URL naming an address that way is
/// recognised as an address, never taken for a name.
package enum LegacyIPv4 {
    /// The address `text` names in `inet_aton`'s grammar (whole text, nothing after it), or nil
    /// when it is not one: a part not starting with a digit, a digit its base lacks, a part over
    /// its bytes' range, more than four parts, an empty part. Any length of digits is read
    /// without overflowing.
    package static func parse(_ text: some StringProtocol) -> IPAddress? {
        var parts: [UInt64] = []
        var utf8 = Substring(text).utf8[...]
        while true {
            guard let (value, rest) = part(utf8) else { return nil }
            parts.append(value)
            guard let next = rest.first else { break }
            guard next == UInt8(ascii: "."), parts.count < 4 else { return nil }
            utf8 = rest.dropFirst()
        }
        // Every part but the last is one byte; the last fills what is left.
        guard parts.dropLast().allSatisfy({ $0 <= 0xFF }) else { return nil }
        let lastBits = 8 * (5 - parts.count)
        guard let last = parts.last, last < (UInt64(1) << lastBits) else { return nil }
        var value = last
        for (index, part) in parts.dropLast().enumerated() { value |= part << UInt64(24 - 8 * index) }
        return IPAddress(ipv4: UInt32(truncatingIfNeeded: value))
    }

    /// True when `text`'s last label (after one trailing dot, if any) is a number — decimal
    /// digits, or `0x` and hex digits — so the text is an IPv4 address or nothing, never a host
    /// name (the URL Standard's "ends in a number" rule).
    package static func endsInNumber(_ text: some StringProtocol) -> Bool {
        var utf8 = Substring(text).utf8[...]
        if utf8.last == UInt8(ascii: ".") { utf8 = utf8.dropLast() }
        let label = utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).last ?? utf8
        guard !label.isEmpty else { return false }
        if label.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { return true }
        let lower = label.map { $0 | 0x20 }
        return lower.count >= 2 && lower[0] == UInt8(ascii: "0") && lower[1] == UInt8(ascii: "x") && lower.dropFirst(2).allSatisfy { hexValue($0) != nil }
    }

    /// One part and what follows it: the value (saturated above 2³², which no part may reach)
    /// and the rest of the text.
    private static func part(_ text: Substring.UTF8View.SubSequence) -> (UInt64, Substring.UTF8View.SubSequence)? {
        guard let first = text.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
        var rest = text
        var base: UInt64 = 10
        if first == UInt8(ascii: "0") {
            base = 8
            rest = rest.dropFirst()
            // `0x` is hex only when a hex digit follows; otherwise the part is the 0 before it.
            if let x = rest.first, x | 0x20 == UInt8(ascii: "x"), let digit = rest.dropFirst().first, hexValue(digit) != nil {
                base = 16
                rest = rest.dropFirst()
            }
        }
        var value: UInt64 = 0
        while let byte = rest.first, let digit = hexValue(byte), digit < base {
            value = min(value * base + digit, 1 << 33)
            rest = rest.dropFirst()
        }
        return (value, rest)
    }

    private static func hexValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
