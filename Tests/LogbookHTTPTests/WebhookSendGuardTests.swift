import EventLog
import LogbookOutbound
import LogbookTestSupport
@testable import LogbookWebhooks
import Testing

/// A worker's send goes out only while that worker speaks for its webhook and the webhook runs:
/// a batch chained behind the one in flight can reach the dispatcher after a pause or a newer
/// worker, and must post nothing then.
@Suite("Webhook sends for the current worker only")
struct WebhookSendGuardTests {
    @Test("a send for a worker of another generation, or for a paused webhook, posts nothing; the current worker's posts")
    func sendsOnlyForTheCurrentWorker() async throws {
        let receiver = WebhookReceiver(secret: WebhookTests.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await WebhookTests.withWebhookServer(WebhookTests.quick()) { server, dispatcher in
            try await register(server, "ana")
            let id = try await WebhookTests.create(server, receiver.url, after: 0)
            try await eventually("the registration delivered") { !receiver.deliveries.isEmpty }
            let events = try await server.logbook.log.readAll(from: Position(1), direction: .forward, limit: 10, filter: .all).events
            guard case .batch(let batch, _) = WebhookBatch.make(webhookId: id, events: events[...], maxBytes: .max, of: server.logbook) else {
                Issue.record("the registration has no wire form")
                return
            }
            let running = try #require(await dispatcher.deliveries[id])
            let delivered = receiver.deliveries.count

            #expect(await dispatcher.send(batch, to: running.record.webhook, running.generation - 1) == .notRunning)
            #expect(await dispatcher.send(batch, to: running.record.webhook, running.generation) == nil)
            #expect(receiver.deliveries.count == delivered + 1, "only the current worker's send was posted")

            let paused = try await server.call(.post, "/admin/webhooks/\(id)/pause", as: "root", admin: true)
            #expect(paused.status == .ok, "\(paused.text)")
            let stopped = try #require(await dispatcher.deliveries[id])
            #expect(stopped.record.webhook.paused)
            #expect(await dispatcher.send(batch, to: stopped.record.webhook, stopped.generation) == .notRunning)
            #expect(receiver.deliveries.count == delivered + 1, "nothing is posted for a paused webhook")
        }
    }
}
