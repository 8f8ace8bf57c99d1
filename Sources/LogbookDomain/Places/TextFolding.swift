import Foundation

/// The one folding text search compares by, the same on every machine and in every locale:
/// canonical decomposition (NFD), combining marks dropped, each scalar's full Unicode lowercase
/// mapping (locale-independent), then `ß`/`ẞ` → `ss` and dotless `ı` → `i`. So `Café`, `CAFE`
/// and `cafe\u{301}` fold alike, `İstanbul` and `ISTANBUL` and `ıstanbul` fold to `istanbul`,
/// and `Straße` to `strasse`.
///
/// Text made only of ASCII folds by lowering `A`…`Z` alone (what the full folding does to ASCII),
/// without decomposing. Folded text is compared as UTF-8 bytes: a valid UTF-8 needle is found in
/// valid UTF-8 text exactly where its scalars are found among the text's scalars.
public enum TextFolding {
    /// `text` folded.
    public static func fold(_ text: String) -> String {
        String(decoding: foldedBytes(text), as: UTF8.self)
    }

    /// `text` folded, as UTF-8 bytes.
    public static func foldedBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendFolded(text, to: &bytes)
        return bytes
    }

    /// `text` folded the full way, ASCII too (what the fast path must equal).
    package static func foldedBytes(fully text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendFullyFolded(text, to: &bytes)
        return bytes
    }

    /// Appends `text` folded, as UTF-8 bytes, to `bytes`.
    static func appendFolded(_ text: String, to bytes: inout [UInt8]) {
        let start = bytes.count
        var ascii = true
        for byte in text.utf8 {
            if byte >= 0x80 {
                ascii = false
                break
            }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        if ascii { return }
        bytes.removeSubrange(start...)
        appendFullyFolded(text, to: &bytes)
    }

    private static func appendFullyFolded(_ text: String, to bytes: inout [UInt8]) {
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            for lower in scalar.properties.lowercaseMapping.decomposedStringWithCanonicalMapping.unicodeScalars {
                switch lower {
                case "\u{DF}": bytes.append(contentsOf: "ss".utf8)
                case "\u{131}": bytes.append(UInt8(ascii: "i"))
                default: if lower.properties.generalCategory != .nonspacingMark { UTF8.encode(lower) { bytes.append($0) } }
                }
            }
        }
    }

    /// Whether `folded` holds `needle` scalar for scalar (no locale, no further equivalence).
    static func holds(_ folded: String, _ needle: [Unicode.Scalar]) -> Bool {
        holds(Array(folded.utf8)[...], Array(String(String.UnicodeScalarView(needle)).utf8))
    }

    /// Whether the folded bytes `haystack` hold the folded bytes `needle` (both valid UTF-8, or
    /// `haystack` fields joined by a byte no UTF-8 text holds, so no match spans two fields).
    static func holds(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        var start = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while start <= last {
            if haystack[start] == first {
                var matched = 1
                while matched < needle.count, haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}
