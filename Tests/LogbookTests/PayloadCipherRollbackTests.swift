import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import LogbookTesting
import Testing

/// A log rolled back (a backup restored) forgets events whose ids are then sealed again: a keyed
/// request retried after the restore carries the same event id and, decided again, may carry
/// another payload. The two sealings must not share a nonce under the user's key.
@Suite("Payload cipher: restore and retry", .serialized)
struct PayloadCipherRollbackTests {
    /// The stored (sealed) payload and the opened plaintext of the event with `id`.
    private func payload(of id: UUID, in logbook: Logbook) async throws -> (sealed: [UInt8], plain: [UInt8])? {
        var found: (EventEnvelope, [UInt8])?
        try await logbook.log.scan(after: .start, through: nil, filter: .all, chunkSize: 1_024) { envelope, _, payload in
            if envelope.eventId == id { found = (envelope, payload.indices.map { payload[$0] }) }
            return found == nil
        }
        guard let (envelope, sealed) = found else { return nil }
        let plain = try logbook.payloads.open(envelope, sealed.span) { (plaintext) throws(LogbookError) -> [UInt8] in
            guard let plaintext else { return [] }
            return plaintext.indices.map { plaintext[$0] }
        }
        return (sealed, plain)
    }

    /// Runs keyed request `request` on `logbook`, deciding a profile change to `displayName`.
    private func keyedChange(_ logbook: Logbook, _ request: IdempotentRequest, displayName: String) async throws -> UUID {
        var used: UUID?
        _ = try await logbook.once(request) { call in
            var context = CommandContext()
            context.eventId = call.eventId
            used = call.eventId
            try await logbook.execute(.updateProfile(user: "u", UserProfileUpdated(displayName: displayName)), context: context)
            return StoredResponse(status: 200, body: [])
        }
        return try #require(used)
    }

    @Test("a backup restored, then a keyed request retried and decided to another payload: same event id, yet no keystream is shared with the first sealing")
    func restoreThenKeyedRetry() async throws {
        try await withTemporaryDirectory { root in
            let request = try IdempotentRequest(
                key: "retry-1", scope: "u", fingerprint: IdempotentRequest.fingerprint([Array("PATCH /users/u/profile".utf8)]))
            let first = try await Logbook.open(path: root + "/store")
            try await first.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "UTC")))
            _ = try await first.backup(to: root + "/backup")
            let id = try await keyedChange(first, request, displayName: "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
            let original = try #require(try await payload(of: id, in: first))
            await first.close()

            _ = try await Logbook.restore(backup: root + "/backup", to: root + "/restored")
            let restored = try await Logbook.open(path: root + "/restored")
            #expect(try await payload(of: id, in: restored) == nil, "the restored log should not hold the keyed request's event")
            let retriedId = try await keyedChange(restored, request, displayName: "Bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")
            #expect(retriedId == id, "a keyed retry carries the same event id")
            let retried = try #require(try await payload(of: id, in: restored))
            await restored.close()

            #expect(original.plain != retried.plain, "the test would prove nothing: the two payloads are the same")
            #expect(original.sealed.count == retried.sealed.count)
            // Under one nonce, the ciphertexts' XOR would be the plaintexts' XOR (ChaCha20 keystream reused).
            let offset = original.sealed.count - original.plain.count - 16
            let length = min(original.plain.count, retried.plain.count)
            let cipherXor = (0..<length).map { original.sealed[offset + $0] ^ retried.sealed[offset + $0] }
            let plainXor = (0..<length).map { original.plain[$0] ^ retried.plain[$0] }
            #expect(cipherXor != plainXor, "the retry after the restore reused the first sealing's nonce under the same key")
        }
    }

    @Test("xchacha20-poly1305/v2: within one open the same event seals to the same bytes; a second open of the store seals it with another salt")
    func saltPerOpen() async throws {
        try await withTemporaryDirectory { directory in
            let store = try UserKeyStore(directory: directory, creatingWith: .perUserXChaChaPoly, readOnly: false, durability: .noSync)
            defer { store.close() }
            func sealed(_ keys: PayloadKeys) throws -> [UInt8] {
                var request = AppendRequest(
                    stream: "user-u",
                    events: [ProposedEvent(eventId: UUID(uuidString: "0192f1c2-7a3b-7cde-8f01-23456789abcd")!, type: "user.profile_updated",
                                           subject: "u", occurredAt: Timestamp(microsecondsSinceEpoch: 1), payload: Array("same".utf8))])
                try keys.seal(&request)
                return request.events[0].payload
            }
            let one = try PayloadKeys(store: store)
            let other = try PayloadKeys(store: store)
            #expect(try sealed(one) == sealed(one))
            #expect(try sealed(one) != sealed(other))
        }
    }
}
