import Foundation

/// How strong an HS256 signing secret must be: about 256 bits, estimated from what the secret
/// shows of itself, since a secret is usually random bytes written as text.
///
/// - **Alphabet.** Hex digits carry 4 bits each, the base64 alphabet (standard or URL-safe, with
///   `=` padding) 6, other printable ASCII log2(94) ≈ 6.55, anything else 8 per byte of UTF-8. So
///   32 random bytes pass however they are written (64 hex digits, 43 base64 characters), and a
///   32-character hex string (16 bytes) does not.
/// - **A short alphabet.** A secret that uses fewer than half the different characters a random
///   one of its length and alphabet would (about 16 of 16 hex digits in 64, 31 of 64 base64
///   characters in 43) carries only log2 of the characters it uses: `abab…` is 1 bit a character.
/// - **Repeats and runs.** A character inside a stretch of 8 or more that already occurred earlier
///   in the secret (`secretsecret…`, `abcabc…`), or inside a run of 8 or more that climbs, falls
///   or stays by one step (`abcdefgh…`, `aaaaaaaa`), carries nothing.
///
/// A random secret passes with room to spare (such stretches in 64 random hex digits come about
/// once in a million secrets); the HMAC key is the secret's UTF-8 bytes, as written.
public enum TokenSecret {
    /// Bits a secret must carry.
    public static let minimumBits = 256

    /// How to make a good secret, as refusals say it.
    public static let howToMakeOne = "make one with `openssl rand -base64 32` (or `head -c 32 /dev/urandom | base64`)"

    /// The shortest stretch that counts as a repeat or a run.
    static let stretch = 8

    /// Why `secret` is too weak to sign tokens, or nil if it is strong enough.
    public static func weakness(_ secret: String) -> String? {
        let bytes = Array(secret.utf8)
        guard !bytes.isEmpty else { return "the secret is empty; \(howToMakeOne)" }
        let alphabet = Double(alphabetSize(bytes))
        let distinct = Set(bytes).count
        // How many different characters a random secret of this length and alphabet shows.
        let expected = alphabet * (1 - pow(1 - 1 / alphabet, Double(bytes.count)))
        let shortAlphabet = Double(distinct) < expected / 2
        let symbols = shortAlphabet ? Double(distinct) : alphabet
        let predictable = predictableCount(bytes)
        let bits = Int((Double(bytes.count - predictable) * log2(symbols)).rounded(.down))
        guard bits < minimumBits else { return nil }
        var reasons: [String] = []
        if shortAlphabet { reasons.append("it uses only \(distinct) different characters") }
        if predictable > 0 { reasons.append("\(predictable) of its \(bytes.count) characters repeat or run on from others") }
        let why = reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")"
        return "the secret carries about \(bits) bits\(why), fewer than the \(minimumBits) needed; \(howToMakeOne)"
    }

    /// The characters inside a repeat of an earlier stretch or a one-step run (see ``TokenSecret``).
    static func predictableCount(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= stretch else { return 0 }
        var predictable = [Bool](repeating: false, count: bytes.count)
        // Repeats: a stretch of 8 equal to one that began earlier (overlapping allowed, so a period shorter than 8 counts too).
        var seen = Set<ArraySlice<UInt8>>()
        for start in 0...(bytes.count - stretch) {
            let window = bytes[start..<(start + stretch)]
            if seen.contains(window) {
                for index in window.indices { predictable[index] = true }
            } else {
                seen.insert(window)
            }
        }
        // Runs: at least 8 characters, each one step (−1, 0 or +1, the same all along) from the one before; all but
        // the first are predictable.
        var index = 1
        while index < bytes.count {
            let step = Int(bytes[index]) - Int(bytes[index - 1])
            guard abs(step) <= 1 else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < bytes.count, Int(bytes[end + 1]) - Int(bytes[end]) == step { end += 1 }
            if end - index + 2 >= stretch {
                for inside in index...end { predictable[inside] = true }
            }
            index = end + 1
        }
        return predictable.count(where: { $0 })
    }

    /// The size of the alphabet the secret is written in: 16 (hex), 64 (base64), 94 (other
    /// printable ASCII) or 256.
    static func alphabetSize(_ bytes: [UInt8]) -> Int {
        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        func isBase64(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || [UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "=")].contains(byte)
        }
        if bytes.allSatisfy(isHex) { return 16 }
        if bytes.allSatisfy(isBase64) { return 64 }
        if bytes.allSatisfy({ (0x21...0x7E).contains($0) }) { return 94 }
        return 256
    }
}
