import Crypto
import Sodium
import Testing

/// libsodium through the Sodium module, against the published vectors: RFC 8439 §2.8.2 for the
/// IETF ChaCha20-Poly1305 and draft-irtf-cfrg-xchacha-03 §A.3 for XChaCha20-Poly1305.
@Suite("Sodium vectors")
struct SodiumVectorTests {
    static let sunscreen = Array(
        "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
    static let key = (0x80...0x9F).map { UInt8($0) }
    static let aad: [UInt8] = [0x50, 0x51, 0x52, 0x53, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7]

    @Test("RFC 8439 §2.8.2: the AEAD vector's ciphertext and tag, and it opens again")
    func rfc8439() throws {
        let nonce: [UInt8] = [0x07, 0x00, 0x00, 0x00, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47]
        let expected = hex("""
            d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b\
            1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc\
            3ff4def08e4b7a9de576d26586cec64b6116
            """) + hex("1ae10b594f09e26a7e902ecbd0600691")
        let key = try Sodium.SymmetricKey(bytes: Self.key)
        let sealed = try ChaCha20Poly1305.seal(Self.sunscreen.span, key: key, nonce: nonce.span, authenticating: Self.aad.span)
        #expect(sealed == expected)
        #expect(try ChaCha20Poly1305.open(sealed.span, key: key, nonce: nonce.span, authenticating: Self.aad.span) == Self.sunscreen)
    }

    @Test("draft-irtf-cfrg-xchacha-03 §A.3.1: the XChaCha20-Poly1305 vector's ciphertext and tag, and it opens again")
    func xchachaDraft() throws {
        let nonce = (0x40...0x57).map { UInt8($0) }
        let expected = hex("""
            bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39\
            ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9\
            21f9664c97637da9768812f615c68b13b52e
            """) + hex("c0875924c1c7987947deafd8780acf49")
        let key = try Sodium.SymmetricKey(bytes: Self.key)
        let sealed = try XChaCha20Poly1305.seal(Self.sunscreen.span, key: key, nonce: nonce.span, authenticating: Self.aad.span)
        #expect(sealed == expected)
        #expect(try XChaCha20Poly1305.open(sealed.span, key: key, nonce: nonce.span, authenticating: Self.aad.span) == Self.sunscreen)
    }

    @Test("2,000 seeded random keys, nonces, additional data and messages (0–700 bytes): libsodium's IETF ChaCha20-Poly1305 makes swift-crypto's ChaChaPoly bytes, each opens the other's")
    func agreesWithSwiftCrypto() throws {
        var random = SeededBytes(seed: 8439)
        for round in 0..<2_000 {
            let (keyBytes, nonce, aad, message) = random.aeadInputs(round: round)
            let key = try Sodium.SymmetricKey(bytes: keyBytes)
            let ours = try ChaCha20Poly1305.seal(message.span, key: key, nonce: nonce.span, authenticating: aad.span)
            let box = try ChaChaPoly.seal(message, using: Crypto.SymmetricKey(data: keyBytes), nonce: try ChaChaPoly.Nonce(data: nonce), authenticating: aad)
            #expect(ours == Array(box.ciphertext) + Array(box.tag), "round \(round)")
            #expect(try ChaCha20Poly1305.open((Array(box.ciphertext) + Array(box.tag)).span, key: key, nonce: nonce.span, authenticating: aad.span) == message)
            let theirs = try ChaChaPoly.open(try ChaChaPoly.SealedBox(combined: nonce + ours), using: Crypto.SymmetricKey(data: keyBytes), authenticating: aad)
            #expect(Array(theirs) == message)
        }
    }

    @Test("typed errors, never traps: a key of 31 or 33 bytes, a nonce of the wrong length, a flipped bit, a message shorter than a tag")
    func typedErrors() throws {
        for length in [0, 31, 33] {
            #expect(throws: SodiumError.self) { _ = try Sodium.SymmetricKey(bytes: [UInt8](repeating: 1, count: length)) }
            do {
                _ = try Sodium.SymmetricKey(bytes: [UInt8](repeating: 1, count: length))
            } catch {
                #expect(error.code == .wrongKeyLength)
            }
        }
        let key = try Sodium.SymmetricKey.random()
        let other = try Sodium.SymmetricKey.random()
        #expect(key.copiedBytes().count == 32 && key.copiedBytes() != other.copiedBytes())
        let message = Array("a message".utf8)
        let nonce = [UInt8](repeating: 9, count: 24)
        let none: [UInt8] = []
        func code(_ body: () throws -> [UInt8]) -> SodiumError.Code? {
            do {
                _ = try body()
                return nil
            } catch {
                return (error as? SodiumError)?.code
            }
        }
        #expect(code { try XChaCha20Poly1305.seal(message.span, key: key, nonce: Array(nonce.prefix(12)).span, authenticating: none.span) } == .wrongNonceLength)
        #expect(code { try ChaCha20Poly1305.seal(message.span, key: key, nonce: nonce.span, authenticating: none.span) } == .wrongNonceLength)
        let sealed = try XChaCha20Poly1305.seal(message.span, key: key, nonce: nonce.span, authenticating: none.span)
        for index in sealed.indices {
            var flipped = sealed
            flipped[index] ^= 0x80
            #expect(code { try XChaCha20Poly1305.open(flipped.span, key: key, nonce: nonce.span, authenticating: none.span) } == .authenticationFailed)
        }
        #expect(code { try XChaCha20Poly1305.open(Array(sealed.prefix(15)).span, key: key, nonce: nonce.span, authenticating: none.span) } == .authenticationFailed)
        #expect(code { try XChaCha20Poly1305.open(sealed.span, key: key, nonce: nonce.span, authenticating: [UInt8(1)].span) } == .authenticationFailed)
        let empty = try XChaCha20Poly1305.seal(none.span, key: key, nonce: nonce.span, authenticating: none.span)
        #expect(empty.count == 16)
        #expect(try XChaCha20Poly1305.open(empty.span, key: key, nonce: nonce.span, authenticating: none.span) == [])
        #expect(try RandomBytes.make(8).count == 8)
    }
}

/// The bytes a string of hex digits spells.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8)
    return stride(from: 0, to: digits.count - 1, by: 2).map { index in
        func value(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : (digit | 0x20) - 0x61 + 10 }
        return value(digits[index]) << 4 | value(digits[index + 1])
    }
}
