import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import LogbookTesting
import Sodium
import Testing

/// Stores made in `xchacha20-poly1305/v2` before AES-256-GCM became the format of new stores:
/// they keep their format (a store never mixes them), read and seal as before, and `logbook
/// encrypt-existing` moves them to `aes256-gcm/v3` with every read model's digest unchanged.
@Suite("Payload cipher: xchacha20-poly1305/v2 stores", .serialized, .enabled(if: AES256GCM.isAvailable, "this CPU has no AES-NI and CLMUL"))
struct PayloadCipherV2StoreTests {
    @Test("a v2 store keeps v2: it reads, folds the same digests as its plaintext twin, seals new events in v2; encrypt-existing moves it to v3 with the same digests")
    func keepsItsFormatThenMoves() async throws {
        try await withTemporaryDirectory { root in
            var plainConfiguration = LogbookConfiguration()
            plainConfiguration.payloadEncryption = .plaintext
            plainConfiguration.log.durability = .noSync
            var v2Configuration = plainConfiguration
            v2Configuration.payloadEncryption = .perUserXChaChaPoly
            var digests: [[ReadModelDigest]] = []
            for (path, configuration) in [(root + "/plain", plainConfiguration), (root + "/v2", v2Configuration)] {
                let logbook = try await Logbook.open(path: path, configuration: configuration)
                do {
                    var generator = DemoDataGenerator(seed: 5, users: 3)
                    generator.weeks = 1
                    _ = try await generator.run(on: logbook)
                    digests.append(try logbook.digests())
                } catch {
                    await logbook.close()
                    throw error
                }
                await logbook.close()
            }
            #expect(digests[0].map(\.sha256) == digests[1].map(\.sha256))

            // Opened again with the default configuration: the store's own format wins.
            let reopened = try await Logbook.open(path: root + "/v2")
            let user = DemoDataGenerator.userId(0)
            do {
                #expect(reopened.payloadFormat == .perUserXChaChaPoly)
                #expect(try await reopened.verify().allSatisfy(\.matches))
                try await reopened.execute(.updateProfile(user: user, UserProfileUpdated(displayName: "Renamed")))
                #expect(try await reopened.profile(user: user).displayName == "Renamed")
                // The new event's stored payload has v2's overhead (salt and tag), not v3's (nonce and tag).
                let last = try #require(try await reopened.log.event(at: try await reopened.log.headPosition()))
                let plaintext = try reopened.payloads.open(last.envelope, last.payload.span) { (plaintext) throws(LogbookError) in plaintext?.count ?? -1 }
                #expect(last.payload.count == plaintext + PayloadCipher.overhead)
            } catch {
                await reopened.close()
                throw error
            }
            await reopened.close()

            let (status, output) = try await runLogbook(["encrypt-existing", "--path", root + "/v2", "--to", root + "/v3", "--json"], includeErrors: true)
            #expect(status == 0, "\(output)")
            #expect(try Logbook.payloadFormat(ofStoreAt: root + "/v3") == .perUserAESGCM)
            #expect(try Logbook.payloadFormat(ofStoreAt: root + "/v2") == .perUserXChaChaPoly, "the old store was changed")
            let moved = try await Logbook.open(path: root + "/v3")
            do {
                #expect(try await moved.verify().allSatisfy(\.matches))
                #expect(try await moved.profile(user: user).displayName == "Renamed")
            } catch {
                await moved.close()
                throw error
            }
            await moved.close()
        }
    }
}
