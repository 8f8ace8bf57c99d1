import Crypto

/// Content digests as text readers make source ids of them (`gpx:<digest>:<track>`), computed with
/// swift-crypto rather than the module's own SHA-256.
public enum ContentDigest {
    /// The first 32 hex digits (128 bits) of the SHA-256 of `bytes`.
    public static func sha256Prefix(_ bytes: [UInt8]) -> String {
        let hex = SHA256.hash(data: bytes).map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
        return String(hex.prefix(32))
    }
}
