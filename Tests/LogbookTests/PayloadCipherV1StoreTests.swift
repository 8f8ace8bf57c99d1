import Crypto
import DemoData
import EventLog
import EventLogLMDB
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import LogbookTesting
import Testing

/// Stores of the first encrypted format (`chacha20-poly1305/v1`), as the old code left them: they
/// open and read through libsodium (every read model's digest equals the plaintext original's),
/// refuse to seal anything new, and `logbook encrypt-existing` moves them to the current format.
@Suite("Payload cipher: first-format stores", .serialized)
struct PayloadCipherV1StoreTests {
    /// Makes at `path` a store of the first format holding `source`'s events: each user's payloads
    /// sealed by swift-crypto's ChaChaPoly (an implementation independent of the one that reads
    /// them) with the first format's nonce and additional data, keys in a key store of that format.
    private func makeFirstFormatStore(from source: Logbook, at path: String) async throws {
        var users = Set<String>()
        try await source.log.scan(after: .start, through: nil, filter: .all, chunkSize: 4_096) { envelope, _, _ in
            if let user = envelope.subject { users.insert(user) }
            return true
        }
        let keyStore = try UserKeyStore(directory: path + "/keys", creatingWith: .perUserChaChaPoly, readOnly: false, durability: .noSync)
        defer { keyStore.close() }
        var keys: [String: [UInt8]] = [:]
        for (user, entry) in try keyStore.ensureKeys(for: users) {
            guard case .key(let key) = entry else { throw LogbookError.storage("no key for \(user)") }
            keys[user] = key.copiedBytes()
        }
        var configuration = LogConfiguration()
        configuration.durability = .noSync
        let log = try LMDBEventStore(path: path, configuration: configuration)
        do {
            var requests: [AppendRequest] = []
            try await source.log.scan(after: .start, through: nil, filter: .all, chunkSize: 4_096) { envelope, metadata, payload in
                var bytes = payload.indices.map { payload[$0] }
                if let user = envelope.subject, let key = keys[user] {
                    let box = try ChaChaPoly.seal(
                        bytes, using: Crypto.SymmetricKey(data: key), nonce: try ChaChaPoly.Nonce(data: LegacyPayloadCipher.nonce(envelope.eventId)),
                        authenticating: LegacyPayloadCipher.additionalData(envelope.eventId, envelope.type))
                    bytes = Array(box.ciphertext) + Array(box.tag)
                }
                let event = ProposedEvent(
                    eventId: envelope.eventId, type: envelope.type, schemaVersion: envelope.schemaVersion, subject: envelope.subject,
                    occurredAt: envelope.occurredAt, recordedAt: envelope.recordedAt, correlationId: envelope.correlationId,
                    causationId: envelope.causationId, metadata: metadata.indices.map { metadata[$0] }, payload: bytes)
                let expected: ExpectedVersion = envelope.streamVersion == 0 ? .noStream : .exactly(envelope.streamVersion - 1)
                requests.append(AppendRequest(stream: envelope.stream, events: [event], expectedVersion: expected))
                return true
            }
            for result in try await log.append(batch: requests) { _ = try result.get() }
        } catch {
            await log.close()
            throw error
        }
        await log.close()
    }

    /// A plaintext store with demo data at `root/plain`, and its first-format twin at `root/v1`.
    private func makeStores(_ root: String) async throws -> [ReadModelDigest] {
        var configuration = LogbookConfiguration()
        configuration.payloadEncryption = .plaintext
        configuration.log.durability = .noSync
        let plain = try await Logbook.open(path: root + "/plain", configuration: configuration)
        do {
            var generator = DemoDataGenerator(seed: 11, users: 3)
            generator.weeks = 1
            _ = try await generator.run(on: plain)
            try await makeFirstFormatStore(from: plain, at: root + "/v1")
        } catch {
            await plain.close()
            throw error
        }
        let digests = try plain.digests()
        await plain.close()
        // Opened once for writing, as a store the old code served: its read models are folded.
        await (try await Logbook.open(path: root + "/v1")).close()
        return digests
    }

