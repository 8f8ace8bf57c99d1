import Crypto
import Sodium
import Testing

/// libsodium's AES-256-GCM through the Sodium module: the GCM specification's AES-256 vectors
/// (McGrew and Viega, test cases 13 and 14), agreement with swift-crypto's `AES.GCM` (BoringSSL, an
/// independent implementation) on seeded random inputs, with and without the key's expanded state,
/// and typed errors. Skipped on a CPU without AES-NI, where libsodium refuses it.
@Suite("AES-256-GCM", .enabled(if: AES256GCM.isAvailable, "this CPU has no AES-NI and CLMUL"))
struct AES256GCMTests {
    @Test("GCM specification, test cases 13 and 14 (AES-256, zero key and nonce): ciphertext and tag, with and without the expanded key")
    func specificationVectors() throws {
        let plain = try Sodium.SymmetricKey(bytes: [UInt8](repeating: 0, count: 32))
        let nonce = [UInt8](repeating: 0, count: 12)
        let none: [UInt8] = []
        for key in [plain, try plain.preparedForAES256GCM()] {
            let empty = try AES256GCM.seal(none.span, key: key, nonce: nonce.span, authenticating: none.span, prefixedBy: none.span)
            #expect(empty == hex("530f8afbc74536b9a963b4f1c4cb738b"))
            let block = try AES256GCM.seal(
                [UInt8](repeating: 0, count: 16).span, key: key, nonce: nonce.span, authenticating: none.span, prefixedBy: none.span)
            #expect(block == hex("cea7403d4d606b6e074ec5d3baf39d18") + hex("d0d1c8a799996bf0265b98b5d48ab919"))
            #expect(try AES256GCM.open(block.span, key: key, nonce: nonce.span, authenticating: none.span) == [UInt8](repeating: 0, count: 16))
        }
    }

    @Test("2,000 seeded random keys, nonces, additional data and messages (0–700 bytes): libsodium makes swift-crypto's AES.GCM bytes, each opens the other's, prepared key or not")
    func agreesWithSwiftCrypto() throws {
        var random = SeededBytes(seed: 38_000)
        for round in 0..<2_000 {
            let (keyBytes, nonce, aad, message) = random.aeadInputs(round: round)
            let prefix = random.bytes(Int(random.next() % 13))
            let raw = try Sodium.SymmetricKey(bytes: keyBytes)
            let key = round.isMultiple(of: 2) ? raw : try raw.preparedForAES256GCM()
            let ours = try AES256GCM.seal(message.span, key: key, nonce: nonce.span, authenticating: aad.span, prefixedBy: prefix.span)
            #expect(Array(ours.prefix(prefix.count)) == prefix)
            let sealed = Array(ours.dropFirst(prefix.count))
            let box = try AES.GCM.seal(message, using: Crypto.SymmetricKey(data: keyBytes), nonce: try AES.GCM.Nonce(data: nonce), authenticating: aad)
            #expect(sealed == Array(box.ciphertext) + Array(box.tag), "round \(round)")
            #expect(try AES256GCM.open(sealed.span, key: key, nonce: nonce.span, authenticating: aad.span) == message)
            var opened: [UInt8]?
            try AES256GCM.withOpened(sealed.span, key: key, nonce: nonce.span, authenticating: aad.span) { plaintext in
                opened = plaintext.indices.map { plaintext[$0] }
            }
            #expect(opened == message)
            let theirs = try AES.GCM.open(try AES.GCM.SealedBox(combined: nonce + sealed), using: Crypto.SymmetricKey(data: keyBytes), authenticating: aad)
            #expect(Array(theirs) == message)
        }
    }

    @Test("typed errors, never traps: a nonce of the wrong length, a flipped bit, other additional data, a message shorter than a tag; the body's own error passes through")
    func typedErrors() throws {
        struct BodyError: Error {}
        let key = try Sodium.SymmetricKey.random().preparedForAES256GCM()
        let unprepared = try Sodium.SymmetricKey.random()
        #expect(key.isPreparedForAES256GCM && !unprepared.isPreparedForAES256GCM)
        let message = Array("a message".utf8)
        let nonce = [UInt8](repeating: 9, count: 12)
        let none: [UInt8] = []
        func code(_ body: () throws -> [UInt8]) -> SodiumError.Code? {
            guard case .failure(let error) = Result(catching: body) else { return nil }
            return (error as? SodiumError)?.code
        }
        #expect(code { try AES256GCM.seal(message.span, key: key, nonce: [UInt8](repeating: 9, count: 24).span, authenticating: none.span, prefixedBy: none.span) } == .wrongNonceLength)
        let sealed = try AES256GCM.seal(message.span, key: key, nonce: nonce.span, authenticating: none.span, prefixedBy: none.span)
        for index in sealed.indices {
            var flipped = sealed
            flipped[index] ^= 0x80
            #expect(code { try AES256GCM.open(flipped.span, key: key, nonce: nonce.span, authenticating: none.span) } == .authenticationFailed)
            #expect(code { try AES256GCM.withOpened(flipped.span, key: key, nonce: nonce.span, authenticating: none.span) { _ in }; return [] } == .authenticationFailed)
        }
        #expect(code { try AES256GCM.open(Array(sealed.prefix(15)).span, key: key, nonce: nonce.span, authenticating: none.span) } == .authenticationFailed)
        #expect(code { try AES256GCM.open(sealed.span, key: key, nonce: nonce.span, authenticating: [UInt8(1)].span) } == .authenticationFailed)
        #expect(throws: BodyError.self) { try AES256GCM.withOpened(sealed.span, key: key, nonce: nonce.span, authenticating: none.span) { _ in throw BodyError() } }
        let empty = try AES256GCM.seal(none.span, key: key, nonce: nonce.span, authenticating: none.span, prefixedBy: none.span)
        #expect(empty.count == 16)
        #expect(try AES256GCM.open(empty.span, key: key, nonce: nonce.span, authenticating: none.span) == [])
        var emptyCount = -1
        try AES256GCM.withOpened(empty.span, key: key, nonce: nonce.span, authenticating: none.span) { emptyCount = $0.count }
        #expect(emptyCount == 0)
    }
}
