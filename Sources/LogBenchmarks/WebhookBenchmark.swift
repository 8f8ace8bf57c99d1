import AsyncHTTPClient
import EventLog
import Foundation
import Histogram
import HTTPTypes
import Hummingbird
import Logbook
import LogbookWebhooks
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// Webhook delivery against a receiver on loopback, and its baseline in the same run:
///
/// - **backlog**: `events` events are in the log before the webhook starts; how fast it delivers
///   them (reading, wire form, signing, POST, checkpoint), against a plain AsyncHTTPClient loop
///   POSTing the same batches' bodies, made beforehand, to the same receiver (`ratio` = webhook
///   ÷ baseline); making those bodies (reading the log, the wire form) is timed on its own;
/// - **live**: with the webhook caught up, `liveEvents` events appended one commit each at a
///   steady pace; the lag of each, from its append's acknowledgement to the receiver's taking
///   the batch that holds it (p50, p99, max).
public struct WebhookBenchmark: Sendable {
    public var events = 20_000
    public var liveEvents = 2_000
    /// Pause between live appends.
    public var livePace: Duration = .milliseconds(1)
    public var progress: @Sendable (String) -> Void = { _ in }

    public init() {}

    /// What the receiver took: each batch's last position and when it arrived.
    private final class Received: Sendable {
        /// Arrival times are seconds on the benchmark's one stopwatch.
        let clock: Stopwatch
        private let batches = Mutex<[(last: UInt64, at: Double)]>([])
        init(clock: Stopwatch) { self.clock = clock }
        func add(_ last: UInt64) { batches.withLock { $0.append((last, clock.seconds)) } }
        var all: [(last: UInt64, at: Double)] { batches.withLock { $0 } }
        var highest: UInt64 { batches.withLock { $0.last?.last ?? 0 } }
        func reset() { batches.withLock { $0.removeAll() } }
    }

    public func run() async throws -> BenchmarkReport {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-bench-webhooks-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let clock = Stopwatch()
        let received = Received(clock: clock)
        let router = Router()
        router.post("hook") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 64 << 20)
            let delivery = request.headers[HTTPField.Name("Logbook-Delivery")!] ?? ""
            received.add(delivery.split(separator: "-").last.flatMap { UInt64($0) } ?? 0)
            return Response(status: .ok)
        }
        let (ports, announce) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { announce.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let server = Task { try await group.run() }
        defer { server.cancel() }
        var portIterator = ports.makeAsyncIterator()
        let url = "http://127.0.0.1:\(await portIterator.next() ?? 0)/hook"

        var configuration = LogbookConfiguration()
        configuration.log.durability = .relaxed
        let logbook = try await Logbook.open(path: directory, configuration: configuration)
        var report = BenchmarkReport()
        report.set("benchmark", "webhooks")
        do {
            progress("appending \(events) events")
            for index in 0..<events {
                try await logbook.execute(.registerUser(user: "u-\(index)", UserRegistered(displayName: "User \(index)", timeZone: "UTC")))
            }
            let head = try await logbook.log.headPosition().rawValue

            progress("webhook: delivering the backlog")
            // The receiver listens on loopback: the operator's opt-in to receivers on this machine.
            var policy = WebhookPolicy()
            policy.allowPrivateAddresses = true
            let dispatcher = WebhookDispatcher(logbook: logbook, policy: policy, logger: logger)
            let started = clock.seconds
            try await dispatcher.start()
            _ = try await dispatcher.create(WebhookRequest(url: url, secret: "bench-secret-0123456789"), after: 0)
            while received.highest < head { try await Task.sleep(for: .milliseconds(2)) }
            let webhookSeconds = clock.seconds - started
            let batches = received.all.count

            progress("baseline: the same batches POSTed by a plain loop")
            // Reading and encoding alone (what the baseline's bodies cost to make), for the share of it.
            let encodeStarted = clock.seconds
            let bodies = try await Self.bodies(of: logbook, head: head, batchEvents: WebhookLimits().maxBatchEvents)
            let encodeSeconds = clock.seconds - encodeStarted
            received.reset()
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let baselineStarted = clock.seconds
            for (last, body) in bodies {
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "Logbook-Delivery", value: "0-\(last)")
                request.body = .bytes(ByteBuffer(bytes: body))
                let response = try await client.execute(request, timeout: .seconds(10))
                for try await _ in response.body {}
            }
            let baselineSeconds = clock.seconds - baselineStarted
            try await client.shutdown()
            var backlog = BenchmarkReport()
            backlog.set("events", events)
            backlog.set("batches", batches)
            backlog.set("webhook_events_per_second", Double(events) / webhookSeconds)
            backlog.set("baseline_events_per_second", Double(events) / baselineSeconds)
            backlog.set("ratio", baselineSeconds / webhookSeconds)
            backlog.set("read_encode_events_per_second", Double(events) / encodeSeconds)
            report.set("backlog", backlog)

            progress("live: \(liveEvents) appends, one every \(livePace)")
            received.reset()
            var acknowledged: [(position: UInt64, at: Double)] = []
            for index in 0..<liveEvents {
                let result = try await logbook.execute(.registerUser(user: "live-\(index)", UserRegistered(displayName: "Live \(index)", timeZone: "UTC")))
                acknowledged.append((result.lastPosition, clock.seconds))
                try await Task.sleep(for: livePace)
            }
            let last = acknowledged.last?.position ?? 0
            while received.highest < last { try await Task.sleep(for: .milliseconds(2)) }
            let arrivals = received.all
            var lag = Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
            var batch = 0
            for (position, at) in acknowledged {
                while batch < arrivals.count, arrivals[batch].last < position { batch += 1 }
                guard batch < arrivals.count else { break }
                let micros = max(0, (arrivals[batch].at - at) * 1_000_000)
                _ = lag.record(UInt64(micros))
            }
            var live = BenchmarkReport()
            live.set("events", liveEvents)
            live.set("batches", arrivals.count)
            live.set("lag_p50_ms", Double(lag.valueAtPercentile(50)) / 1000)
            live.set("lag_p99_ms", Double(lag.valueAtPercentile(99)) / 1000)
            live.set("lag_max_ms", Double(lag.max) / 1000)
            report.set("live", live)
            await dispatcher.shutdown()
        } catch {
            await logbook.close()
            throw error
        }
        await logbook.close()
        await group.triggerGracefulShutdown()
        return report
    }

    /// The log's events through `head` in batches of `batchEvents`, each the body a webhook sends.
    private static func bodies(of logbook: Logbook, head: UInt64, batchEvents: Int) async throws -> [(UInt64, [UInt8])] {
        var out: [(UInt64, [UInt8])] = []
        var from = Position(1)
        while from.rawValue <= head {
            let page = try await logbook.log.readAll(from: from, direction: .forward, limit: batchEvents, filter: .all)
            guard let last = page.events.last else { break }
            guard case .batch(let batch, _) = WebhookBatch.make(webhookId: "baseline", events: page.events[...], maxBytes: .max, of: logbook) else {
                throw LogbookError.storage("an event after position \(from.rawValue) has no wire form")
            }
            out.append((batch.last, batch.body))
            from = last.position.next
        }
        return out
    }
}