    private func isFirstFormatRefusal(_ error: any Error) -> Bool {
        guard let error = error as? LogbookError else { return false }
        return error.message.contains("encrypt-existing") && error.message.contains(PayloadFormat.perUserChaChaPoly.rawValue)
    }

    @Test("a first-format store opens and reads: every read model folds to the plaintext original's digests; it seals nothing new (a user's event, an erasure) and says how to move it")
    func readsButSealsNothing() async throws {
        try await withTemporaryDirectory { root in
            let digests = try await makeStores(root)
            let v1 = try await Logbook.open(path: root + "/v1")
            do {
                #expect(v1.payloadFormat == .perUserChaChaPoly)
                #expect(try v1.digests().map(\.sha256) == digests.map(\.sha256), "a first-format payload read differently")
                #expect(try await v1.verify().allSatisfy(\.matches))
                let user = DemoDataGenerator.userId(0)
                #expect(try await v1.profile(user: user).displayName.isEmpty == false)
                let head = try await v1.log.headPosition()
                await #expect(performing: {
                    try await v1.execute(.registerUser(user: "new", UserRegistered(displayName: "New", timeZone: "UTC")))
                }, throws: isFirstFormatRefusal)
                await #expect(performing: { try await v1.erase(user: user) }, throws: isFirstFormatRefusal)
                #expect(try await v1.log.headPosition() == head, "a refused append wrote something")
            } catch {
                await v1.close()
                throw error
            }
            await v1.close()
            // A new store is never made in the first format.
            var configuration = LogbookConfiguration()
            configuration.payloadEncryption = .perUserChaChaPoly
            await #expect(throws: LogbookError.self) { _ = try await Logbook.open(path: root + "/fresh", configuration: configuration) }
        }
    }

    @Test("encrypt-existing moves a first-format store (with an erased user) to the current format: same digests, the erased user stays erased, erasure works there")
    func movesToTheCurrentFormat() async throws {
        try await withTemporaryDirectory { root in
            _ = try await makeStores(root)
            let erased = DemoDataGenerator.userId(2)
            do {
                // Erased as the old code erased: the key destroyed (the read models are rebuilt on the next open).
                let keys = try UserKeyStore(directory: root + "/v1/keys", creatingWith: .perUserChaChaPoly, readOnly: false, durability: .noSync)
                defer { keys.close() }
                #expect(try keys.erase(erased))
            }
            // The next open finishes the erasure (rebuilds the read models without the user).
            await (try await Logbook.open(path: root + "/v1")).close()
            let (status, output) = try await runLogbook(["encrypt-existing", "--path", root + "/v1", "--to", root + "/new", "--json"], includeErrors: true)
            #expect(status == 0, "\(output)")
            #expect(try Logbook.payloadFormat(ofStoreAt: root + "/new") == .current)
            #expect(try Logbook.payloadFormat(ofStoreAt: root + "/v1") == .perUserChaChaPoly, "the old store was changed")
            let moved = try await Logbook.open(path: root + "/new")
            do {
                await #expect(throws: LogbookError.self) { _ = try await moved.profile(user: erased) }
                #expect(try moved.isErased(erased))
                #expect(try await moved.verify().allSatisfy(\.matches))
                let user = DemoDataGenerator.userId(0)
                try await moved.execute(.updateProfile(user: user, UserProfileUpdated(displayName: "Renamed")))
                #expect(try await moved.profile(user: user).displayName == "Renamed")
            } catch {
                await moved.close()
                throw error
            }
            await moved.close()
            let (eraseStatus, eraseOutput) = try await runLogbook(["erase", "--path", root + "/new", "--user", DemoDataGenerator.userId(1)], includeErrors: true)
            #expect(eraseStatus == 0, "\(eraseOutput)")
            let (again, againOutput) = try await runLogbook(["encrypt-existing", "--path", root + "/new", "--to", root + "/newer"], includeErrors: true)
            #expect(again != 0 && againOutput.contains(PayloadFormat.current.rawValue), "\(againOutput)")
        }
    }
}
