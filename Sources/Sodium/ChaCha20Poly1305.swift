import CSodium

/// The IETF ChaCha20-Poly1305 AEAD of RFC 8439 §2.8 (libsodium's `crypto_aead_chacha20poly1305_ietf_*`),
/// with its 12-byte nonce: the construction of Logbook's first encrypted payload format, kept so
/// stores in that format can still be read (and moved to the current one). Sealed form:
/// ciphertext, then the 16-byte tag — the bytes swift-crypto's `ChaChaPoly` makes.
public enum ChaCha20Poly1305 {
    /// Bytes in a nonce.
    public static let nonceBytes = 12
    /// Bytes the tag adds to a message.
    public static let tagBytes = AEADCall.tagBytes

    private static let call = AEADCall(
        name: "ChaCha20-Poly1305", nonceBytes: nonceBytes,
        construction: .ietfChaCha20)

    /// `plaintext` encrypted under `key` and the 12-byte `nonce`, `aad` authenticated alongside:
    /// ciphertext then tag. With 12 random or derived bytes a nonce repeats far too easily:
    /// Logbook seals nothing new this way (tests and vectors only).
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

    /// The plaintext of `sealed` (made by ``seal(_:key:nonce:authenticating:)`` or any RFC 8439
    /// implementation with the same key, nonce and `aad`); anything else is
    /// ``SodiumError/Code/authenticationFailed``.
    public static func open(_ sealed: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, authenticating aad: Span<UInt8>) throws(SodiumError) -> [UInt8] {
        try call.open(sealed, key: key, nonce: nonce, aad: aad)
    }
}
