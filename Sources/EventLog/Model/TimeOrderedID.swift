public import Foundation
import Synchronization

extension UUID {
    /// A new time-ordered id (UUID version 7, RFC 9562): 48 bits of Unix milliseconds, a 12-bit
    /// counter, then random bits. Ids made by one process strictly increase (the counter moves on
    /// within a millisecond, and time never goes back), so the log's index of event ids grows at
    /// its right edge instead of dirtying a random page per event. The default for every id the
    /// log or Logbook makes.
    public static func timeOrdered() -> UUID {
        var random = SystemRandomNumberGenerator()
        let (millis, counter) = TimeOrderedClock.shared.next(random: &random)
        return UUID.timeOrdered(millis: millis, counter: counter, random: random.next())
    }

    /// The version-7 id with these fields: reproducible ids for generated data.
    public static func timeOrdered(millis: UInt64, counter: UInt16, random: UInt64) -> UUID {
        let m = millis & 0xFFFF_FFFF_FFFF
        let c = counter & 0x0FFF
        return UUID(uuid: (
            UInt8(m >> 40 & 0xFF), UInt8(m >> 32 & 0xFF), UInt8(m >> 24 & 0xFF), UInt8(m >> 16 & 0xFF),
            UInt8(m >> 8 & 0xFF), UInt8(m & 0xFF), 0x70 | UInt8(c >> 8), UInt8(c & 0xFF),
            0x80 | UInt8(random >> 56 & 0x3F), UInt8(random >> 48 & 0xFF), UInt8(random >> 40 & 0xFF), UInt8(random >> 32 & 0xFF),
            UInt8(random >> 24 & 0xFF), UInt8(random >> 16 & 0xFF), UInt8(random >> 8 & 0xFF), UInt8(random & 0xFF)))
    }

    /// True for a version-7 (time-ordered) id.
    public var isTimeOrdered: Bool { uuid.6 >> 4 == 7 }
}

/// The millisecond and counter of the last time-ordered id this process made.
private final class TimeOrderedClock: Sendable {
    static let shared = TimeOrderedClock()
    private let state = Mutex<(millis: UInt64, counter: UInt16)>((0, 0))

    func next(random: inout SystemRandomNumberGenerator) -> (UInt64, UInt16) {
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        return state.withLock { state in
            if now > state.millis {
                // A fresh millisecond starts its counter low and random, leaving room to count.
                state = (now, UInt16.random(in: 0..<0x400, using: &random))
            } else if state.counter < 0x0FFF {
                state.counter += 1
            } else {
                // The counter ran out within one millisecond: borrow the next one.
                state = (state.millis + 1, UInt16.random(in: 0..<0x400, using: &random))
            }
            return state
        }
    }
}
