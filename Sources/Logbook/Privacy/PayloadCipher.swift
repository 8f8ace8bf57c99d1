import Crypto
import Foundation

/// ChaCha20-Poly1305 over one event's payload, with everything but the key derived from the
/// event itself: the nonce is the first 12 bytes of SHA-256 of the event id (ids are unique in
/// the log, so a nonce never repeats under a key, and the same event always encrypts to the same
/// bytes), and the id and type are authenticated with the payload (a payload moved to another
/// event fails to open). Stored form: ciphertext then the 16-byte tag.
enum PayloadCipher {
    /// Bytes the tag adds to a payload.
    static let overhead = 16

    /// The payload `plaintext` of event `eventId` of `type`, encrypted under `key` (256 bits).
    static func seal(_ plaintext: [UInt8], key: SymmetricKey, eventId: UUID, type: String) throws -> [UInt8] {
        let box = try ChaChaPoly.seal(plaintext, using: key, nonce: try nonce(eventId), authenticating: authenticated(eventId, type))
        var stored = [UInt8]()
        stored.reserveCapacity(plaintext.count + overhead)
        stored.append(contentsOf: box.ciphertext)
        stored.append(contentsOf: box.tag)
        return stored
    }

    /// The plaintext of a payload sealed by ``seal(_:key:eventId:type:)``; throws if the key, id,
    /// type or any byte differs.
    static func open(_ stored: [UInt8], key: SymmetricKey, eventId: UUID, type: String) throws -> [UInt8] {
        guard stored.count >= overhead else { throw CryptoKitError.incorrectParameterSize }
        let box = try ChaChaPoly.SealedBox(
            nonce: try nonce(eventId), ciphertext: stored[..<(stored.count - overhead)], tag: stored[(stored.count - overhead)...])
        return [UInt8](try ChaChaPoly.open(box, using: key, authenticating: authenticated(eventId, type)))
    }

    static func idBytes(_ id: UUID) -> [UInt8] {
        let u = id.uuid
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }

    private static func nonce(_ eventId: UUID) throws -> ChaChaPoly.Nonce {
        try ChaChaPoly.Nonce(data: Array(SHA256.hash(data: idBytes(eventId))).prefix(12))
    }

    private static func authenticated(_ eventId: UUID, _ type: String) -> [UInt8] {
        idBytes(eventId) + Array(type.utf8)
    }
}
