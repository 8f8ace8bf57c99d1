import CSodium

/// A 256-bit secret key for the AEAD constructions of this module. Its length is checked when it
/// is made (a typed error, never a trap); its bytes live in one allocation of their own that is
/// wiped (`sodium_memzero`) when the last copy of the key goes away. Making a key sets libsodium
/// up, so whoever holds one may seal and open.
public struct SymmetricKey: Sendable {
    /// Bytes in a key (32: XChaCha20-Poly1305 and ChaCha20-Poly1305 alike).
    public static let byteCount = 32

    /// The key's bytes, owned alone and wiped on release.
    final class Storage: @unchecked Sendable {
        // Immutable once written in `init`: sharing it across threads is safe.
        let bytes: UnsafeMutablePointer<UInt8>

        init(_ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
            bytes = .allocate(capacity: SymmetricKey.byteCount)
            fill(UnsafeMutableBufferPointer(start: bytes, count: SymmetricKey.byteCount))
        }

        deinit {
            sodium_memzero(bytes, SymmetricKey.byteCount)
            bytes.deallocate()
        }
    }

    let storage: Storage

    /// A key of the 32 bytes in `bytes`; another length is ``SodiumError/Code/wrongKeyLength``.
    public init(bytes: Span<UInt8>) throws(SodiumError) {
        try SodiumLibrary.ready()
        guard bytes.count == Self.byteCount else {
            throw SodiumError(.wrongKeyLength, "a key is \(Self.byteCount) bytes, not \(bytes.count)")
        }
        storage = Storage { target in
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
        return SymmetricKey(storage: Storage { target in randombytes_buf(target.baseAddress!, target.count) })
    }

    /// A copy of the key's bytes, to store it (the copy is the caller's to keep safe).
    public func copiedBytes() -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage.bytes, count: Self.byteCount))
    }
}
