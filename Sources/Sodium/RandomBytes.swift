import CSodium

/// Unpredictable bytes from libsodium's generator (the system's CSPRNG: `getrandom` on Linux).
public enum RandomBytes {
    /// `count` random bytes (none for a count of 0 or less).
    public static func make(_ count: Int) throws(SodiumError) -> [UInt8] {
        try SodiumLibrary.ready()
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            randombytes_buf(buffer.baseAddress!, count)
            initialized = count
        }
    }
}
