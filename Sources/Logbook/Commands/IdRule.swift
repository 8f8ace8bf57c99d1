/// What a user, workout or place id may be: 1 to 128 bytes of UTF-8 with no spaces or control
/// characters. Commands check it; the HTTP layer checks path ids with it too, so a malformed
/// id is refused the same way on every route.
public enum IdRule {
    /// Why `value` is not a valid id, or nil if it is one.
    public static func violation(_ value: String) -> String? {
        guard !value.isEmpty, value.utf8.count <= 128 else { return "must be 1 to 128 bytes of text" }
        guard value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            return "must not contain spaces or control characters"
        }
        return nil
    }
}
