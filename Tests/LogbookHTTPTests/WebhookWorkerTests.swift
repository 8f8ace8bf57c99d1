import EventLog
import Logbook
import LogbookDomain
import LogbookOutbound
import LogbookTestSupport
@testable import LogbookWebhooks
import Logging
import Testing

/// One webhook's delivery loop alone, over a real log, sending through a host that records what
/// it is told and answers as the test scripts it (in place of the dispatcher and a receiver).
@Suite("Webhook worker", .timeLimit(.minutes(2)))
struct WebhookWorkerTests {
    /// Records every report; answers sends from `failures` (one entry per send, then taken).
    actor RecordingHost: WebhookDeliveryHost {
        var failures: [DeliveryFailure?]
        var goOnAfterDeadLetter: Bool
        private(set) var sent: [(first: UInt64, last: UInt64, count: Int)] = []
        private(set) var reports: [String] = []
        private(set) var through = Position(0)

        init(failures: [DeliveryFailure?] = [], goOnAfterDeadLetter: Bool = true) {
            self.failures = failures
            self.goOnAfterDeadLetter = goOnAfterDeadLetter
        }

        func send(_ batch: WebhookBatch, to webhook: Webhook, _ generation: Int) async -> DeliveryFailure? {
            sent.append((batch.first, batch.last, batch.count))
            return failures.isEmpty ? nil : failures.removeFirst()
        }

        func delivered(_ id: String, _ generation: Int, batch: WebhookBatch, through: Position) async throws {
            reports.append("delivered \(batch.first)-\(batch.last) through \(through.rawValue)")
            self.through = through
        }

        func skipped(_ id: String, _ generation: Int, through: Position) async throws {
            reports.append("skipped through \(through.rawValue)")
            self.through = through
        }

        func failed(_ id: String, _ generation: Int, attempt: Int, error: String, retryIn delay: Duration) async {
            reports.append("failed attempt \(attempt)")
        }

        func workerFailed(_ id: String, _ generation: Int, error: String, retryIn delay: Duration) async -> Position? {
            reports.append("worker failed: \(error)")
            return nil
        }

        func deadLettered(
            _ id: String, _ generation: Int, first: UInt64, last: UInt64, events: Int, attempts: Int, error: String, through: Position
        ) async throws -> Bool {
            reports.append("dead letter \(first)-\(last) after \(attempts)")
            self.through = through
            return goOnAfterDeadLetter
        }
    }

    static func policy(batch: Int, attempts: Int = 3) -> WebhookPolicy {
        var policy = WebhookPolicy()
        policy.maxAttempts = attempts
        policy.baseDelay = .milliseconds(1)
        policy.maxDelay = .milliseconds(2)
        policy.limits.maxBatchEvents = batch
        return policy
    }

