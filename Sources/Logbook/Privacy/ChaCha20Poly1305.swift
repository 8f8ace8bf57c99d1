/// The AEAD_CHACHA20_POLY1305 construction of RFC 8439 §2.8: ChaCha20 from block 1 on encrypts,
/// block 0 keys Poly1305 over the additional data and the ciphertext (each padded to 16 bytes)
/// and their lengths. Sealed form: the ciphertext, then the 16-byte tag — the bytes swift-crypto's
/// `ChaChaPoly` (BoringSSL) makes for the same key, nonce and data, so payloads sealed by either
/// open with the other.
enum ChaCha20Poly1305 {
    /// Bytes the tag adds.
    static let tagBytes = 16

    /// A sealed payload that does not open: its tag does not match the key, nonce, additional
    /// data and bytes it was given (or it is shorter than a tag).
    struct AuthenticationFailure: Error, Equatable {}

    /// `plaintext` encrypted under `key` and `nonce` (three little-endian words), with `aad`
    /// authenticated alongside; ciphertext then tag.
    static func seal(_ plaintext: Span<UInt8>, key: ChaCha20, nonce: SIMD3<UInt32>, authenticating aad: Span<UInt8>) -> [UInt8] {
        let prepared = key.blocks(counter: 0, nonce: nonce)
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagBytes)
        do {
            var output = sealed.mutableSpan
            key.xor(plaintext, into: &output, nonce: nonce, prepared: prepared, preparedCounter: 0, firstCounter: 1)
        }
        let tag = authenticator(prepared, aad, sealed.span.extracting(0..<plaintext.count))
        for index in 0..<tagBytes {
            sealed[plaintext.count + index] = UInt8(truncatingIfNeeded: tag[index >> 2] >> (UInt32(index & 3) * 8))
        }
        return sealed
    }

    /// The plaintext of `sealed` (made by ``seal(_:key:nonce:authenticating:)`` with the same
    /// key, nonce and `aad`); the tag is checked first, in time independent of where it differs.
    static func open(_ sealed: Span<UInt8>, key: ChaCha20, nonce: SIMD3<UInt32>, authenticating aad: Span<UInt8>) throws(AuthenticationFailure) -> [UInt8] {
        guard sealed.count >= tagBytes else { throw AuthenticationFailure() }
        let length = sealed.count - tagBytes
        let ciphertext = sealed.extracting(0..<length)
        let prepared = key.blocks(counter: 0, nonce: nonce)
        var difference = authenticator(prepared, aad, ciphertext)
        for word in 0..<4 { difference[word] ^= ChaCha20.littleEndianWord(sealed, at: length + word * 4) }
        guard (difference[0] | difference[1] | difference[2] | difference[3]) == 0 else { throw AuthenticationFailure() }
        var plaintext = [UInt8](repeating: 0, count: length)
        do {
            var output = plaintext.mutableSpan
            key.xor(ciphertext, into: &output, nonce: nonce, prepared: prepared, preparedCounter: 0, firstCounter: 1)
        }
        return plaintext
    }

    private static func authenticator(_ prepared: ChaCha20.FourBlocks, _ aad: Span<UInt8>, _ ciphertext: Span<UInt8>) -> SIMD4<UInt32> {
        var mac = Poly1305(key: prepared.first)
        mac.absorbPadded(aad)
        mac.absorbPadded(ciphertext)
        mac.absorbLengths(aad.count, ciphertext.count)
        return mac.tag()
    }
}
