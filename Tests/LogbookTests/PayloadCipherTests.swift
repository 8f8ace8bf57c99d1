import Crypto
import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTesting
import Sodium
import Testing

/// The payload ciphers on their own. The current format (XChaCha20-Poly1305, libsodium): what it
/// seals opens only with the same key, id, type and schema version and unchanged bytes; its nonce
/// holds the whole id, so ids that the first format folded onto one nonce do not share one. The
/// first format (read only): bytes sealed by the hand-written ChaCha20-Poly1305 it was made with
/// (golden vectors kept from it) open through libsodium, and swift-crypto opens them too.
@Suite("Payload cipher")
struct PayloadCipherTests {
    /// A payload sealed by the first format's own code (the hand-written RFC 8439 ChaCha20-Poly1305
    /// Logbook had before libsodium), under ``goldenKey``: kept to prove old stores still open.
    struct GoldenVector {
        let id: String
        let type: String
        let payload: String
        let sealed: String
    }

    static let goldenKey = (0..<32).map { UInt8(0x40 + $0) }
    static let golden = [
        GoldenVector(
            id: "0192f1c2-7a3b-7cde-8f01-23456789abcd", type: "user.registered",
            payload: "{\"displayName\":\"Ada\",\"timeZone\":\"Europe/London\"}",
            sealed: "e45eddf6e6b2e6437abbeee12678cad701a11a26e7dd90711767ca52641d6ab186d943e50abbb2f9865a7137ed1b0cfadf627d16364da13e0e1f2777ab714c0c"),
        GoldenVector(
            id: "0192f1c2-7a3b-7cde-8f01-23456789abce", type: "workout.recorded",
            payload: "a payload of binary-ish bytes \u{01}\u{02}\u{03} that runs past one 64-byte ChaCha20 block, to cover a second block",
            sealed: "717aa6f1b42936c13ec7e29c8a2dc14de0b27863e633cbf794bac17fe1b719f6bfb7638e4f928586f6cee91fc345c52c2002aa5382451acd17798169911074dbad1da61747d7693432e65116e1036e5c85c66997531148cd8bb68afe694b8ddb4580d6460fe3dfb9c2affb08007b8c8c155fc569"),
        GoldenVector(
            id: "6f9619ff-8b86-4d01-b42d-00c04fc964ff", type: "places.reset",
            payload: "",
            sealed: "e260905073e0a8fbe894791091417bcc"),
        GoldenVector(
            id: "6f9619ff-8b86-4d01-fbe4-643f00000000", type: "places.reset",
            payload: "a different payload under the colliding nonce",
            sealed: "3b7baa1ab1a6a5a1534ecc1a78b984648d9080e15885895c870fa2894706d8bdb012031b60b0291a02a8376375b74df4aeab50d80ada6314320633f9ba"),
    ]

