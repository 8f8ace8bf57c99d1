/// The two parts of a page cursor (`<order>~<id>`, `<stars>:<id>`): cut at the first separator in
/// the UTF-8 bytes, not among `Character`s, because an id may begin with a combining mark, which
/// would join the separator into one grapheme and hide it from a `Character` search.
enum PageCursor {
    /// The text before and after the first `separator` in `cursor`, or nil when it has none.
    static func split(_ cursor: String, at separator: Unicode.Scalar) -> (head: String, tail: String)? {
        let bytes = Array(cursor.utf8)
        guard separator.isASCII, let cut = bytes.firstIndex(of: UInt8(separator.value)) else { return nil }
        return (String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[(cut + 1)...], as: UTF8.self))
    }
}
