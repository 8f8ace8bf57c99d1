import AsyncHTTPClient
import Foundation
import NIOCore

/// POSTs a webhook's batches with AsyncHTTPClient: signed, within the policy's time limit, and
/// judged by the status alone (any 2xx is delivered; the answer's body is read and dropped).
struct WebhookSender: Sendable {
    let client: HTTPClient

    /// Sends `batch` to `webhook` signed at `seconds`; nil when the receiver answered 2xx, else
    /// why the attempt failed.
    func send(_ batch: WebhookBatch, to webhook: Webhook, seconds: Int64, timeout: Duration) async -> String? {
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Logbook-Webhooks/1")
        request.headers.add(name: "Logbook-Webhook", value: webhook.id)
        request.headers.add(name: "Logbook-Delivery", value: batch.deliveryId)
        request.headers.add(name: "Logbook-Signature", value: WebhookSignature.header(secret: webhook.secret, seconds: seconds, body: batch.body))
        request.body = .bytes(ByteBuffer(bytes: batch.body))
        let limit = TimeAmount.nanoseconds(Int64(clamping: timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000))
        do {
            let response = try await client.execute(request, timeout: limit)
            // Drained, not kept: a receiver's answer says nothing but its status.
            for try await _ in response.body {}
            guard (200..<300).contains(response.status.code) else { return "the receiver answered \(response.status.code)" }
            return nil
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            return "no answer within \(timeout)"
        } catch {
            return "\(error)"
        }
    }
}
