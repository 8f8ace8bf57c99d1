import Sodium

/// How a store keeps its events' payloads. Recorded when the store is made, in its key store and
/// in the log's own environment; a store never mixes formats.
public enum PayloadFormat: String, Sendable, Hashable, Codable {
    /// As written (stores made before payload encryption, and logs shared in PostgreSQL).
    case plaintext
    /// The first encrypted format, read only: IETF ChaCha20-Poly1305 under each user's key with a
    /// 12-byte nonce folded from the event id, which distinct ids can share (so nothing more is
    /// sealed this way). `logbook encrypt-existing` moves such a store to ``current``.
    case perUserChaChaPoly = "chacha20-poly1305/v1"
    /// Each user's payloads encrypted with XChaCha20-Poly1305 under that user's own key; the
    /// 24-byte nonce holds the whole event id, and the id, type and schema version are
    /// authenticated with the payload (``PayloadCipher``). New stores are made in it on a CPU
    /// without AES-NI; stores made in it keep it (`logbook encrypt-existing` moves one).
    case perUserXChaChaPoly = "xchacha20-poly1305/v2"
    /// Each user's payloads encrypted with AES-256-GCM under that user's own key, its AES state
    /// expanded once per key; the 12-byte nonce is a salt drawn per open and a counter, so no
    /// nonce repeats within an open, and the id, type and schema version are authenticated with
    /// the payload (``AESGCMPayloadCipher``). New stores are made in it where the CPU has AES-NI
    /// and CLMUL; a store in it opens only on such a CPU.
    case perUserAESGCM = "aes256-gcm/v3"

    /// The format a new encrypted store is made in: ``perUserAESGCM`` where this CPU runs it,
    /// else ``perUserXChaChaPoly``.
    public static var current: PayloadFormat { AES256GCM.isAvailable ? .perUserAESGCM : .perUserXChaChaPoly }

    /// True if payloads of users are encrypted (any format but plaintext).
    public var isEncrypted: Bool { self != .plaintext }

    /// True if new payloads can be written in this format (not the read-only first format).
    public var seals: Bool { self != .perUserChaChaPoly }

    /// A user's key of this format from its 32 stored bytes: for ``perUserAESGCM``, carrying its
    /// expanded AES state, so that no payload expands it again.
    func userKey(_ bytes: Span<UInt8>) throws(SodiumError) -> SymmetricKey {
        try prepared(SymmetricKey(bytes: bytes))
    }

    /// A new random user's key of this format (prepared as ``userKey(_:)`` prepares one).
    func newUserKey() throws(SodiumError) -> SymmetricKey {
        try prepared(SymmetricKey.random())
    }

    private func prepared(_ key: SymmetricKey) throws(SodiumError) -> SymmetricKey {
        self == .perUserAESGCM ? try key.preparedForAES256GCM() : key
    }
}
