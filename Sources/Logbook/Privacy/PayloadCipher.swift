import Crypto
import Foundation

/// ChaCha20-Poly1305 over one event's payload, with everything but the key derived from the
/// event itself, so the same event always encrypts to the same bytes: the nonce is the event
/// id's first 8 bytes followed by its bytes 8–11 XOR 12–15, and the whole id and the type are
/// authenticated with the payload (a payload moved to another event fails to open).
///
/// A nonce must never repeat under one key. Ids are unique in the log; the ids Logbook makes are
/// time-ordered (UUIDv7) and strictly increasing in a process, and their first 8 bytes — the
/// millisecond and a 12-bit counter — are already distinct from one id to the next; random and
/// derived ids differ in the folded 12 bytes with probability 1 − 2⁻⁹⁶ per pair. (A SHA-256 of
/// the id cost 0.6 µs an event for no stronger guarantee.) Stored form: ciphertext, then the
/// 16-byte tag.
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

    /// The id's 16 bytes folded into 12 (see the type's documentation).
    private static func nonce(_ eventId: UUID) throws -> ChaChaPoly.Nonce {
        let u = eventId.uuid
        return try ChaChaPoly.Nonce(data: [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8 ^ u.12, u.9 ^ u.13, u.10 ^ u.14, u.11 ^ u.15])
    }

    private static func authenticated(_ eventId: UUID, _ type: String) -> [UInt8] {
        idBytes(eventId) + Array(type.utf8)
    }
}
