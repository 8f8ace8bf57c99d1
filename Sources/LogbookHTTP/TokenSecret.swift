/// How strong an HS256 signing secret must be: at least 256 bits, counted by the secret's
/// alphabet, since a secret is usually random bytes written as text. Hex digits carry 4 bits
/// each, the base64 alphabet (standard or URL-safe, with `=` padding) 6, anything else 8 per
/// byte of UTF-8. So 32 random bytes pass however they are written (64 hex digits, 43 base64
/// characters), and a 32-character hex string (16 bytes) does not. A secret of one repeated
/// character is refused whatever its length. The HMAC key is the secret's UTF-8 bytes, as written.
public enum TokenSecret {
    /// Bits a secret must carry.
    public static let minimumBits = 256

    /// Why `secret` is too weak to sign tokens, or nil if it is strong enough.
    public static func weakness(_ secret: String) -> String? {
        let bytes = Array(secret.utf8)
        guard let first = bytes.first else { return "the secret is empty" }
        if bytes.allSatisfy({ $0 == first }) { return "the secret is one character repeated" }
        let bits = bytes.count * bitsPerCharacter(bytes)
        guard bits >= minimumBits else {
            return "the secret carries about \(bits) bits; use at least 32 random bytes (e.g. `head -c 32 /dev/urandom | base64`)"
        }
        return nil
    }

    private static func bitsPerCharacter(_ bytes: [UInt8]) -> Int {
        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        func isBase64(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || [UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "=")].contains(byte)
        }
        if bytes.allSatisfy(isHex) { return 4 }
        if bytes.allSatisfy(isBase64) { return 6 }
        return 8
    }
}
