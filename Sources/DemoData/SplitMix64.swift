import EventLog
public import Foundation

/// A small, fast, seeded random number generator (SplitMix64), so generated data is the same on
/// every run and generating it costs little next to what is measured.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A time-ordered (version 7) UUID for an event at `timestamp`: the same two draws as
    /// ``uuid()``, so choosing one or the other changes nothing else that is generated.
    public mutating func timeOrderedUUID(at instantMicroseconds: Int64) -> UUID {
        let a = next()
        let b = next()
        return UUID.timeOrdered(millis: UInt64(max(0, instantMicroseconds / 1000)), counter: UInt16(truncatingIfNeeded: a), random: b)
    }

    /// A random version-4 UUID.
    public mutating func uuid() -> UUID {
        let a = next()
        let b = next()
        func byte(_ word: UInt64, _ index: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * index)) }
        return UUID(uuid: (
            byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5), (byte(a, 6) & 0x0F) | 0x40, byte(a, 7),
            (byte(b, 0) & 0x3F) | 0x80, byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7)))
    }
}