    static func register(_ logbook: Logbook, _ users: [String]) async throws -> UInt64 {
        var last: UInt64 = 0
        for user in users {
            last = try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "UTC"))).lastPosition
        }
        return last
    }

    /// Runs a worker for `webhook` from position 0 until the host heard of `through`, or until it ends.
    static func run(_ logbook: Logbook, _ host: RecordingHost, _ webhook: Webhook, _ policy: WebhookPolicy, until through: UInt64) async throws {
        let worker = WebhookWorker(host: host, logbook: logbook, webhook: webhook, generation: 1, policy: policy, logger: Logger(label: "test"))
        let task = Task { await worker.run(after: Position(0)) }
        while await host.through.rawValue < through {
            try await Task.sleep(for: .milliseconds(2))
        }
        task.cancel()
        await task.value
    }

    static func webhook(users: [String]? = nil) -> Webhook {
        Webhook(id: "wh-test", url: "https://example.com/hook", eventTypes: nil, users: users, paused: false, createdAt: 0)
    }

    @Test("batches of at most the limit, in log order, each delivered before the next is sent")
    func batchesInOrder() async throws {
        try await withLogbook { logbook, _ in
            let head = try await Self.register(logbook, (1...10).map { "u-\($0)" })
            let host = RecordingHost()
            try await Self.run(logbook, host, Self.webhook(), Self.policy(batch: 4), until: head)
            let sent = await host.sent.map { "\($0.first)-\($0.last):\($0.count)" }
            #expect(sent == ["1-4:4", "5-8:4", "9-10:2"])
            #expect(await host.reports == ["delivered 1-4 through 4", "delivered 5-8 through 8", "delivered 9-10 through 10"])
        }
    }

    @Test("a batch holds the longest run of events whose wire forms fit the byte limit, and always at least one")
    func batchByteLimit() async throws {
        try await withLogbook { logbook, _ in
            _ = try await Self.register(logbook, (1...3).map { "u-\($0)" })
            let events = try await logbook.log.readAll(from: Position(1), direction: .forward, limit: 10, filter: .all).events
            try #require(events.count == 3)
            let wire = try events.map { event in
                var bytes: [UInt8] = []
                try WireEvent(event, of: logbook).appendJSON(to: &bytes)
                return bytes
            }
            let two = wire[0].count + 1 + wire[1].count
            func made(_ maxBytes: Int) throws -> (taken: Int, body: [UInt8]) {
                guard case .batch(let batch, let taken) = WebhookBatch.make(webhookId: "w", events: events[...], maxBytes: maxBytes, of: logbook) else {
                    throw LogbookError.storage("no batch")
                }
                #expect(batch.count == taken)
                return (taken, batch.body)
            }
            let exact = try made(two)
            #expect(exact.taken == 2)
            let prefix = Array(#"{"webhook":"w","delivery":"1-2","events":["#.utf8)
            #expect(exact.body == prefix + wire[0] + [UInt8(ascii: ",")] + wire[1] + Array("]}".utf8))
            #expect(try made(two - 1).taken == 1)
            #expect(try made(1).taken == 1, "an event longer than the limit still goes, alone")
            #expect(try made(.max).taken == 3)
        }
    }

    @Test("a refused batch is tried again with backoff, and becomes a dead letter after the last attempt; delivery goes on")
    func retriesThenDeadLetter() async throws {
        try await withLogbook { logbook, _ in
            let head = try await Self.register(logbook, (1...4).map { "u-\($0)" })
            let refused = DeliveryFailure.answered(statusClass: 500)
            // The first batch: refused once, then taken; the second: refused three times.
            let host = RecordingHost(failures: [refused, nil, refused, refused, refused])
            try await Self.run(logbook, host, Self.webhook(), Self.policy(batch: 2, attempts: 3), until: head)
            #expect(await host.reports == [
                "failed attempt 1", "delivered 1-2 through 2",
                "failed attempt 1", "failed attempt 2", "dead letter 3-4 after 3",
            ])
        }
    }

    @Test("a webhook that paused itself on a dead letter sends nothing more")
    func pausedByDeadLetter() async throws {
        try await withLogbook { logbook, _ in
            _ = try await Self.register(logbook, (1...4).map { "u-\($0)" })
            let host = RecordingHost(failures: [.answered(statusClass: 400)], goOnAfterDeadLetter: false)
            let worker = WebhookWorker(
                host: host, logbook: logbook, webhook: Self.webhook(), generation: 1, policy: Self.policy(batch: 2, attempts: 1),
                logger: Logger(label: "test"))
            await worker.run(after: Position(0))
            #expect(await host.reports == ["dead letter 1-2 after 1"], "the worker ended by itself")
            #expect(await host.sent.count == 1)
        }
    }

    @Test("events of other users are passed over: the checkpoint still moves past them")
    func passesOverOthers() async throws {
        try await withLogbook { logbook, _ in
            let head = try await Self.register(logbook, ["u-1", "u-2", "u-3", "u-2"].enumerated().map { "\($0.element)-\($0.offset)" })
            let host = RecordingHost()
            try await Self.run(logbook, host, Self.webhook(users: ["u-2-1"]), Self.policy(batch: 100), until: head)
            #expect(await host.sent.map(\.first) == [2])
            #expect(await host.reports.last == "delivered 2-2 through \(head)")
            let other = RecordingHost()
            try await Self.run(logbook, other, Self.webhook(users: ["nobody"]), Self.policy(batch: 100), until: head)
            #expect(await other.sent.isEmpty)
            #expect(await other.reports == ["skipped through \(head)"])
        }
    }
}
