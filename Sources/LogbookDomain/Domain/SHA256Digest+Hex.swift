package import Crypto

extension SHA256.Digest {
    /// The digest as 64 lower-case hex digits, the form every Logbook digest and checksum takes.
    package var hex: String { map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined() }
}
