/// Seeded random numbers and bytes (SplitMix64), so a test's random inputs are the same in
/// every run.
struct SeededBytes {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }

    /// One round of an AEAD agreement test: a 32-byte key, a 12-byte nonce, 0–40 bytes of
    /// additional data, and a message of `round` bytes in the first 300 rounds, then of 0–700.
    mutating func aeadInputs(round: Int) -> (key: [UInt8], nonce: [UInt8], aad: [UInt8], message: [UInt8]) {
        let key = bytes(32)
        let nonce = bytes(12)
        let aad = bytes(Int(next() % 41))
        return (key, nonce, aad, bytes(round < 300 ? round : Int(next() % 701)))
    }
}
