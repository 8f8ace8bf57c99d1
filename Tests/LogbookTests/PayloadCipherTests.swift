import Crypto
import EventLog
import Foundation
@testable import Logbook
import Testing

/// The payload cipher on its own: what it seals opens only with the same key, id and type and
/// unchanged bytes, the same event seals to the same bytes, and nonces do not repeat.
@Suite("Payload cipher")
struct PayloadCipherTests {
    @Test("seal then open gives the payload back; another key, id, type or a flipped bit does not open; sealing is deterministic")
    func roundTripAndTampering() throws {
        let key = SymmetricKey(size: .bits256)
        let id = UUID.timeOrdered()
        let payload = Array("a distinctive payload".utf8)
        let sealed = try PayloadCipher.seal(payload, key: key, eventId: id, type: "user.registered")
        #expect(sealed.count == payload.count + PayloadCipher.overhead)
        #expect(sealed.range(of: payload) == nil, "the plaintext shows through")
        #expect(try PayloadCipher.seal(payload, key: key, eventId: id, type: "user.registered") == sealed)
        #expect(try PayloadCipher.open(sealed, key: key, eventId: id, type: "user.registered") == payload)
        #expect(throws: (any Error).self) { try PayloadCipher.open(sealed, key: SymmetricKey(size: .bits256), eventId: id, type: "user.registered") }
        #expect(throws: (any Error).self) { try PayloadCipher.open(sealed, key: key, eventId: UUID.timeOrdered(), type: "user.registered") }
        #expect(throws: (any Error).self) { try PayloadCipher.open(sealed, key: key, eventId: id, type: "goal.set") }
        for index in [0, sealed.count / 2, sealed.count - 1] {
            var flipped = sealed
            flipped[index] ^= 0x01
            #expect(throws: (any Error).self) { try PayloadCipher.open(flipped, key: key, eventId: id, type: "user.registered") }
        }
        #expect(throws: (any Error).self) { try PayloadCipher.open(Array(sealed.prefix(10)), key: key, eventId: id, type: "user.registered") }
        #expect(try PayloadCipher.open(try PayloadCipher.seal([], key: key, eventId: id, type: "places.reset"), key: key, eventId: id, type: "places.reset") == [])
    }

    @Test("100,000 time-ordered ids made at once seal the same payload to 100,000 different ciphertexts (no nonce repeats)")
    func noncesDoNotRepeat() throws {
        let key = SymmetricKey(size: .bits256)
        var seen = Set<[UInt8]>()
        for _ in 0..<100_000 {
            // The ciphertext alone (not the tag, which the id changes anyway): equal ones would mean a repeated nonce.
            seen.insert(Array(try PayloadCipher.seal([0, 0, 0, 0, 0, 0, 0, 0], key: key, eventId: .timeOrdered(), type: "t").prefix(8)))
        }
        #expect(seen.count == 100_000)
    }
}

extension Array where Element == UInt8 {
    func range(of part: [UInt8]) -> Range<Int>? {
        guard !part.isEmpty, part.count <= count else { return nil }
        for start in 0...(count - part.count) where Array(self[start..<start + part.count]) == part { return start..<start + part.count }
        return nil
    }
}
