import Crypto
@testable import LogbookDomain
import Testing

/// The hex form of digests and entity tags: two lower-case digits per byte, high nibble first.
@Suite("Hex digits")
struct HexDigitsTests {
    @Test("every byte value, and SHA-256 of \"abc\" (FIPS 180-2's example) as 64 lower-case digits")
    func hexDigits() {
        #expect([UInt8]().hexDigits == "")
        #expect([0x00, 0x0F, 0xA5, 0xFF].hexDigits == "000fa5ff")
        for byte in UInt8.min...UInt8.max {
            let expected = (byte < 16 ? "0" : "") + String(byte, radix: 16)
            #expect([byte].hexDigits == expected)
        }
        #expect(SHA256.hash(data: Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
