import CSodium

/// The one place this module hands Swift buffers to libsodium's combined-mode AEAD functions
/// (`crypto_aead_*_encrypt` / `_decrypt`: ciphertext then 16-byte tag). Every length is checked
/// here first, every return code becomes a ``SodiumError``, and no pointer outlives the call.
struct AEADCall {
    /// Which libsodium construction.
    enum Construction {
        /// `crypto_aead_xchacha20poly1305_ietf_*`: 24-byte nonce.
        case xchacha20
        /// `crypto_aead_chacha20poly1305_ietf_*` (RFC 8439): 12-byte nonce.
        case ietfChaCha20
    }

    /// The construction's name, for errors.
    let name: String
    let nonceBytes: Int
    let construction: Construction

    /// Bytes the tag adds (16 for both constructions).
    static let tagBytes = 16

    /// `prefix`, then `plaintext` sealed (ciphertext and tag), in one new array.
    func seal(_ plaintext: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, aad: Span<UInt8>, prefix: Span<UInt8>) throws(SodiumError) -> [UInt8] {
        try checkNonce(nonce)
        guard plaintext.count <= Int.max - Self.tagBytes - prefix.count - 1 else {
            throw SodiumError(.messageTooLong, "\(name): \(plaintext.count) bytes to seal")
        }
        let sealedCount = prefix.count + plaintext.count + Self.tagBytes
        var code: Int32 = 0
        let sealed = [UInt8](unsafeUninitializedCapacity: sealedCount) { whole, initialized in
            for index in 0..<prefix.count { whole[index] = prefix[index] }
            let output = UnsafeMutableBufferPointer(rebasing: whole[prefix.count...])
            plaintext.withUnsafeBufferPointer { message in
                aad.withUnsafeBufferPointer { aad in
                    nonce.withUnsafeBufferPointer { nonce in
                        var written: UInt64 = 0
                        // Output (16 bytes at least) and nonce (checked above) are never empty: never null.
                        let (c, m, ad, n) = (output.baseAddress!, message.baseAddress, aad.baseAddress, nonce.baseAddress!)
                        let (mlen, adlen) = (UInt64(message.count), UInt64(aad.count))
                        code = switch construction {
                        case .xchacha20: crypto_aead_xchacha20poly1305_ietf_encrypt(c, &written, m, mlen, ad, adlen, nil, n, key.storage.bytes)
                        case .ietfChaCha20: crypto_aead_chacha20poly1305_ietf_encrypt(c, &written, m, mlen, ad, adlen, nil, n, key.storage.bytes)
                        }
                        initialized = code == 0 && written == UInt64(output.count) ? sealedCount : 0
                    }
                }
            }
        }
        guard code == 0, sealed.count == sealedCount else {
            throw SodiumError(.failed, "\(name) encrypt returned \(code) for \(plaintext.count) bytes")
        }
        return sealed
    }

    func open(_ sealed: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, aad: Span<UInt8>) throws(SodiumError) -> [UInt8] {
        try checkNonce(nonce)
        guard sealed.count >= Self.tagBytes else {
            throw SodiumError(.authenticationFailed, "\(name): \(sealed.count) bytes are shorter than a tag")
        }
        let plaintextCount = sealed.count - Self.tagBytes
        var code: Int32 = 0
        // At least one byte, so the output pointer is never null, even for an empty message.
        var plaintext = [UInt8](unsafeUninitializedCapacity: max(plaintextCount, 1)) { output, initialized in
            sealed.withUnsafeBufferPointer { ciphertext in
                aad.withUnsafeBufferPointer { aad in
                    nonce.withUnsafeBufferPointer { nonce in
                        var written: UInt64 = 0
                        // Sealed bytes (16 at least) and nonce (checked above) are never empty: never null.
                        let (m, c, ad, n) = (output.baseAddress, ciphertext.baseAddress!, aad.baseAddress, nonce.baseAddress!)
                        let (clen, adlen) = (UInt64(ciphertext.count), UInt64(aad.count))
                        code = switch construction {
                        case .xchacha20: crypto_aead_xchacha20poly1305_ietf_decrypt(m, &written, nil, c, clen, ad, adlen, n, key.storage.bytes)
                        case .ietfChaCha20: crypto_aead_chacha20poly1305_ietf_decrypt(m, &written, nil, c, clen, ad, adlen, n, key.storage.bytes)
                        }
                        if code != 0 || written != UInt64(plaintextCount) {
                            // libsodium leaves nothing of a message that fails; keep nothing either.
                            initialized = 0
                        } else {
                            if plaintextCount == 0 { output[0] = 0 }
                            initialized = max(plaintextCount, 1)
                        }
                    }
                }
            }
        }
        guard code == 0 else {
            throw SodiumError(.authenticationFailed, "\(name): \(sealed.count) sealed bytes do not open with this key, nonce and additional data")
        }
        if plaintextCount == 0 { plaintext.removeAll() }
        return plaintext
    }

    private func checkNonce(_ nonce: Span<UInt8>) throws(SodiumError) {
        guard nonce.count == nonceBytes else {
            throw SodiumError(.wrongNonceLength, "\(name) takes a \(nonceBytes)-byte nonce, not \(nonce.count) bytes")
        }
    }
}
