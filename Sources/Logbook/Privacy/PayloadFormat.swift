/// How a store keeps its events' payloads. Recorded when the store is made, in its key store and
/// in the log's own environment; a store never mixes formats.
public enum PayloadFormat: String, Sendable, Hashable, Codable {
    /// As written (stores made before payload encryption, and logs shared in PostgreSQL).
    case plaintext
    /// The first encrypted format, read only: IETF ChaCha20-Poly1305 under each user's key with a
    /// 12-byte nonce folded from the event id, which distinct ids can share (so nothing more is
    /// sealed this way). `logbook encrypt-existing` moves such a store to ``perUserXChaChaPoly``.
    case perUserChaChaPoly = "chacha20-poly1305/v1"
    /// Each user's payloads encrypted with XChaCha20-Poly1305 under that user's own key; the
    /// 24-byte nonce holds the whole event id, and the id, type and schema version are
    /// authenticated with the payload (``PayloadCipher``). New stores are made in it.
    case perUserXChaChaPoly = "xchacha20-poly1305/v2"

    /// The format a new encrypted store is made in.
    public static let current = PayloadFormat.perUserXChaChaPoly

    /// True if payloads of users are encrypted (either format).
    public var isEncrypted: Bool { self != .plaintext }

    /// True if new payloads can be written in this format (not the read-only first format).
    public var seals: Bool { self != .perUserChaChaPoly }
}
