import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import LogbookWebhooks
import Logging
import Testing

/// Webhooks' secrets at rest and in rotation: sealed with the store's key (no file of the store
/// holds one in plaintext, however many checkpoints were written), opened again after a restart,
/// a record of an older build sealed when a server takes over, bound to their webhook, and
/// rotated with two secrets signing until the rotation ends.
@Suite("Webhook secrets")
struct WebhookSecretTests {
    /// A secret no other test uses, to look for in the store's files.
    static func uniqueSecret() -> String { "whsec-" + (0..<12).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined() }

    /// Every file under `directory` that holds `needle`'s bytes.
    static func files(under directory: String, holding needle: String) throws -> [String] {
        let bytes = Data(needle.utf8)
        var found: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        for case let relative as String in walker {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            if try Data(contentsOf: URL(fileURLWithPath: path)).range(of: bytes) != nil { found.append(relative) }
        }
        return found
    }

    @Test("no file of the store holds a secret after many checkpoints; after a restart its batches are signed with it still")
    func sealedAtRest() async throws {
        let secret = Self.uniqueSecret()
        let receiver = WebhookReceiver(secret: secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await withTemporaryDirectory { root in
            let path = root + "/store"
            var configuration = LogbookConfiguration()
            configuration.log.durability = .relaxed
            var logbook = try await Logbook.open(path: path, configuration: configuration)
            var dispatcher = WebhookDispatcher(logbook: logbook, policy: WebhookTests.quick())
            try await dispatcher.start()
            let id = try await dispatcher.create(WebhookRequest(url: receiver.url, secret: secret), after: 0).id
            // One commit each, each delivered before the next is made: a batch, and a checkpoint
            // stored, per event, however slowly the machine delivers.
            for index in 0..<40 {
                try await WebhookReachTests.registerUsers(logbook, 1, from: index)
                try await eventually("event \(index + 1)") { receiver.positions.count >= index + 1 }
            }
            #expect(receiver.deliveries.count > 5, "many checkpoints were written")
            let checkpoint = try #require(try await logbook.log.checkpoint(named: "webhook/\(id)"))
            #expect(String(decoding: checkpoint.data, as: UTF8.self).contains(#""current":"xc1:"#))
            await dispatcher.shutdown()
            await logbook.close()
            let holding = try Self.files(under: path, holding: secret)
            #expect(holding.isEmpty, "the secret is in \(holding)")

            logbook = try await Logbook.open(path: path, configuration: configuration)
            dispatcher = WebhookDispatcher(logbook: logbook, policy: WebhookTests.quick())
            try await dispatcher.start()
            try await WebhookReachTests.registerUsers(logbook, 1, from: 40)
            try await eventually("the event after the restart") { receiver.positions.count >= 41 }
            #expect(receiver.deliveries.allSatisfy { $0.signed }, "signed with the secret opened after the restart")
            await dispatcher.shutdown()
            await logbook.close()
        }
    }

    @Test("a record an older build kept in plaintext is sealed when a server takes over, and still signs")
    func plaintextRecordSealed() async throws {
        let secret = Self.uniqueSecret()
        let receiver = WebhookReceiver(secret: secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await withLogbook { logbook, _ in
            let id = "wh-00000000000000aa"
            // The record as builds before sealing wrote it: the secret in plaintext.
            let record = #"{"deadLetters":[],"webhook":{"createdAt":1795000000000000,"id":"\#(id)","paused":false,"secret":"\#(secret)","url":"\#(receiver.url)"}}"#
            try await logbook.log.storeCheckpoint(Checkpoint(name: "webhook/\(id)", position: .start, data: Array(record.utf8)))
            try await logbook.log.storeCheckpoint(Checkpoint(name: "webhooks", position: .start, data: Array(#"["\#(id)"]"#.utf8)))
            let dispatcher = WebhookDispatcher(logbook: logbook, policy: WebhookTests.quick())
            try await dispatcher.start()
            try await WebhookReachTests.registerUsers(logbook, 2)
            try await eventually("two events") { receiver.positions.count >= 2 }
            #expect(receiver.deliveries.allSatisfy { $0.signed })
            let stored = String(decoding: try #require(try await logbook.log.checkpoint(named: "webhook/\(id)")).data, as: UTF8.self)
            #expect(!stored.contains(secret) && stored.contains(#""current":"xc1:"#), "\(stored)")
            await dispatcher.shutdown()
        }
    }

    @Test("a sealed secret opens only for its webhook, unaltered, with its store's key")
    func sealBindsOwner() async throws {
        try await withLogbook { logbook, _ in
            #expect(try await logbook.secretSeal(creating: false) == nil, "no key until one is needed")
            let seal = try #require(try await logbook.secretSeal(creating: true))
            let sealed = try seal.seal("a-secret-of-sixteen", owner: "wh-a")
            #expect(try seal.open(sealed, owner: "wh-a") == "a-secret-of-sixteen")
            #expect(try seal.seal("a-secret-of-sixteen", owner: "wh-a") != sealed, "a nonce of its own each time")
            #expect(throws: LogbookError.self) { try seal.open(sealed, owner: "wh-b") }
            var tampered = Array(sealed.utf8)
            tampered[tampered.count - 3] = tampered[tampered.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(throws: LogbookError.self) { try seal.open(String(decoding: tampered, as: UTF8.self), owner: "wh-a") }
            #expect(throws: LogbookError.self) { try seal.open("a-secret-of-sixteen", owner: "wh-a") }
            try await withLogbook { other, _ in
                let otherSeal = try #require(try await other.secretSeal(creating: true))
                #expect(throws: LogbookError.self) { try otherSeal.open(sealed, owner: "wh-a") }
            }
            // The key is kept: a second reading opens what the first sealed.
            #expect(try #require(try await logbook.secretSeal(creating: false)).open(sealed, owner: "wh-a") == "a-secret-of-sixteen")
        }
    }

    @Test("a rotation signs with the new and the old secret until it ends; then with the new alone")
    func rotation() async throws {
        let old = Self.uniqueSecret(), new = Self.uniqueSecret()
        let receiver = WebhookReceiver(secret: old)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await WebhookTests.withWebhookServer(WebhookTests.quick()) { server, _ in
            func lastDelivery(after count: Int) async throws -> WebhookReceiver.Delivery {
                try await eventually("a delivery") { receiver.deliveries.count > count }
                return try #require(receiver.deliveries.last)
            }
            func verifies(_ delivery: WebhookReceiver.Delivery, _ secret: String) -> Bool {
                let seconds = delivery.signature.split(separator: ",").first.flatMap { Int64($0.dropFirst(2)) } ?? 0
                return WebhookSignature.verify(header: delivery.signature, secret: secret, body: delivery.body, now: seconds)
            }
            try await register(server, "ana")
            let made = try await server.call(.post, "/admin/webhooks", as: "root", admin: true, body: #"{"url":"\#(receiver.url)","secret":"\#(old)"}"#)
            let id = try #require(made.json["id"] as? String, "\(made.text)")
            try await WebhookTests.step(server, "ana", 0)
            var delivery = try await lastDelivery(after: 0)
            #expect(verifies(delivery, old) && !verifies(delivery, new))

            let rotated = try await server.call(.post, "/admin/webhooks/\(id)/secret", as: "root", admin: true, body: #"{"secret":"\#(new)"}"#)
            #expect(rotated.status == .ok, "\(rotated.text)")
            #expect(rotated.json["rotationStartedAt"] is String && rotated.json["secret"] == nil && !rotated.text.contains(new))
            try await WebhookTests.step(server, "ana", 1)
            delivery = try await lastDelivery(after: 1)
            #expect(verifies(delivery, old) && verifies(delivery, new), "both sign: \(delivery.signature)")
            #expect(delivery.signature.components(separatedBy: ",v1=").count == 3)
            #expect(WebhookSignature.verify(header: delivery.signature, secrets: [Self.uniqueSecret(), new], body: delivery.body,
                                            now: Int64(delivery.signature.split(separator: ",")[0].dropFirst(2)) ?? 0))

            // One rotation at a time, a secret within its limits, nothing but the secret.
            let again = try await server.call(.post, "/admin/webhooks/\(id)/secret", as: "root", admin: true, body: #"{"secret":"\#(Self.uniqueSecret())"}"#)
            #expect(again.status == .conflict, "\(again.text)")
            for (body, field) in [(#"{"secret":"short"}"#, "secret"), (#"{"secret":"\#(new)","url":"x"}"#, "url"), ("{}", "secret")] {
                let refused = try await server.call(.post, "/admin/webhooks/\(id)/secret", as: "root", admin: true, body: body)
                #expect(refused.status == .badRequest && refused.json["field"] as? String == field, "\(body): \(refused.text)")
            }
            #expect(try await server.call(.post, "/admin/webhooks/\(id)/secret", as: "ana", body: #"{"secret":"\#(new)"}"#).status == .forbidden)

            let ended = try await server.call(.delete, "/admin/webhooks/\(id)/previous-secret", as: "root", admin: true)
            #expect(ended.status == .ok && ended.json["rotationStartedAt"] == nil, "\(ended.text)")
            try await WebhookTests.step(server, "ana", 2)
            delivery = try await lastDelivery(after: 2)
            #expect(verifies(delivery, new) && !verifies(delivery, old))
            #expect(try await server.call(.delete, "/admin/webhooks/\(id)/previous-secret", as: "root", admin: true).status == .conflict)
            #expect(try await server.call(.delete, "/admin/webhooks/wh-0000000000000000/previous-secret", as: "root", admin: true).status == .notFound)
        }
    }
}
