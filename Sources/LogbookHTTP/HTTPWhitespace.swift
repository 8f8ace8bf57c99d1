/// The optional whitespace of HTTP header values (RFC 9110 §5.6.3: spaces and horizontal tabs),
/// trimmed on the UTF-8 bytes. Header values are read on every request, so this avoids
/// Foundation's `trimmingCharacters(in:)`, which bridges through `NSString`.
enum HTTPWhitespace {
    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        let utf8 = text.utf8
        guard let start = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return text[text.endIndex...] }
        // A non-space byte exists, so the last one does too.
        let end = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        return text[start...end]
    }

    /// True if `text` starts with `prefix`, ASCII letters compared without case (`prefix` is ASCII).
    static func hasPrefix(_ text: some StringProtocol, caseInsensitive prefix: StaticString) -> Bool {
        let wanted = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        var bytes = text.utf8.makeIterator()
        for expected in wanted {
            guard let byte = bytes.next() else { return false }
            let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            let expectedLower = (0x41...0x5A).contains(expected) ? expected | 0x20 : expected
            guard lower == expectedLower else { return false }
        }
        return true
    }
}
