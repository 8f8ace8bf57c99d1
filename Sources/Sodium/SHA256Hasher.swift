import CSodium

/// SHA-256 (FIPS 180-4) computed incrementally by libsodium (`crypto_hash_sha256_*`): content
/// digests — of workout files, for ids derived from what they hold — from a vetted library. The
/// hashing state lives in this value; no pointer leaves it.
public struct SHA256Hasher {
    private var state = crypto_hash_sha256_state()

    /// A hasher with nothing absorbed yet; throws if libsodium cannot be used in this process.
    public init() throws(SodiumError) {
        try SodiumLibrary.ready()
        guard crypto_hash_sha256_init(&state) == 0 else { throw SodiumError(.failed, "crypto_hash_sha256_init") }
    }

    /// Absorbs `bytes`.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        // Returns 0 for any input length (it only copies and compresses blocks).
        _ = crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// The 32-byte digest of everything absorbed (absorb nothing more afterwards).
    public mutating func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = digest.withUnsafeMutableBufferPointer { crypto_hash_sha256_final(&state, $0.baseAddress!) }
        return digest
    }
}
