import Crypto
import DemoData
import EventLog
import Foundation
@testable import Logbook
import LMDB
import LogbookTesting
import Testing

/// The payload cipher on its own: Logbook's ChaCha20-Poly1305 makes the bytes swift-crypto
/// (BoringSSL) makes, for RFC 8439's vector and for thousands of random keys, nonces and lengths;
/// what it seals opens only with the same key, id and type and unchanged bytes, the same event
/// seals to the same bytes, and nonces do not repeat.
@Suite("Payload cipher")
struct PayloadCipherTests {
    private static func randomKey(_ rng: inout SplitMix64) -> [UInt8] {
        (0..<32).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }

    @Test("RFC 8439 §2.8.2: the AEAD test vector's ciphertext and tag")
    func rfcVector() throws {
        let plaintext = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let keyBytes = (0x80...0x9F).map { UInt8($0) }
        let key = ChaCha20(key: keyBytes.span)
        let nonceBytes: [UInt8] = [0x07, 0x00, 0x00, 0x00, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47]
        let aad: [UInt8] = [0x50, 0x51, 0x52, 0x53, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7]
        let sealed = ChaCha20Poly1305.seal(plaintext.span, key: key, nonce: Self.words(nonceBytes), authenticating: aad.span)
        #expect(Array(sealed.prefix(16)) == [0xD3, 0x1A, 0x8D, 0x34, 0x64, 0x8E, 0x60, 0xDB, 0x7B, 0x86, 0xAF, 0xBC, 0x53, 0xEF, 0x7E, 0xC2])
        #expect(Array(sealed.suffix(16)) == [0x1A, 0xE1, 0x0B, 0x59, 0x4F, 0x09, 0xE2, 0x6A, 0x7E, 0x90, 0x2E, 0xCB, 0xD0, 0x60, 0x06, 0x91])
        #expect(try ChaCha20Poly1305.open(sealed.span, key: key, nonce: Self.words(nonceBytes), authenticating: aad.span) == plaintext)
    }

    @Test("4,000 seeded random keys, nonces, additional data and payloads (0–700 bytes, some all 0x00 or 0xFF): the same bytes as swift-crypto's ChaChaPoly, each opens the other's, and a flipped bit does not open")
    func agreesWithSwiftCrypto() throws {
        var rng = SplitMix64(seed: 8439)
        for round in 0..<4_000 {
            // Extreme keys and texts probe the carries of the MAC's reduction.
            let fill: UInt8? = round % 8 == 1 ? 0xFF : round % 8 == 2 ? 0x00 : nil
            let keyBytes = Self.bytes(32, fill, &rng)
            let nonceBytes = Self.bytes(12, fill, &rng)
            let aad = Self.bytes(Int(rng.next() % 41), fill, &rng)
            let length = round < 700 ? round : Int(rng.next() % 701)
            let plaintext = Self.bytes(length, fill, &rng)
            let key = ChaCha20(key: keyBytes.span)
            let nonce = Self.words(nonceBytes)
            let ours = ChaCha20Poly1305.seal(plaintext.span, key: key, nonce: nonce, authenticating: aad.span)
            let box = try ChaChaPoly.seal(plaintext, using: SymmetricKey(data: keyBytes), nonce: try ChaChaPoly.Nonce(data: nonceBytes), authenticating: aad)
            let theirs = Array(box.ciphertext) + Array(box.tag)
            #expect(ours == theirs, "round \(round): \(length) bytes, \(aad.count) bytes of additional data")
            let opened = try ChaCha20Poly1305.open(theirs.span, key: key, nonce: nonce, authenticating: aad.span)
            #expect(opened == plaintext)
            let openedByThem = try ChaChaPoly.open(try ChaChaPoly.SealedBox(combined: nonceBytes + ours), using: SymmetricKey(data: keyBytes), authenticating: aad)
            #expect(Array(openedByThem) == plaintext)
            var flipped = ours
            flipped[Int(rng.next() % UInt64(flipped.count))] ^= UInt8(1) << (rng.next() % 8)
            #expect(Self.opens(flipped, key, nonce, aad) == false)
        }
    }

    private static func bytes(_ count: Int, _ fill: UInt8?, _ rng: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<count { bytes.append(fill ?? UInt8(truncatingIfNeeded: rng.next())) }
        return bytes
    }

    private static func opens(_ sealed: [UInt8], _ key: ChaCha20, _ nonce: SIMD3<UInt32>, _ aad: [UInt8]) -> Bool {
        do {
            _ = try ChaCha20Poly1305.open(sealed.span, key: key, nonce: nonce, authenticating: aad.span)
            return true
        } catch {
            return false
        }
    }