    private static func randomKey(_ rng: inout SplitMix64) throws -> Sodium.SymmetricKey {
        try Sodium.SymmetricKey(bytes: (0..<32).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
    }

    @Test("first format: payloads sealed by the old hand-written cipher open through libsodium's IETF ChaCha20-Poly1305, and through swift-crypto's ChaChaPoly; another id or type does not open")
    func firstFormatGoldenVectors() throws {
        let key = try Sodium.SymmetricKey(bytes: Self.goldenKey)
        for vector in Self.golden {
            let id = try #require(UUID(uuidString: vector.id))
            let sealed = hexBytes(vector.sealed)
            let payload = Array(vector.payload.utf8)
            #expect(sealed.count == payload.count + LegacyPayloadCipher.overhead)
            #expect(try LegacyPayloadCipher.open(sealed.span, key: key, eventId: id, type: vector.type) == payload, "\(vector.id)")
            let box = try ChaChaPoly.SealedBox(combined: LegacyPayloadCipher.nonce(id) + sealed)
            let theirs = try ChaChaPoly.open(box, using: Crypto.SymmetricKey(data: Self.goldenKey), authenticating: LegacyPayloadCipher.additionalData(id, vector.type))
            #expect(Array(theirs) == payload)
            #expect(throws: SodiumError.self) { try LegacyPayloadCipher.open(sealed.span, key: key, eventId: id, type: vector.type + "x") }
            #expect(throws: SodiumError.self) { try LegacyPayloadCipher.open(sealed.span, key: key, eventId: UUID.timeOrdered(), type: vector.type) }
        }
    }

    @Test("the defect: two ids the first format folds onto one nonce (bytes 8–11 XOR 12–15 equal) get different nonces in the current format")
    func foldedIdsNoLongerShareANonce() throws {
        let first = try #require(UUID(uuidString: Self.golden[2].id))
        let second = try #require(UUID(uuidString: Self.golden[3].id))
        #expect(first != second)
        #expect(LegacyPayloadCipher.nonce(first) == LegacyPayloadCipher.nonce(second), "the vectors no longer show the old collision")
        let salt = try PayloadCipher.Salt.random()
        let nonce = { (id: UUID) in Array(PayloadCipher.parameters(id, salt.bytes.span, "t", 1).prefix(XChaCha20Poly1305.nonceBytes)) }
        #expect(nonce(first) != nonce(second))

        // 20,000 pairs of ids built to collide under the fold: the same plaintext under the current
        // format never gives ciphertexts whose XOR is the plaintexts' (no keystream is reused).
        var rng = SplitMix64(seed: 12)
        let key = try Self.randomKey(&rng)
        let a = [UInt8](repeating: 0x41, count: 32)
        let b = [UInt8](repeating: 0x62, count: 32)
        for _ in 0..<20_000 {
            var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let one = UUID(uuid: uuidTuple(bytes))
            // Same first 8 bytes and the same XOR of 8–11 with 12–15: the first format's nonce is equal.
            let mask = (0..<4).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            for index in 0..<4 {
                bytes[8 + index] ^= mask[index]
                bytes[12 + index] ^= mask[index]
            }
            let other = UUID(uuid: uuidTuple(bytes))
            guard one != other else { continue }
            #expect(LegacyPayloadCipher.nonce(one) == LegacyPayloadCipher.nonce(other))
            let sealedA = try PayloadCipher.seal(a.span, key: key, salt: salt, eventId: one, type: "t", schemaVersion: 1)
            let sealedB = try PayloadCipher.seal(b.span, key: key, salt: salt, eventId: other, type: "t", schemaVersion: 1)
            let xor = (0..<32).map { sealedA[PayloadCipher.saltBytes + $0] ^ sealedB[PayloadCipher.saltBytes + $0] }
            #expect(xor != (0..<32).map { a[$0] ^ b[$0] })
        }
    }

    @Test("the current format is exactly as documented: salt, then XChaCha20-Poly1305 with nonce = id ‖ salt and additional data = id ‖ schema version (big-endian) ‖ type")
    func currentFormatLayout() throws {
        let key = try Sodium.SymmetricKey(bytes: Self.goldenKey)
        let salt = PayloadCipher.Salt(bytes: [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7])
        let id = try #require(UUID(uuidString: "0192f1c2-7a3b-7cde-8f01-23456789abcd"))
        let idBytes = hexBytes("0192f1c27a3b7cde8f0123456789abcd")
        let payload = Array("{\"displayName\":\"Ada\"}".utf8)
        let nonce = idBytes + salt.bytes
        let aad = idBytes + [0x00, 0x01, 0x02, 0x03] + Array("user.registered".utf8)
        let expected = salt.bytes + (try XChaCha20Poly1305.seal(payload.span, key: key, nonce: nonce.span, authenticating: aad.span))
        let sealed = try PayloadCipher.seal(payload.span, key: key, salt: salt, eventId: id, type: "user.registered", schemaVersion: 0x0001_0203)
        #expect(sealed == expected)
        #expect(try PayloadCipher.open(sealed.span, key: key, eventId: id, type: "user.registered", schemaVersion: 0x0001_0203) == payload)
    }

    @Test("seal then open gives the payload back; another key, id, type, schema version, salt or a flipped bit does not open; one salt seals deterministically")
    func roundTripAndTampering() throws {
        var rng = SplitMix64(seed: 1)
        let key = try Self.randomKey(&rng)
        let salt = try PayloadCipher.Salt.random()
        let id = UUID.timeOrdered()
        let payload = Array("a distinctive payload".utf8)
        func seal(_ payload: [UInt8], salt other: PayloadCipher.Salt? = nil, type: String = "user.registered") throws -> [UInt8] {
            try PayloadCipher.seal(payload.span, key: key, salt: other ?? salt, eventId: id, type: type, schemaVersion: 1)
        }
        let sealed = try seal(payload)
        #expect(sealed.count == payload.count + PayloadCipher.overhead)
        #expect(Array(sealed.prefix(PayloadCipher.saltBytes)) == salt.bytes, "the salt leads the stored form")
        #expect(sealed.range(of: payload) == nil, "the plaintext shows through")
        #expect(try seal(payload) == sealed)
        #expect(try PayloadCipher.open(sealed.span, key: key, eventId: id, type: "user.registered", schemaVersion: 1) == payload)
        #expect(throws: SodiumError.self) { try PayloadCipher.open(sealed.span, key: try Self.randomKey(&rng), eventId: id, type: "user.registered", schemaVersion: 1) }
        #expect(throws: SodiumError.self) { try PayloadCipher.open(sealed.span, key: key, eventId: .timeOrdered(), type: "user.registered", schemaVersion: 1) }
        #expect(throws: SodiumError.self) { try PayloadCipher.open(sealed.span, key: key, eventId: id, type: "goal.set", schemaVersion: 1) }
        // The schema version is authenticated: a payload re-labelled with another version does not open.
        #expect(throws: SodiumError.self) { try PayloadCipher.open(sealed.span, key: key, eventId: id, type: "user.registered", schemaVersion: 2) }
        let otherSalt = try seal(payload, salt: try PayloadCipher.Salt.random())
        #expect(otherSalt != sealed)
        #expect(try PayloadCipher.open(otherSalt.span, key: key, eventId: id, type: "user.registered", schemaVersion: 1) == payload)
        for index in [0, PayloadCipher.saltBytes, sealed.count / 2, sealed.count - 1] {
            var flipped = sealed
            flipped[index] ^= 0x01
            #expect(throws: SodiumError.self) { try PayloadCipher.open(flipped.span, key: key, eventId: id, type: "user.registered", schemaVersion: 1) }
        }
        for length in [0, 7, 10, PayloadCipher.overhead - 1] {
            let cut = Array(sealed.prefix(length))
            #expect(throws: SodiumError.self) { try PayloadCipher.open(cut.span, key: key, eventId: id, type: "user.registered", schemaVersion: 1) }
        }
        let empty = try seal([], type: "places.reset")
        #expect(empty.count == PayloadCipher.overhead)
        #expect(try PayloadCipher.open(empty.span, key: key, eventId: id, type: "places.reset", schemaVersion: 1) == [])
    }

    @Test("100,000 time-ordered ids made at once seal the same payload to 100,000 different ciphertexts (no nonce repeats)")
    func noncesDoNotRepeat() throws {
        var rng = SplitMix64(seed: 2)
        let key = try Self.randomKey(&rng)
        let salt = try PayloadCipher.Salt.random()
        let payload: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0]
        var seen = Set<[UInt8]>()
        for _ in 0..<100_000 {
            // The ciphertext alone (not the tag, which the id changes anyway): equal ones would mean a repeated nonce.
            let sealed = try PayloadCipher.seal(payload.span, key: key, salt: salt, eventId: .timeOrdered(), type: "t", schemaVersion: 1)
            seen.insert(Array(sealed[PayloadCipher.saltBytes..<PayloadCipher.saltBytes + 8]))
        }
        #expect(seen.count == 100_000)
    }

    @Test("a stored key of the wrong length is a storage error naming the user and the length, not a crash (read alone, or before a commit makes missing keys)")
    func damagedKey() async throws {
        try await withTemporaryDirectory { directory in
            let store = try UserKeyStore(directory: directory, creatingWith: .current, readOnly: false, durability: .noSync)
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
}

/// The bytes a string of hex digits spells.
func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8)
    return stride(from: 0, to: digits.count - 1, by: 2).map { index in
        func value(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : (digit | 0x20) - 0x61 + 10 }
        return value(digits[index]) << 4 | value(digits[index + 1])
    }
}

func uuidTuple(_ b: [UInt8]) -> uuid_t {
    (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
}

extension Array where Element == UInt8 {
    func range(of part: [UInt8]) -> Range<Int>? {
        guard !part.isEmpty, part.count <= count else { return nil }
        for start in 0...(count - part.count) where Array(self[start..<start + part.count]) == part { return start..<start + part.count }
        return nil
    }
}
