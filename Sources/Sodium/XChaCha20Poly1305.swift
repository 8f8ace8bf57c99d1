import CSodium

/// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha, libsodium's `crypto_aead_xchacha20poly1305_ietf_*`):
/// ChaCha20-Poly1305 with a 24-byte nonce, whose first 16 bytes derive a subkey (HChaCha20), so a
/// nonce can carry a whole 16-byte identifier and still leave room. Sealed form: ciphertext, then
/// the 16-byte tag.
public enum XChaCha20Poly1305 {
    /// Bytes in a nonce.
    public static let nonceBytes = 24
    /// Bytes the tag adds to a message.
    public static let tagBytes = AEADCall.tagBytes

    private static let call = AEADCall(
        name: "XChaCha20-Poly1305", nonceBytes: nonceBytes,
        construction: .xchacha20)

    /// `plaintext` encrypted under `key` and the 24-byte `nonce`, `aad` authenticated alongside:
    /// ciphertext then tag. A nonce must never be used twice with one key for different messages.
    public static func seal(_ plaintext: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, authenticating aad: Span<UInt8>) throws(SodiumError) -> [UInt8] {
        try call.seal(plaintext, key: key, nonce: nonce, aad: aad, prefix: Span<UInt8>())
    }

    /// `prefix` followed by what ``seal(_:key:nonce:authenticating:)`` makes, in one new array
    /// (a stored form that carries bytes of its own in front: no second copy).
    public static func seal(
        _ plaintext: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, authenticating aad: Span<UInt8>, prefixedBy prefix: Span<UInt8>
    ) throws(SodiumError) -> [UInt8] {
        try call.seal(plaintext, key: key, nonce: nonce, aad: aad, prefix: prefix)
    }

    /// The plaintext of `sealed` (made by ``seal(_:key:nonce:authenticating:)`` with the same key,
    /// nonce and `aad`); anything else is ``SodiumError/Code/authenticationFailed``.
    public static func open(_ sealed: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, authenticating aad: Span<UInt8>) throws(SodiumError) -> [UInt8] {
        try call.open(sealed, key: key, nonce: nonce, aad: aad)
    }
}
