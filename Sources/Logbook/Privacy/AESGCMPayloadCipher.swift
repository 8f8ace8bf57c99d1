import Foundation
import Sodium
import Synchronization

/// AES-256-GCM over one event's payload (``PayloadFormat/perUserAESGCM``), under its user's key
/// (libsodium, through the Sodium module, with the key's AES state expanded once).
///
/// Nonce (12 bytes): an 8-byte salt, then a 4-byte big-endian counter, both from the
/// ``NonceSequence`` of the open store that seals (one per open, shared by every key). Within one
/// open the counter never repeats a value under one salt, and a new salt is drawn before it would
/// wrap, so no two sealings of an open share a nonce — whatever the event ids, the keys or the
/// payloads (a retried append is sealed anew under a new nonce). Across opens — another process, a
/// restart, a backup restored and written again, another server of a shared log — the salts are
/// drawn at random, so two opens share a salt with probability 2⁻⁶⁴ (and would then also have to
/// reach the same counter under the same user's key). A durable counter would not do better: a
/// restored backup rolls it back too.
///
/// Additional data: the id's 16 bytes, the schema version (4 bytes, big-endian) and the type's
/// UTF-8, as in ``PayloadCipher``: a payload moved to another event, re-typed or re-labelled with
/// another schema version does not open. Stored form: nonce (12 bytes), ciphertext, tag (16 bytes).
enum AESGCMPayloadCipher {
    /// Bytes of the nonce in front of a sealed payload.
    static let nonceBytes = AES256GCM.nonceBytes
    /// Bytes sealing adds to a payload: the nonce and the tag.
    static let overhead = nonceBytes + AES256GCM.tagBytes

    /// The nonces of one open store: a random 8-byte salt and a counter under it. Reserving is one
    /// lock per batch of events, not per event.
    final class NonceSequence: Sendable {
        private struct State {
            var salt: UInt64
            var next: UInt64
        }

        /// Counters per salt: 2³² (the counter's four bytes).
        static let countersPerSalt: UInt64 = 1 << 32

        private let state: Mutex<State>
        /// Where salts come from: random bytes, except in tests that need a known one.
        private let drawSalt: @Sendable () throws(SodiumError) -> UInt64

        init(drawSalt: @escaping @Sendable () throws(SodiumError) -> UInt64 = NonceSequence.randomSalt) throws(SodiumError) {
            self.drawSalt = drawSalt
            state = Mutex(State(salt: try drawSalt(), next: 0))
        }

        static func randomSalt() throws(SodiumError) -> UInt64 {
            try RandomBytes.make(8).reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// `count` nonces no sealing of this sequence has used or will use: `count` consecutive
        /// counters under one salt (a new salt when this salt's counters would not hold them).
        func reserve(_ count: Int) throws(SodiumError) -> Block {
            precondition(count >= 0 && UInt64(count) <= Self.countersPerSalt, "a block of \(count) nonces")
            let wanted = UInt64(count)
            // A new salt is drawn under the lock: once per 2³² sealings.
            return try state.withLock { (state) throws(SodiumError) -> Block in
                // An empty block takes no counter (and, with every counter taken, names none).
                if wanted == 0 { return Block(salt: state.salt, first: 0, count: 0) }
                if state.next + wanted > Self.countersPerSalt {
                    state = State(salt: try drawSalt(), next: 0)
                }
                let block = Block(salt: state.salt, first: UInt32(state.next), count: count)
                state.next += wanted
                return block
            }
        }
    }

    /// Consecutive nonces under one salt, reserved for one batch of sealings.
    struct Block {
        let salt: UInt64
        let first: UInt32
        let count: Int

        /// The 12 bytes of the `index`th nonce of the block (salt, then counter, big-endian).
        func nonce(_ index: Int) -> [UInt8] {
            withNonce(index) { nonce in nonce.indices.map { nonce[$0] } }
        }

        /// Calls `body` with the `index`th nonce of the block, written in memory of the call's own
        /// (this runs for every payload sealed).
        func withNonce<R>(_ index: Int, _ body: (Span<UInt8>) throws -> R) rethrows -> R {
            precondition(index >= 0 && index < count, "nonce \(index) of a block of \(count)")
            let counter = first + UInt32(index)
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: AESGCMPayloadCipher.nonceBytes) { bytes in
                for byte in 0..<8 { bytes[byte] = UInt8(truncatingIfNeeded: salt >> UInt64(56 - 8 * byte)) }
                for byte in 0..<4 { bytes[8 + byte] = UInt8(truncatingIfNeeded: counter >> UInt32(24 - 8 * byte)) }
                return try body(UnsafeBufferPointer(bytes).span)
            }
        }
    }

    /// The payload `plaintext` of event `eventId` of `type` and `schemaVersion`, sealed under `key`
    /// with the 12-byte `nonce`: nonce, ciphertext, tag.
    static func seal(
        _ plaintext: Span<UInt8>, key: SymmetricKey, nonce: Span<UInt8>, eventId: UUID, type: String, schemaVersion: UInt32
    ) throws -> [UInt8] {
        var sealed: [UInt8] = []
        try withAdditionalData(eventId, type, schemaVersion) { aad in
            sealed = try AES256GCM.seal(plaintext, key: key, nonce: nonce, authenticating: aad, prefixedBy: nonce)
        }
        return sealed
    }

    /// Calls `body` with the plaintext of a payload sealed by ``seal(_:key:nonce:eventId:type:schemaVersion:)``
    /// (held only for the call); throws a ``SodiumError`` if the key, id, type, schema version or
    /// any byte differs, or what `body` throws. Not generic, as it runs for every payload opened.
    static func withOpened(
        _ stored: Span<UInt8>, key: SymmetricKey, eventId: UUID, type: String, schemaVersion: UInt32, _ body: (Span<UInt8>) throws -> Void
    ) throws {
        guard stored.count >= overhead else {
            throw SodiumError(.authenticationFailed, "\(stored.count) bytes are shorter than a sealed payload (\(overhead) bytes at least)")
        }
        try withAdditionalData(eventId, type, schemaVersion) { aad in
            try AES256GCM.withOpened(
                stored.extracting(nonceBytes...), key: key, nonce: stored.extracting(0..<nonceBytes), authenticating: aad, body)
        }
    }

    /// The plaintext of a sealed payload, in an array of its own (tests, and readers that keep it).
    static func open(_ stored: Span<UInt8>, key: SymmetricKey, eventId: UUID, type: String, schemaVersion: UInt32) throws -> [UInt8] {
        var opened: [UInt8] = []
        try withOpened(stored, key: key, eventId: eventId, type: type, schemaVersion: schemaVersion) { plaintext in
            opened = plaintext.indices.map { plaintext[$0] }
        }
        return opened
    }

    /// Calls `body` with the additional data (id, schema version, type), written in place in
    /// memory of the call's own (this runs for every payload sealed or opened).
    static func withAdditionalData(_ eventId: UUID, _ type: String, _ schemaVersion: UInt32, _ body: (Span<UInt8>) throws -> Void) throws {
        var type = type
        try type.withUTF8 { typeBytes in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20 + typeBytes.count) { (buffer) throws -> Void in
                withUnsafeBytes(of: eventId.uuid) { id in
                    for index in 0..<16 { buffer[index] = id[index] }
                }
                for index in 0..<4 { buffer[16 + index] = UInt8(truncatingIfNeeded: schemaVersion >> UInt32(24 - 8 * index)) }
                _ = UnsafeMutableBufferPointer(rebasing: buffer[20...]).initialize(fromContentsOf: typeBytes)
                try body(UnsafeBufferPointer(buffer).span)
            }
        }
    }
}
