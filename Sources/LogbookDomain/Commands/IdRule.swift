import EventLog

/// What a user, workout or place id may be: 1 to 128 bytes of UTF-8 in Unicode Normalization
/// Form C, with no spaces or control characters. Commands check it; the HTTP layer checks path
/// ids and tokens' subjects with it too, so a malformed id is refused the same way everywhere.
///
/// Ids are compared as bytes (see <doc:DomainRules> and <doc:HostileInput>). NFC is required
/// because Swift compares strings by canonical equivalence: `jos\u{e9}` and `jose\u{301}` would be
/// one user to a dictionary, a cache or an access check, and two to the log's byte-keyed indexes.
/// Among NFC texts, different bytes always mean different strings, so every comparison agrees with
/// the bytes.
public enum IdRule {
    /// Why `value` is not a valid id, or nil if it is one.
    public static func violation(_ value: String) -> String? {
        guard !value.isEmpty, value.utf8.count <= 128 else { return "must be 1 to 128 bytes of text" }
        guard value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            return "must not contain spaces or control characters"
        }
        guard value.isInNormalizationFormC else { return AppendLimits.notNFC }
        return nil
    }
}
