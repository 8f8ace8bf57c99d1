import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import Logging
import LogbookWebhooks
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization

/// A real HTTP receiver of webhooks on 127.0.0.1 (over TLS when given a configuration), for the
/// tests: it takes batches (checking their signature), or fails them with a status, or stalls; it
/// can be stopped and started again on the same port.
final class WebhookReceiver: Sendable {
    enum Mode: Sendable, Equatable {
        /// Take every batch (200).
        case accept
        /// Answer this status to every batch, taking none.
        case fail(UInt16)
        /// Answer the next `count` batches with 500, then take them.
        case failFirst(Int)
        /// Hold each batch this long before taking it (the sender has given up by then).
        case stall(Duration)
    }

    /// A batch taken: its headers' ids, its events' positions and types, and whether its signature held.
    struct Delivery: Sendable {
        let webhook: String
        let delivery: String
        let positions: [UInt64]
        let types: [String]
        let subjects: [String?]
        let signed: Bool
        /// The order it was taken in, across restarts.
        let sequence: Int
        /// Its `Logbook-Signature` header and body, to check against other secrets.
        let signature: String
        let body: [UInt8]
    }

    private struct State {
        /// False from the moment it starts to stop: a batch then gets 503 and is not taken (so a
        /// batch cut off by the stop is not counted as taken).
        var accepting = false
        var mode: Mode = .accept
        var deliveries: [Delivery] = []
        var refused = 0
    }

    let secret: String
    /// Set: the receiver speaks HTTPS with this configuration.
    let tls: TLSConfiguration?
    private let state = Mutex(State())
    private let running = Mutex<(group: ServiceGroup, task: Task<Void, any Error>)?>(nil)
    private let boundPort = Mutex(0)

    init(secret: String, tls: TLSConfiguration? = nil) {
        self.secret = secret
        self.tls = tls
    }

    var port: Int { boundPort.withLock { $0 } }
    var url: String { url(host: "127.0.0.1") }
    /// Its URL under the host name `host` (which must lead to 127.0.0.1).
    func url(host: String) -> String { "\(tls == nil ? "http" : "https")://\(host):\(port)/hook" }

    func set(_ mode: Mode) { state.withLock { $0.mode = mode } }
    var deliveries: [Delivery] { state.withLock { $0.deliveries } }
    /// Batches answered with a failure so far.
    var refused: Int { state.withLock { $0.refused } }
    /// Every position taken, in the order taken (duplicates included).
    var positions: [UInt64] { deliveries.flatMap(\.positions) }
    /// Every position taken, in the order each first arrived.
    var firstArrivals: [UInt64] {
        var seen = Set<UInt64>()
        return positions.filter { seen.insert($0).inserted }
    }

    /// Starts listening (on `port`, or the port it had before, or any free one).
    func start(port requested: Int? = nil) async throws {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 64 << 20)
            let bytes = Array(body.readableBytesView)
            return try await self.receive(request, bytes)
        }
        var logger = Logger(label: "receiver")
        logger.logLevel = .critical
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
            configuration: .init(address: .hostname("127.0.0.1", port: requested ?? port)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        state.withLock { $0.accepting = true }
        let task = Task {
            // A server that ends (or never binds: its port was taken) ends the wait for its port.
            defer { continuation.finish() }
            try await group.run()
        }
        running.withLock { $0 = (group, task) }
        var iterator = stream.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            running.withLock { $0 = nil }
            try await task.value
            throw CancellationError()
        }
        boundPort.withLock { $0 = bound }
    }

    /// Stops listening: connections refused until ``start(port:)``.
    func stop() async {
        state.withLock { $0.accepting = false }
        guard let (group, task) = running.withLock({ value in defer { value = nil }; return value }) else { return }
        await group.triggerGracefulShutdown()
        // A stalled batch would hold the graceful shutdown: give it a moment, then cut it.
        let cut = Task {
            try await Task.sleep(for: .seconds(2))
            task.cancel()
        }
        _ = try? await task.value
        cut.cancel()
    }

    private func receive(_ request: Request, _ bytes: [UInt8]) async throws -> Response {
        let mode = state.withLock { state -> Mode in
            if !state.accepting { return .fail(503) }
            if case .failFirst(let count) = state.mode {
                if count > 0 { state.mode = .failFirst(count - 1); return .fail(500) }
                return .accept
            }
            return state.mode
        }
        switch mode {
        case .fail(let status):
            state.withLock { $0.refused += 1 }
            return Response(status: .init(code: Int(status)))
        case .stall(let duration):
            try await Task.sleep(for: duration)
            state.withLock { $0.refused += 1 }
            return Response(status: .ok)
        case .accept, .failFirst:
            break
        }
        let signature = request.headers[HTTPField.Name("Logbook-Signature")!] ?? ""
        let seconds = signature.split(separator: ",").first.flatMap { $0.hasPrefix("t=") ? Int64($0.dropFirst(2)) : nil } ?? 0
        let signed = WebhookSignature.verify(header: signature, secret: secret, body: bytes, now: seconds)
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] ?? [:]
        let events = object["events"] as? [[String: Any]] ?? []
        state.withLock { state in
            state.deliveries.append(Delivery(
                webhook: request.headers[HTTPField.Name("Logbook-Webhook")!] ?? "", delivery: request.headers[HTTPField.Name("Logbook-Delivery")!] ?? "",
                positions: events.compactMap { ($0["position"] as? NSNumber)?.uint64Value }, types: events.compactMap { $0["type"] as? String },
                subjects: events.map { $0["subject"] as? String }, signed: signed && object["delivery"] as? String == request.headers[HTTPField.Name("Logbook-Delivery")!],
                sequence: state.deliveries.count, signature: signature, body: bytes))
        }
        return Response(status: .ok)
    }
}

/// Waits until `condition` holds (polling), failing after `timeout`.
func eventually(_ what: String, timeout: Duration = .seconds(120), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    struct TimedOut: Error, CustomStringConvertible { let description: String }
    throw TimedOut(description: "timed out waiting for \(what)")
}
