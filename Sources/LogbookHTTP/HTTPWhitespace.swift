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

    /// True if `text` starts with `prefix`, ASCII letters compared without case.
    static func hasPrefix(_ text: String, caseInsensitive prefix: String) -> Bool {
        let head = text.utf8.prefix(prefix.utf8.count)
        return head.count == prefix.utf8.count && zip(head, prefix.utf8).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
}
