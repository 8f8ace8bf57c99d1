package import Crypto

extension Sequence<UInt8> {
    /// The bytes as lower-case hex digits, two per byte.
    package var hexDigits: String { map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined() }
}

extension SHA256.Digest {
    /// The digest as 64 lower-case hex digits, the form every Logbook digest and checksum takes.
    package var hex: String { hexDigits }
}
