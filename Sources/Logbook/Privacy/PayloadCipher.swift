import Foundation
import Sodium

/// XChaCha20-Poly1305 over one event's payload (``PayloadFormat/perUserXChaChaPoly``), under its
/// user's key (libsodium, through the Sodium module).
///
/// Nonce (24 bytes): the event id's 16 bytes, then the 8-byte salt stored in front of the payload.
/// Ids are unique in a log, and the id is all of the nonce's first 16 bytes, so two events of a
/// log never share a nonce, whatever their ids look like (imported, client-chosen, made by a clock
/// set back). The salt is drawn at random each time a store is opened for writing and is the same
/// for every payload sealed until it closes: it is what keeps one id from sealing two different
/// payloads under one nonce when the log is rolled back — a backup restored, then the same id
/// (a keyed retry decided again, a client's id) sealed with another payload — because that second
/// sealing happens after another open, with another salt (two opens draw the same salt with
/// probability 2⁻⁶⁴). Within one open, the log keeps ids unique: an append whose id is known writes
/// nothing, so a second sealing under that id never leaves the process.
///
/// Additional data: the id's 16 bytes, the schema version (4 bytes, big-endian) and the type's
/// UTF-8 — fixed widths before the one variable field, so no two (id, version, type) share it; a
/// payload moved to another event, re-typed or re-labelled with another schema version does not
/// open. Stored form: salt (8 bytes), ciphertext, tag (16 bytes).
enum PayloadCipher {
    /// Bytes of the salt in front of a sealed payload.
    static let saltBytes = 8
    /// Bytes sealing adds to a payload: the salt and the tag.
    static let overhead = saltBytes + XChaCha20Poly1305.tagBytes

    /// The 8 bytes that complete the nonces of one open store (see the type's documentation).
    struct Salt: Sendable, Equatable {
        let bytes: [UInt8]

        /// A new random salt.
        static func random() throws(SodiumError) -> Salt { Salt(bytes: try RandomBytes.make(saltBytes)) }
    }

    /// The payload `plaintext` of event `eventId` of `type` and `schemaVersion`, sealed under `key`
    /// with `salt`: salt, ciphertext, tag.
    static func seal(
        _ plaintext: Span<UInt8>, key: SymmetricKey, salt: Salt, eventId: UUID, type: String, schemaVersion: UInt32
    ) throws(SodiumError) -> [UInt8] {
        let parameters = Self.parameters(eventId, salt.bytes.span, type, schemaVersion)
        let nonceAndData = parameters.span
        return try XChaCha20Poly1305.seal(
            plaintext, key: key, nonce: nonceAndData.extracting(0..<XChaCha20Poly1305.nonceBytes),
            authenticating: nonceAndData.extracting(XChaCha20Poly1305.nonceBytes...), prefixedBy: salt.bytes.span)
    }

    /// The plaintext of a payload sealed by ``seal(_:key:salt:eventId:type:schemaVersion:)``;
    /// throws if the key, id, type, schema version or any byte differs.
    static func open(_ stored: Span<UInt8>, key: SymmetricKey, eventId: UUID, type: String, schemaVersion: UInt32) throws(SodiumError) -> [UInt8] {
        guard stored.count >= overhead else {
            throw SodiumError(.authenticationFailed, "\(stored.count) bytes are shorter than a sealed payload (\(overhead) bytes at least)")
        }
        let parameters = Self.parameters(eventId, stored.extracting(0..<saltBytes), type, schemaVersion)
        let nonceAndData = parameters.span
        return try XChaCha20Poly1305.open(
            stored.extracting(saltBytes...), key: key, nonce: nonceAndData.extracting(0..<XChaCha20Poly1305.nonceBytes),
            authenticating: nonceAndData.extracting(XChaCha20Poly1305.nonceBytes...))
    }

    /// The nonce (id, salt) followed by the additional data (id, schema version, type), in one
    /// buffer written in place (this runs for every payload sealed or opened).
    static func parameters(_ eventId: UUID, _ salt: Span<UInt8>, _ type: String, _ schemaVersion: UInt32) -> [UInt8] {
        var type = type
        return type.withUTF8 { typeBytes in
            let count = 16 + saltBytes + 16 + 4 + typeBytes.count
            return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                withUnsafeBytes(of: eventId.uuid) { id in
                    for index in 0..<16 {
                        buffer[index] = id[index]
                        buffer[16 + saltBytes + index] = id[index]
                    }
                }
                for index in 0..<saltBytes { buffer[16 + index] = salt[index] }
                let version = 16 + saltBytes + 16
                for index in 0..<4 { buffer[version + index] = UInt8(truncatingIfNeeded: schemaVersion >> UInt32(24 - 8 * index)) }
                for (offset, byte) in typeBytes.enumerated() { buffer[version + 4 + offset] = byte }
                initialized = count
            }
        }
    }
}
