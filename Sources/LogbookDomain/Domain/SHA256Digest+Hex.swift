package import Crypto

extension Sequence<UInt8> {
    /// The bytes as lower-case hex digits, two per byte (written into one buffer: entity tags and
    /// digests are made on every conditional read).
    package var hexDigits: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension SHA256.Digest {
    /// The digest as 64 lower-case hex digits, the form every Logbook digest and checksum takes.
    package var hex: String { hexDigits }
}
