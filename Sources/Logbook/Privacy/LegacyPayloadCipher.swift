import Foundation
import Sodium

/// Opens payloads of the first encrypted format (``PayloadFormat/perUserChaChaPoly``), so stores
/// made in it can be read and moved to the current one; nothing is sealed this way any more.
///
/// That format is the IETF ChaCha20-Poly1305 AEAD of RFC 8439 §2.8 — which libsodium's
/// `crypto_aead_chacha20poly1305_ietf_*` implements — with a 12-byte nonce folded from the event
/// id (its first 8 bytes, then bytes 8–11 XOR 12–15, which distinct ids can share: why it was
/// replaced) and the id's 16 bytes followed by the type's UTF-8 as additional data. Stored form:
/// ciphertext, then the 16-byte tag.
enum LegacyPayloadCipher {
    /// Bytes the tag adds to a payload.
    static let overhead = ChaCha20Poly1305.tagBytes

    /// The plaintext of a payload of the first format; throws if the key, id, type or any byte differs.
    static func open(_ stored: Span<UInt8>, key: SymmetricKey, eventId: UUID, type: String) throws(SodiumError) -> [UInt8] {
        let nonce = Self.nonce(eventId)
        let aad = Self.additionalData(eventId, type)
        return try ChaCha20Poly1305.open(stored, key: key, nonce: nonce.span, authenticating: aad.span)
    }

    /// The first format's nonce: the id's bytes 0–7, then bytes 8–11 XOR 12–15.
    static func nonce(_ eventId: UUID) -> [UInt8] {
        let u = eventId.uuid
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8 ^ u.12, u.9 ^ u.13, u.10 ^ u.14, u.11 ^ u.15]
    }

    /// The first format's additional data: the id's 16 bytes, then the type's UTF-8.
    static func additionalData(_ eventId: UUID, _ type: String) -> [UInt8] {
        let u = eventId.uuid
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15] + Array(type.utf8)
    }
}
