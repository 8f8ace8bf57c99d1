import Crypto
import Sodium
import Testing

/// SHA-256 through libsodium: the FIPS 180-4 examples, and swift-crypto's digest of random
/// inputs absorbed in random pieces.
@Suite("Sodium SHA-256")
struct SHA256HasherTests {
    static func digest(_ pieces: [[UInt8]]) throws -> String {
        var hasher = try SHA256Hasher()
        for piece in pieces { piece.withUnsafeBytes { hasher.update($0) } }
        return hasher.finalize().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test("the FIPS 180-4 examples: empty, \"abc\" and the 448-bit message")
    func fipsExamples() throws {
        #expect(try Self.digest([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try Self.digest([Array("abc".utf8)]) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try Self.digest([Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)])
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("random inputs in random pieces give swift-crypto's digest")
    func againstSwiftCrypto() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...5000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var pieces: [[UInt8]] = []
            var rest = bytes[...]
            while !rest.isEmpty {
                let take = Int.random(in: 1...max(1, rest.count), using: &rng)
                pieces.append(Array(rest.prefix(take)))
                rest = rest.dropFirst(take)
            }
            let expected = Crypto.SHA256.hash(data: bytes).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
            #expect(try Self.digest(pieces) == expected)
        }
    }
}