    @Test("seal then open gives the payload back; another key, id, type or a flipped bit does not open; sealing is deterministic")
    func roundTripAndTampering() throws {
        var rng = SplitMix64(seed: 1)
        let keyBytes = Self.randomKey(&rng)
        let key = ChaCha20(key: keyBytes.span)
        let id = UUID.timeOrdered()
        let payload = Array("a distinctive payload".utf8)
        let sealed = PayloadCipher.seal(payload.span, key: key, eventId: id, type: "user.registered")
        #expect(sealed.count == payload.count + PayloadCipher.overhead)
        #expect(sealed.range(of: payload) == nil, "the plaintext shows through")
        #expect(PayloadCipher.seal(payload.span, key: key, eventId: id, type: "user.registered") == sealed)
        #expect(try PayloadCipher.open(sealed.span, key: key, eventId: id, type: "user.registered") == payload)
        let otherKeyBytes = Self.randomKey(&rng)
        let otherKey = ChaCha20(key: otherKeyBytes.span)
        #expect(throws: (any Error).self) { try PayloadCipher.open(sealed.span, key: otherKey, eventId: id, type: "user.registered") }
        #expect(throws: (any Error).self) { try PayloadCipher.open(sealed.span, key: key, eventId: UUID.timeOrdered(), type: "user.registered") }
        #expect(throws: (any Error).self) { try PayloadCipher.open(sealed.span, key: key, eventId: id, type: "goal.set") }
        for index in [0, sealed.count / 2, sealed.count - 1] {
            var flipped = sealed
            flipped[index] ^= 0x01
            #expect(throws: (any Error).self) { try PayloadCipher.open(flipped.span, key: key, eventId: id, type: "user.registered") }
        }
        let cut = Array(sealed.prefix(10))
        #expect(throws: (any Error).self) { try PayloadCipher.open(cut.span, key: key, eventId: id, type: "user.registered") }
        let nothing: [UInt8] = []
        let empty = PayloadCipher.seal(nothing.span, key: key, eventId: id, type: "places.reset")
        #expect(try PayloadCipher.open(empty.span, key: key, eventId: id, type: "places.reset") == [])
    }

    @Test("100,000 time-ordered ids made at once seal the same payload to 100,000 different ciphertexts (no nonce repeats)")
    func noncesDoNotRepeat() throws {
        var rng = SplitMix64(seed: 2)
        let keyBytes = Self.randomKey(&rng)
        let key = ChaCha20(key: keyBytes.span)
        let payload: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0]
        var seen = Set<[UInt8]>()
        for _ in 0..<100_000 {
            // The ciphertext alone (not the tag, which the id changes anyway): equal ones would mean a repeated nonce.
            seen.insert(Array(PayloadCipher.seal(payload.span, key: key, eventId: .timeOrdered(), type: "t").prefix(8)))
        }
        #expect(seen.count == 100_000)
    }

    @Test("a stored key of the wrong length is a storage error naming the user and the length, not a crash (read alone, or before a commit makes missing keys)")
    func damagedKey() async throws {
        try await withTemporaryDirectory { directory in
            let store = try UserKeyStore(directory: directory, creatingWith: .perUserChaChaPoly, readOnly: false, durability: .noSync)
            defer { store.close() }
            try store.withEnvironment { environment in
                let keys = try environment.openDatabase(named: "user-keys")
                let damaged = [UInt8](repeating: 7, count: 31)
                try environment.write { txn in try txn.put(keys, key: Array("u-1".utf8).span, value: damaged.span) }
            }
            func isDamage(_ error: any Error) -> Bool {
                guard let error = error as? LogbookError, error.code == .storage else { return false }
                return error.message.contains("u-1") && error.message.contains("31 bytes")
            }
            #expect(performing: { try store.entry(for: "u-1") }, throws: isDamage)
            #expect(performing: { try store.ensureKeys(for: ["u-1", "u-2"]) }, throws: isDamage)
        }
    }

    private static func words(_ nonce: [UInt8]) -> SIMD3<UInt32> {
        SIMD3((0..<3).map { ChaCha20.littleEndianWord(nonce.span, at: $0 * 4) })
    }
}

extension Array where Element == UInt8 {
    func range(of part: [UInt8]) -> Range<Int>? {
        guard !part.isEmpty, part.count <= count else { return nil }
        for start in 0...(count - part.count) where Array(self[start..<start + part.count]) == part { return start..<start + part.count }
        return nil
    }
}
