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
        /// `crypto_aead_aes256gcm_*`: 12-byte nonce; with a key's expanded state when it has one
        /// (`_afternm`), else expanding the key on each call. Needs AES-NI and CLMUL.
        case aes256gcm
    }

    /// The construction's name, for errors.
    let name: String
    let nonceBytes: Int
    let construction: Construction

    /// Bytes the tag adds (16 for every construction).
    static let tagBytes = 16

    /// `prefix`, then `plaintext` sealed (ciphertext and tag), in one new array.
    func seal(_ plaintext: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, aad: Span<UInt8>, prefix: Span<UInt8>) throws(SodiumError) -> [UInt8] {
        try checkReady(nonce)
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
                        let storage = key.storage
                        code = switch construction {
                        case .xchacha20: crypto_aead_xchacha20poly1305_ietf_encrypt(c, &written, m, mlen, ad, adlen, nil, n, storage.bytes)
                        case .ietfChaCha20: crypto_aead_chacha20poly1305_ietf_encrypt(c, &written, m, mlen, ad, adlen, nil, n, storage.bytes)
                        case .aes256gcm:
                            if let state = storage.aesState {
                                crypto_aead_aes256gcm_encrypt_afternm(c, &written, m, mlen, ad, adlen, nil, n, state)
                            } else {
                                crypto_aead_aes256gcm_encrypt(c, &written, m, mlen, ad, adlen, nil, n, storage.bytes)
                            }
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
        let plaintextCount = try checkOpen(sealed, nonce)
        var code: Int32 = 0
        // At least one byte, so the output pointer is never null, even for an empty message.
        var plaintext = [UInt8](unsafeUninitializedCapacity: max(plaintextCount, 1)) { output, initialized in
            code = decrypt(sealed, key: key, nonce: nonce, aad: aad, into: output)
            if code != 0 {
                // libsodium leaves nothing of a message that fails; keep nothing either.
                initialized = 0
            } else {
                if plaintextCount == 0 { output[0] = 0 }
                initialized = max(plaintextCount, 1)
            }
        }
        guard code == 0 else { throw openFailed(sealed) }
        if plaintextCount == 0 { plaintext.removeAll() }
        return plaintext
    }

    /// Calls `body` with the plaintext of `sealed`, decrypted into memory of this call's own (the
    /// stack when it is small): nothing is allocated for the plaintext, which is wiped before this
    /// returns. Throws a ``SodiumError`` if it does not open, or what `body` throws.
    /// Not generic, so a caller in another module pays for no generic metadata on each call: what
    /// `body` makes, it keeps in a variable of its own.
    func withOpened(
        _ sealed: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, aad: Span<UInt8>, _ body: (Span<UInt8>) throws -> Void
    ) throws {
        let plaintextCount = try checkOpen(sealed, nonce)
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(plaintextCount, 1)) { (output) throws -> Void in
            defer { sodium_memzero(output.baseAddress!, output.count) }
            guard decrypt(sealed, key: key, nonce: nonce, aad: aad, into: output) == 0 else { throw openFailed(sealed) }
            try body(UnsafeBufferPointer(rebasing: output[..<plaintextCount]).span)
        }
    }

    /// libsodium's decryption of `sealed` into `output` (its capacity checked by the caller): its
    /// return code, 0 when the tag matched and `output` holds the whole plaintext.
    private func decrypt(
        _ sealed: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, aad: Span<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int32 {
        let plaintextCount = sealed.count - Self.tagBytes
        return sealed.withUnsafeBufferPointer { ciphertext in
            aad.withUnsafeBufferPointer { aad in
                nonce.withUnsafeBufferPointer { nonce in
                    var written: UInt64 = 0
                    // Sealed bytes (16 at least), nonce (checked) and output (1 byte at least) are never empty: never null.
                    let (m, c, ad, n) = (output.baseAddress!, ciphertext.baseAddress!, aad.baseAddress, nonce.baseAddress!)
                    let (clen, adlen) = (UInt64(ciphertext.count), UInt64(aad.count))
                    let storage = key.storage
                    let code = switch construction {
                    case .xchacha20: crypto_aead_xchacha20poly1305_ietf_decrypt(m, &written, nil, c, clen, ad, adlen, n, storage.bytes)
                    case .ietfChaCha20: crypto_aead_chacha20poly1305_ietf_decrypt(m, &written, nil, c, clen, ad, adlen, n, storage.bytes)
                    case .aes256gcm:
                        if let state = storage.aesState {
                            crypto_aead_aes256gcm_decrypt_afternm(m, &written, nil, c, clen, ad, adlen, n, state)
                        } else {
                            crypto_aead_aes256gcm_decrypt(m, &written, nil, c, clen, ad, adlen, n, storage.bytes)
                        }
                    }
                    return code == 0 && written == UInt64(plaintextCount) ? 0 : (code == 0 ? -1 : code)
                }
            }
        }
    }

    /// The plaintext's length once `sealed` opens, after checking the nonce and that `sealed`
    /// holds a tag at least.
    private func checkOpen(_ sealed: Span<UInt8>, _ nonce: Span<UInt8>) throws(SodiumError) -> Int {
        try checkReady(nonce)
        guard sealed.count >= Self.tagBytes else {
            throw SodiumError(.authenticationFailed, "\(name): \(sealed.count) bytes are shorter than a tag")
        }
        return sealed.count - Self.tagBytes
    }

    private func openFailed(_ sealed: Span<UInt8>) -> SodiumError {
        SodiumError(.authenticationFailed, "\(name): \(sealed.count) sealed bytes do not open with this key, nonce and additional data")
    }

    /// Throws unless the nonce has the construction's length and this CPU runs the construction.
    private func checkReady(_ nonce: Span<UInt8>) throws(SodiumError) {
        guard nonce.count == nonceBytes else {
            throw SodiumError(.wrongNonceLength, "\(name) takes a \(nonceBytes)-byte nonce, not \(nonce.count) bytes")
        }
        if construction == .aes256gcm { try AES256GCM.requireHardware() }
    }
}
