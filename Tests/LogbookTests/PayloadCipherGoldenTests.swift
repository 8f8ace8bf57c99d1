import Crypto
import Foundation
@testable import Logbook
import Sodium
import Testing

/// Golden vectors of the payload format `chacha20-poly1305/v1`, sealed by Logbook's own
/// hand-written RFC 8439 cipher (which is about to be replaced by libsodium): the exact bytes
/// stores in that format hold. This build proves they are what that cipher makes, and that
/// libsodium's IETF ChaCha20-Poly1305 and swift-crypto's ChaChaPoly open them with the format's
/// nonce (id bytes 0–7, then 8–11 XOR 12–15) and additional data (id, then type).
@Suite("Payload cipher golden vectors")
struct PayloadCipherGoldenTests {
    struct GoldenVector {
        let id: String
        let type: String
        let payload: String
        let sealed: String
    }

    static let key = (0..<32).map { UInt8(0x40 + $0) }
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

    @Test("the hand-written cipher makes the golden bytes; libsodium and swift-crypto open them")
    func goldenVectors() throws {
        for vector in Self.golden {
            let id = try #require(UUID(uuidString: vector.id))
            let payload = Array(vector.payload.utf8)
            let expected = Self.bytes(vector.sealed)
            #expect(PayloadCipher.seal(payload.span, key: ChaCha20(key: Self.key.span), eventId: id, type: vector.type) == expected)
            let u = id.uuid
            let nonce = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8 ^ u.12, u.9 ^ u.13, u.10 ^ u.14, u.11 ^ u.15]
            let aad = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15] + Array(vector.type.utf8)
            let key = try Sodium.SymmetricKey(bytes: Self.key)
            #expect(try Sodium.ChaCha20Poly1305.open(expected.span, key: key, nonce: nonce.span, authenticating: aad.span) == payload)
            let box = try ChaChaPoly.SealedBox(combined: nonce + expected)
            #expect(Array(try ChaChaPoly.open(box, using: Crypto.SymmetricKey(data: Self.key), authenticating: aad)) == payload)
        }
    }

    private static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { index in
            func value(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : (digit | 0x20) - 0x61 + 10 }
            return value(digits[index]) << 4 | value(digits[index + 1])
        }
    }
}
