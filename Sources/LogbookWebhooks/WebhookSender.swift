import AsyncHTTPClient
import Foundation
import LogbookOutbound
import Logging
import NIOCore

/// POSTs a webhook's batches: checks where the URL leads (`CheckedTarget`: a name resolved
/// once, every address checked against the policy, the one connected to the one checked), signs
/// the batch with each secret in use, and judges the answer by its status alone (any 2xx is
/// delivered; at most 64 KiB of its body is read, then dropped) — all within the policy's time
/// limit, resolving and the answer's body included. A failure is one of
/// `DeliveryFailure`'s coarse categories; the details go to the log, at debug level.
struct WebhookSender: Sendable {
    let clients: WebhookClients
    let addresses: AddressPolicy
    let resolver: any HostResolving
    let logger: Logger

    /// Sends `batch` to `webhook` signed with `secrets` (the first in use, then one being rotated
    /// out) at `seconds`; nil when the receiver answered 2xx within `timeout`, else why not.
    func send(_ batch: WebhookBatch, to webhook: Webhook, secrets: [String], seconds: Int64, timeout: Duration) async -> DeliveryFailure? {
        let this = self
        return await withTaskGroup(of: DeliveryFailure?.self) { group in
            group.addTask { await this.attempt(batch, to: webhook, secrets: secrets, seconds: seconds, timeout: timeout) }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return .notRunning }
                return .noAnswer(within: timeout)
            }
            let first = await group.next() ?? .notRunning
            group.cancelAll()
            return first
        }
    }

    private func attempt(_ batch: WebhookBatch, to webhook: Webhook, secrets: [String], seconds: Int64, timeout: Duration) async -> DeliveryFailure? {
        let url: OutboundURL
        do {
            url = try OutboundURL(webhook.url)
        } catch {
            report(webhook, "its URL cannot be called: \(error)")
            return .invalidURL
        }
        let target: CheckedTarget
        do {
            target = try await CheckedTarget.check(url, policy: addresses, resolver: resolver, limit: timeout)
        } catch {
            report(webhook, error == .addressRefused ? "\(url.host) is, or resolves only to, addresses the policy refuses" : "\(url.host) did not resolve")
            return error
        }
        guard let lease = await clients.lease(target) else { return .notRunning }
        let failure = await post(batch, to: webhook, target: target, client: lease.client, secrets: secrets, seconds: seconds, timeout: timeout)
        await clients.release(lease)
        return failure
    }

    private func post(
        _ batch: WebhookBatch, to webhook: Webhook, target: CheckedTarget, client: HTTPClient, secrets: [String], seconds: Int64, timeout: Duration
    ) async -> DeliveryFailure? {
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Logbook-Webhooks/1")
        request.headers.add(name: "Logbook-Webhook", value: webhook.id)
        request.headers.add(name: "Logbook-Delivery", value: batch.deliveryId)
        request.headers.add(name: "Logbook-Signature", value: WebhookSignature.header(secrets: secrets, seconds: seconds, body: batch.body))
        request.body = .bytes(ByteBuffer(bytes: batch.body))
        do {
            // The client's deadline covers the wait for the answer's head; the caller's race
            // covers the rest (a receiver that trickles its body is cut off at the limit).
            let response = try await client.execute(request, timeout: .microseconds(timeout.microseconds))
            var answer = ReceiverAnswer(status: Int(response.status.code))
            for try await part in response.body {
                guard answer.read(part.readableBytes) else { break }
            }
            if answer.failure != nil { report(webhook, "\(target.address) answered \(response.status.code)") }
            return answer.failure
        } catch is CancellationError {
            return .noAnswer(within: timeout)
        } catch {
            report(webhook, "\(target.address): \(error)")
            return .noAnswer(within: timeout)
        }
    }

    /// What went wrong in detail, for the server's log at debug level (the URL redacted as listings show it).
    private func report(_ webhook: Webhook, _ detail: String) {
        logger.debug(
            "webhook attempt failed", metadata: ["webhook": "\(webhook.id)", "url": "\(OutboundURL.redacting(webhook.url))", "detail": "\(detail)"])
    }
}
