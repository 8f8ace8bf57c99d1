import CSodium

/// A 256-bit secret key for the AEAD constructions of this module. Its length is checked when it
/// is made (a typed error, never a trap); its bytes live in one allocation of their own that is
/// wiped (`sodium_memzero`) when the last copy of the key goes away. Making a key sets libsodium
/// up, so whoever holds one may seal and open.
///
/// A key used with AES-256-GCM can carry its expanded AES state (``preparedForAES256GCM()``),
/// made once instead of on every message; it is wiped with the key.
public struct SymmetricKey: Sendable {
    /// Bytes in a key (32: every construction of this module).
    public static let byteCount = 32

    /// The key's bytes and, if prepared, its AES-256-GCM state: owned alone, immutable once made,
    /// wiped on release.
    final class Storage: @unchecked Sendable {
        // Immutable once written in `init`: sharing it across threads is safe.
        let bytes: UnsafeMutablePointer<UInt8>
        /// `crypto_aead_aes256gcm_state` expanded from `bytes` (aligned as libsodium requires), or nil.
        let aesState: UnsafeMutablePointer<crypto_aead_aes256gcm_state>?

        init(preparingAES: Bool, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
            bytes = .allocate(capacity: SymmetricKey.byteCount)
            fill(UnsafeMutableBufferPointer(start: bytes, count: SymmetricKey.byteCount))
            if preparingAES {
                // libsodium declares the state 16-byte aligned: asked for explicitly, whatever the import says.
                let raw = UnsafeMutableRawPointer.allocate(
                    byteCount: crypto_aead_aes256gcm_statebytes(), alignment: max(16, MemoryLayout<crypto_aead_aes256gcm_state>.alignment))
                let state = raw.bindMemory(to: crypto_aead_aes256gcm_state.self, capacity: 1)
                crypto_aead_aes256gcm_beforenm(state, bytes)
                aesState = state
            } else {
                aesState = nil
            }
        }

        deinit {
            sodium_memzero(bytes, SymmetricKey.byteCount)
            bytes.deallocate()
            if let aesState {
                sodium_memzero(aesState, crypto_aead_aes256gcm_statebytes())
                aesState.deallocate()
            }
        }
    }

    let storage: Storage

    /// A key of the 32 bytes in `bytes`; another length is ``SodiumError/Code/wrongKeyLength``.
    public init(bytes: Span<UInt8>) throws(SodiumError) {
        try SodiumLibrary.ready()
        guard bytes.count == Self.byteCount else {
            throw SodiumError(.wrongKeyLength, "a key is \(Self.byteCount) bytes, not \(bytes.count)")
        }
        storage = Storage(preparingAES: false) { target in
            for index in 0..<Self.byteCount { target[index] = bytes[index] }
        }
    }

    /// A key of the 32 bytes in `bytes`; another length is ``SodiumError/Code/wrongKeyLength``.
    public init(bytes: [UInt8]) throws(SodiumError) {
        try self.init(bytes: bytes.span)
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// A new key from libsodium's random generator (the system's CSPRNG).
    public static func random() throws(SodiumError) -> SymmetricKey {
        try SodiumLibrary.ready()
        return SymmetricKey(storage: Storage(preparingAES: false) { target in randombytes_buf(target.baseAddress!, target.count) })
    }

    /// The same key carrying its expanded AES-256-GCM state, so ``AES256GCM`` does not expand it
    /// on every message (about 500 more bytes, held as long as the key). Throws
    /// ``SodiumError/Code/unsupportedHardware`` on a CPU without AES-NI and CLMUL.
    public func preparedForAES256GCM() throws(SodiumError) -> SymmetricKey {
        if storage.aesState != nil { return self }
        try AES256GCM.requireHardware()
        let source = storage.bytes
        return SymmetricKey(storage: Storage(preparingAES: true) { target in
            for index in 0..<Self.byteCount { target[index] = source[index] }
        })
    }

    /// True if the key carries its expanded AES-256-GCM state.
    public var isPreparedForAES256GCM: Bool { storage.aesState != nil }

    /// A copy of the key's bytes, to store it (the copy is the caller's to keep safe).
    public func copiedBytes() -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage.bytes, count: Self.byteCount))
    }
}
