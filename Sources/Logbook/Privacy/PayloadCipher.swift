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
/// 16-byte tag (``ChaCha20Poly1305``).
enum PayloadCipher {
    /// Bytes the tag adds to a payload.
    static let overhead = ChaCha20Poly1305.tagBytes

    /// The payload `plaintext` of event `eventId` of `type`, encrypted under `key`.
    static func seal(_ plaintext: Span<UInt8>, key: ChaCha20, eventId: UUID, type: String) -> [UInt8] {
        ChaCha20Poly1305.seal(plaintext, key: key, nonce: nonce(eventId), authenticating: authenticated(eventId, type).span)
    }

    /// The plaintext of a payload sealed by ``seal(_:key:eventId:type:)``; throws if the key, id,
    /// type or any byte differs.
    static func open(_ stored: Span<UInt8>, key: ChaCha20, eventId: UUID, type: String) throws(ChaCha20Poly1305.AuthenticationFailure) -> [UInt8] {
        try ChaCha20Poly1305.open(stored, key: key, nonce: nonce(eventId), authenticating: authenticated(eventId, type).span)
    }

    /// The id's 16 bytes folded into 12 (see the type's documentation), as three little-endian words.
    static func nonce(_ eventId: UUID) -> SIMD3<UInt32> {
        let u = eventId.uuid
        func word(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt32 {
            UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 | UInt32(d) << 24
        }
        return SIMD3(word(u.0, u.1, u.2, u.3), word(u.4, u.5, u.6, u.7), word(u.8 ^ u.12, u.9 ^ u.13, u.10 ^ u.14, u.11 ^ u.15))
    }

    /// The additional data: the id's 16 bytes, then the type's UTF-8.
    private static func authenticated(_ eventId: UUID, _ type: String) -> [UInt8] {
        let u = eventId.uuid
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 + type.utf8.count)
        bytes.append(contentsOf: [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
        bytes.append(contentsOf: type.utf8)
        return bytes
    }
}
