import AsyncHTTPClient
import Foundation
import NIOCore

/// POSTs a webhook's batches with AsyncHTTPClient: signed, within the policy's time limit (the
/// whole exchange, the answer's body included), judged by the status alone (any 2xx is
/// delivered; at most 64 KiB of the answer's body is read, then dropped).
struct WebhookSender: Sendable {
    let client: HTTPClient

    /// The most of a receiver's answer read before it is dropped.
    static let maxAnswerBytes = 64 << 10

    /// Sends `batch` to `webhook` signed at `seconds`; nil when the receiver answered 2xx within
    /// `timeout`, else why the attempt failed.
    func send(_ batch: WebhookBatch, to webhook: Webhook, seconds: Int64, timeout: Duration) async -> String? {
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Logbook-Webhooks/1")
        request.headers.add(name: "Logbook-Webhook", value: webhook.id)
        request.headers.add(name: "Logbook-Delivery", value: batch.deliveryId)
        request.headers.add(name: "Logbook-Signature", value: WebhookSignature.header(secret: webhook.secret, seconds: seconds, body: batch.body))
        request.body = .bytes(ByteBuffer(bytes: batch.body))
        let (client, prepared) = (self.client, request)
        let limit = TimeAmount.microseconds(timeout.microseconds)
        // The client's deadline covers the wait for the answer's head; the race below covers
        // its body too (a receiver that trickles it is cut off at the limit).
        return await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do {
                    let response = try await client.execute(prepared, timeout: limit)
                    var read = 0
                    for try await part in response.body {
                        read += part.readableBytes
                        if read > Self.maxAnswerBytes { break }
                    }
                    guard (200..<300).contains(response.status.code) else { return "the receiver answered \(response.status.code)" }
                    return nil
                } catch let error as HTTPClientError where error == .deadlineExceeded {
                    return "no answer within \(timeout)"
                } catch is CancellationError {
                    return "no answer within \(timeout)"
                } catch {
                    return "\(error)"
                }
            }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return "cancelled" }
                return "no answer within \(timeout)"
            }
            let first = await group.next() ?? "no answer"
            group.cancelAll()
            return first
        }
    }
}
