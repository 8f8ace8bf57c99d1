import CSodium

/// AES-256-GCM (libsodium's `crypto_aead_aes256gcm_*`): with AES-NI and CLMUL, several times
/// cheaper than XChaCha20-Poly1305 for short messages, all the more with a key whose AES state is
/// expanded once (``SymmetricKey/preparedForAES256GCM()``). libsodium runs it only on CPUs with
/// both instructions: elsewhere every call is ``SodiumError/Code/unsupportedHardware``, so check
/// ``isAvailable`` before choosing it. Sealed form: ciphertext, then the 16-byte tag.
///
/// Its nonce is 12 bytes: too short to draw at random for every message of a long-lived key, so
/// whoever seals must make nonces unique per key by construction (a counter).
public enum AES256GCM {
    /// Bytes in a nonce.
    public static let nonceBytes = 12
    /// Bytes the tag adds to a message.
    public static let tagBytes = AEADCall.tagBytes

    private static let call = AEADCall(name: "AES-256-GCM", nonceBytes: nonceBytes, construction: .aes256gcm)

    /// True if this CPU runs libsodium's AES-256-GCM (it has AES-NI and CLMUL).
    public static var isAvailable: Bool { availability }

    private static let availability: Bool = {
        guard (try? SodiumLibrary.ready()) != nil else { return false }
        return crypto_aead_aes256gcm_is_available() == 1
    }()

    /// Throws ``SodiumError/Code/unsupportedHardware`` unless ``isAvailable``.
    static func requireHardware() throws(SodiumError) {
        guard availability else {
            throw SodiumError(.unsupportedHardware, "AES-256-GCM needs a CPU with AES-NI and CLMUL, and this one lacks them")
        }
    }

    /// `prefix`, then `plaintext` encrypted under `key` and the 12-byte `nonce` with `aad`
    /// authenticated alongside (ciphertext, then tag), in one new array. A nonce must never be
    /// used twice with one key.
    public static func seal(
        _ plaintext: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, authenticating aad: Span<UInt8>, prefixedBy prefix: Span<UInt8>
    ) throws(SodiumError) -> [UInt8] {
        try call.seal(plaintext, key: key, nonce: nonce, aad: aad, prefix: prefix)
    }

    /// The plaintext of `sealed` (made by ``seal(_:key:nonce:authenticating:prefixedBy:)`` with
    /// the same key, nonce and `aad`, without the prefix); anything else is
    /// ``SodiumError/Code/authenticationFailed``.
    public static func open(_ sealed: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, authenticating aad: Span<UInt8>) throws(SodiumError) -> [UInt8] {
        try call.open(sealed, key: key, nonce: nonce, aad: aad)
    }

    /// Calls `body` with the plaintext of `sealed`, held only for the call (no allocation of its
    /// own, wiped afterwards); throws a ``SodiumError`` if it does not open, or what `body` throws.
    /// Not generic (no generic metadata per call across modules): `body` keeps what it makes.
    public static func withOpened(
        _ sealed: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, authenticating aad: Span<UInt8>, _ body: (Span<UInt8>) throws -> Void
    ) throws {
        try call.withOpened(sealed, key: key, nonce: nonce, aad: aad, body)
    }
}
