import Foundation
import HTTPTypes
import Hummingbird
import LogbookInput
import LogbookWebhooks

/// Operators' routes over webhooks (administrator role): make, list, read, pause, resume and
/// delete them, replay or discard their dead letters, and rotate their secrets. URLs are answered
/// with their path and query redacted, secrets never. The delivering itself is
/// ``WebhookDispatcher``'s. On a log several servers share, every server lists them; changes
/// are made on the one delivering (elsewhere they answer 409, naming it).
struct WebhookRoutes<Context: LogbookRouteContext> {
    let webhooks: WebhookDispatcher
    let maxBodyBytes: Int
    let catalog: RouteCatalog

    private static var one: JSONSchema { .reference(WebhookStatus.self) }

    func register(on group: RouteGroup<Context>) {
        group.route(.post, "admin/webhooks", "Make a webhook: matching events are POSTed to its URL in signed batches, in log order, at least once",
                    body: "requests/webhook.create.schema.json", statuses: [201, 400, 401, 403, 409, 503],
                    responses: [201: .reference(WebhookStatus.self, "The webhook, delivering")], catalog: catalog) { request, _ in
            let (webhook, after) = try Self.webhookRequest(try await request.jsonObject(limit: maxBodyBytes))
            return try JSONOutput.response(try await webhooks.create(webhook, after: after), status: .created)
        }
        group.route(.get, "admin/webhooks", "Every webhook: checkpoint, lag, failures, dead letters", statuses: Statuses.admin,
                    responses: [200: .reference([WebhookStatus].self)], catalog: catalog) { _, _ in
            try JSONOutput.response(try await webhooks.list())
        }
        group.route(.get, "admin/webhooks/{webhook}", "One webhook: checkpoint, lag, failures, dead letters", statuses: Statuses.admin + [404],
                    responses: [200: Self.one], catalog: catalog) { _, context in
            try JSONOutput.response(try await webhooks.status(try context.path("webhook")))
        }
        group.route(.delete, "admin/webhooks/{webhook}", "Delete a webhook (it stops at once; its dead letters go with it)",
                    statuses: [204, 400, 401, 403, 404, 409, 503], catalog: catalog) { _, context in
            try await webhooks.delete(try context.path("webhook"))
            return Response(status: .noContent)
        }
        group.route(.post, "admin/webhooks/{webhook}/pause", "Pause a webhook: nothing is delivered, its checkpoint stays",
                    statuses: Statuses.admin + [404, 409], responses: [200: Self.one], catalog: catalog) { _, context in
            try JSONOutput.response(try await webhooks.setPaused(try context.path("webhook"), true))
        }
        group.route(.post, "admin/webhooks/{webhook}/resume", "Resume a webhook from its checkpoint (409 while its dead letters are at their limit)",
                    statuses: Statuses.admin + [404, 409], responses: [200: Self.one], catalog: catalog) { _, context in
            try JSONOutput.response(try await webhooks.setPaused(try context.path("webhook"), false))
        }
        group.route(.post, "admin/webhooks/{webhook}/dead-letters/{deadLetter}/replay",
                    "Send a dead letter again, once, now: gone on the receiver's 2xx, else kept with the new failure (502)",
                    statuses: Statuses.admin + [404, 409, 502], responses: [200: Self.one], catalog: catalog) { _, context in
            do {
                return try JSONOutput.response(try await webhooks.replay(try context.path("webhook"), deadLetter: try context.path("deadLetter")))
            } catch let error as WebhookReplayError {
                throw Problem(.badGateway, type: "/problems/webhook-refused", title: "The receiver refused the batch", detail: error.description)
            }
        }
        group.route(.delete, "admin/webhooks/{webhook}/dead-letters/{deadLetter}", "Discard a dead letter unsent",
                    statuses: Statuses.admin + [404, 409], responses: [200: Self.one], catalog: catalog) { _, context in
            try JSONOutput.response(try await webhooks.discard(try context.path("webhook"), deadLetter: try context.path("deadLetter")))
        }
        group.route(.post, "admin/webhooks/{webhook}/secret",
                    "Rotate a webhook's secret: its batches are signed with the new and the old one until the rotation ends (409 while one runs)",
                    body: "requests/webhook.secret.schema.json", statuses: Statuses.admin + [404, 409], responses: [200: Self.one],
                    catalog: catalog) { request, context in
            let secret = try Self.secretRequest(try await request.jsonObject(limit: maxBodyBytes))
            return try JSONOutput.response(try await webhooks.rotateSecret(try context.path("webhook"), to: secret))
        }
        group.route(.delete, "admin/webhooks/{webhook}/previous-secret",
                    "End a secret's rotation: only the new secret signs from now on (409 when none runs)",
                    statuses: Statuses.admin + [404, 409], responses: [200: Self.one], catalog: catalog) { _, context in
            try JSONOutput.response(try await webhooks.endRotation(try context.path("webhook")))
        }
    }

    /// The body of `POST /admin/webhooks` (`Schemas/requests/webhook.create.schema.json`): any
    /// other field or a wrong type is refused, naming the field; the values are checked by the
    /// dispatcher.
    static func webhookRequest(_ body: [String: Any]) throws(InputError) -> (WebhookRequest, after: UInt64?) {
        let fields = ["url", "secret", "eventTypes", "users", "after"]
        if let unknown = body.keys.filter({ !fields.contains($0) }).sorted().first {
            throw InputError("unknown field \"\(unknown)\"", field: unknown)
        }
        guard let url = body["url"] as? String else { throw InputError("url is required, a text", field: "url") }
        guard let secret = body["secret"] as? String else { throw InputError("secret is required, a text", field: "secret") }
        func texts(_ field: String) throws(InputError) -> [String]? {
            guard let value = body[field] else { return nil }
            guard let list = value as? [Any], let texts = list as? [String], texts.count == list.count else {
                throw InputError("\(field) must be a list of texts", field: field)
            }
            return texts
        }
        var after: UInt64?
        if let value = body["after"] {
            guard let count = EventBody.integer(value).flatMap({ UInt64(exactly: $0) }) else {
                throw InputError("after must be a log position (an integer from 0)", field: "after")
            }
            after = count
        }
        return (WebhookRequest(url: url, eventTypes: try texts("eventTypes"), users: try texts("users"), secret: secret), after)
    }

    /// The body of `POST /admin/webhooks/{webhook}/secret` (`Schemas/requests/webhook.secret.schema.json`):
    /// the new secret, nothing else; its length is checked by the dispatcher.
    static func secretRequest(_ body: [String: Any]) throws(InputError) -> String {
        if let unknown = body.keys.filter({ $0 != "secret" }).sorted().first {
            throw InputError("unknown field \"\(unknown)\"", field: unknown)
        }
        guard let secret = body["secret"] as? String else { throw InputError("secret is required, a text", field: "secret") }
        return secret
    }
}
