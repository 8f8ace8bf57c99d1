import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import LogbookWebhooks
import Logging
import Testing

/// Webhooks against a real receiver on loopback: signed batches in log order, filters, retries
/// with backoff, stalls that hold nobody else, dead letters replayed and discarded, pause and
/// resume, restarts that resume from the checkpoint, and the admin routes' refusals.
@Suite("Webhooks")
struct WebhookTests {
    static let secret = "whsec-test-secret-0123"

    /// Quick retries, so that failures play out in milliseconds. The time limit of a POST stays
    /// generous: the whole suite loads this machine, and an answer past it is sent again (a
    /// duplicate these tests would count). The receivers listen on 127.0.0.1: opted in to them.
    static func quick(attempts: Int = 4, timeout: Duration = .seconds(60)) -> WebhookPolicy {
        var policy = WebhookPolicy()
        policy.allowPrivateAddresses = true
        policy.maxAttempts = attempts
        policy.baseDelay = .milliseconds(5)
        policy.maxDelay = .milliseconds(50)
        policy.requestTimeout = timeout
        return policy
    }

    /// A server whose webhook dispatcher runs (`routes.webhooks`), on a fresh store.
    static func withWebhookServer(
        _ policy: WebhookPolicy, _ body: @escaping @Sendable (TestServer, WebhookDispatcher) async throws -> Void
    ) async throws {
        try await withLogbook({ $0.clock = SteppingClock() }) { logbook, _ in
            var configuration = HTTPConfiguration(jwtSecret: testSecret)
            configuration.webhooks = policy
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let (router, routes) = try await LogbookServer.routerAndRoutes(logbook: logbook, configuration: configuration, metrics: LogbookMetrics(), logger: logger)
            try await routes.webhooks.start()
            let keys = await TokenKeys(secret: testSecret)
            do {
                try await Application(router: router, logger: logger).test(.router) { client in
                    try await body(TestServer(logbook: logbook, client: client, keys: keys), routes.webhooks)
                }
            } catch {
                await routes.webhooks.shutdown()
                throw error
            }
            await routes.webhooks.shutdown()
        }
    }

    /// Makes a webhook through the admin route; returns its id.
    static func create(
        _ server: TestServer, _ url: String, types: [String]? = nil, users: [String]? = nil, after: UInt64? = nil
    ) async throws -> String {
        var body: [String: Any] = ["url": url, "secret": secret]
        if let types { body["eventTypes"] = types }
        if let users { body["users"] = users }
        if let after { body["after"] = after }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let response = try await server.call(.post, "/admin/webhooks", as: "root", admin: true, body: text)
        try #require(response.status == .created, "\(response.text)")
        return try #require(response.json["id"] as? String)
    }

    static func status(_ server: TestServer, _ id: String) async throws -> [String: Any] {
        let response = try await server.call(.get, "/admin/webhooks/\(id)", as: "root", admin: true)
        try #require(response.status == .ok, "\(response.text)")
        return response.json
    }

    /// Appends one step sample of `user` (the `index`th) and returns its position.
    @discardableResult
    static func step(_ server: TestServer, _ user: String, _ index: Int) async throws -> UInt64 {
        let minute = String(format: "%02d", index % 60), hour = String(format: "%02d", (index / 60) % 24)
        let response = try await server.call(
            .post, "/users/\(user)/steps", as: user,
            body: #"{"samples":[{"start":"2026-11-17T\#(hour):\#(minute):00Z","end":"2026-11-17T\#(hour):\#(minute):30Z","count":10,"source":"watch"}]}"#)
        try #require(response.status == .created, "\(response.text)")
        return UInt64(try #require(response.json["firstPosition"] as? Int))
    }

    /// The positions after `after` that a webhook of `types` and `users` wants, read from the log.
    static func wanted(_ logbook: Logbook, after: UInt64, types: Set<String>? = nil, users: Set<String>? = nil) async throws -> [UInt64] {
        let page = try await logbook.log.readAll(from: Position(after + 1), direction: .forward, limit: 100_000, filter: EventFilter(eventTypes: types))
        return page.events.filter { event in users.map { $0.contains(event.envelope.subject ?? "") } ?? true }.map(\.position.rawValue)
    }

    @Test("the signature is HMAC-SHA256 of t.body, checked in constant time, within a tolerance")
    func signature() {
        let body = Array(#"{"a":1}"#.utf8)
        let header = WebhookSignature.header(secret: Self.secret, seconds: 1_764_201_600, body: body)
        // Python: hmac.new(b"whsec-test-secret-0123", b'1764201600.{"a":1}', hashlib.sha256).hexdigest()
        #expect(header == "t=1764201600,v1=5c40f3b775863f944a8ae6aaa2a9901ee24dc580e50277c4ffa5048aafebf092")
        #expect(WebhookSignature.verify(header: header, secret: Self.secret, body: body, now: 1_764_201_610))
        #expect(!WebhookSignature.verify(header: header, secret: Self.secret, body: Array(#"{"a":2}"#.utf8), now: 1_764_201_610))
        #expect(!WebhookSignature.verify(header: header, secret: "another-secret-of-16", body: body, now: 1_764_201_610))
        #expect(!WebhookSignature.verify(header: header, secret: Self.secret, body: body, now: 1_764_201_600 + 301), "too old")
        #expect(!WebhookSignature.verify(header: "t=1764201600,v1=zz", secret: Self.secret, body: body, now: 1_764_201_600))
        #expect(!WebhookSignature.verify(header: "v1=" + header.split(separator: "=").last!, secret: Self.secret, body: body, now: 1_764_201_600))
    }

    @Test("every wanted event arrives once, signed, in log order; filters by type and user hold")
    func deliversInOrder() async throws {
        let receiver = WebhookReceiver(secret: Self.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await Self.withWebhookServer(Self.quick()) { server, _ in
            try await register(server, "ana")
            try await register(server, "ben")
            let start = try await server.head()
            let all = try await Self.create(server, receiver.url)
            let anaSteps = try await Self.create(server, receiver.url, types: ["steps.recorded"], users: ["ana"])
            for index in 0..<30 { try await Self.step(server, index % 3 == 0 ? "ben" : "ana", index) }
            let profile = try await server.call(.patch, "/users/ana/profile", as: "ana", body: #"{"displayName":"Ana B"}"#)
            #expect(profile.status == .created || profile.status == .ok, "\(profile.text)")
            let expectedAll = try await Self.wanted(server.logbook, after: start)
            let expectedAna = try await Self.wanted(server.logbook, after: start, types: ["steps.recorded"], users: ["ana"])
            #expect(expectedAna.count == 20)
            try await eventually("both webhooks' events") {
                receiver.deliveries.filter { $0.webhook == all }.flatMap(\.positions).count >= expectedAll.count
                    && receiver.deliveries.filter { $0.webhook == anaSteps }.flatMap(\.positions).count >= expectedAna.count
            }
            #expect(receiver.deliveries.filter { $0.webhook == all }.flatMap(\.positions) == expectedAll)
            #expect(receiver.deliveries.filter { $0.webhook == anaSteps }.flatMap(\.positions) == expectedAna)
            #expect(receiver.deliveries.allSatisfy { $0.signed })
            #expect(receiver.deliveries.filter { $0.webhook == anaSteps }.allSatisfy { $0.types.allSatisfy { $0 == "steps.recorded" } && $0.subjects.allSatisfy { $0 == "ana" } })
            for delivery in receiver.deliveries {
                #expect(delivery.delivery == "\(delivery.positions.first ?? 0)-\(delivery.positions.last ?? 0)")
            }
            // The filtered one moves its checkpoint past what it does not want, too.
            let head = try await server.head()
            try await eventually("no lag") {
                let first = try await Self.status(server, all), second = try await Self.status(server, anaSteps)
                return first["lagEvents"] as? Int == 0 && second["lagEvents"] as? Int == 0
            }
            let status = try await Self.status(server, anaSteps)
            #expect(status["deliveredThrough"] as? Int == Int(head))
            #expect(status["eventsDelivered"] as? Int == 20)
            #expect(status["eventTypes"] as? [String] == ["steps.recorded"])
            #expect(status["secret"] == nil, "the secret is never answered")
            let metrics = try await server.call(.get, "/metrics").text
            #expect(metrics.contains(#"logbook_webhook_lag_events{webhook="\#(anaSteps)"} 0"#), "\(metrics)")
            #expect(metrics.contains(#"logbook_webhook_events_delivered{webhook="\#(anaSteps)"} 20"#))
        }
    }

    @Test("a receiver failing with 500 gets the batch again, with backoff, until it takes it: nothing lost, nothing out of order")
    func retriesFailures() async throws {
        let receiver = WebhookReceiver(secret: Self.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        receiver.set(.failFirst(3))
        try await Self.withWebhookServer(Self.quick(attempts: 10)) { server, _ in
            try await register(server, "ana")
            let hook = try await Self.create(server, receiver.url, after: 0)
            for index in 0..<10 { try await Self.step(server, "ana", index) }
            let expected = try await Self.wanted(server.logbook, after: 0)
            try await eventually("every event") { Set(receiver.positions).count >= expected.count }
            #expect(receiver.positions == expected)
            #expect(receiver.refused == 3)
            try await eventually("the failures cleared") { try await Self.status(server, hook)["failures"] as? Int == 0 }
            #expect(try await Self.status(server, hook)["lastError"] == nil)
        }
    }

    @Test("a stalled receiver is timed out and retried, and holds neither writers nor another webhook")
    func stallHoldsNobody() async throws {
        let stalled = WebhookReceiver(secret: Self.secret), healthy = WebhookReceiver(secret: Self.secret)
        try await stalled.start()
        try await healthy.start()
        defer { Task { await stalled.stop(); await healthy.stop() } }
        stalled.set(.stall(.seconds(3)))
        try await Self.withWebhookServer(Self.quick(attempts: 1000, timeout: .seconds(1))) { server, _ in
            try await register(server, "ana")
            let slow = try await Self.create(server, stalled.url, after: 0)
            _ = try await Self.create(server, healthy.url, after: 0)
            for index in 0..<40 { try await Self.step(server, "ana", index) }
            let expected = try await Self.wanted(server.logbook, after: 0)
            // The 1 s limit holds for the healthy receiver too: on a loaded machine an answer past
            // it is sent again (a duplicate), so what counts is what arrived first, and in order.
            try await eventually("the healthy receiver's events") { Set(healthy.positions).count >= expected.count }
            #expect(healthy.firstArrivals == expected)
            #expect(healthy.deliveries.allSatisfy { $0.positions == $0.positions.sorted() })
            #expect(stalled.deliveries.isEmpty)
            try await eventually("the stall seen as a failure") {
                let status = try await Self.status(server, slow)
                return (status["failures"] as? Int ?? 0) >= 1 && (status["lastError"] as? String)?.contains("no answer within") == true
            }
            stalled.set(.accept)
            try await eventually("the stalled receiver's events, once it answers") { Set(stalled.positions).count >= expected.count }
            // A batch answered past the time limit (a loaded machine) is sent again: each batch is
            // in order, and the events arrive first in log order.
            #expect(stalled.firstArrivals == expected)
            #expect(stalled.deliveries.allSatisfy { $0.positions == $0.positions.sorted() })
        }
    }

    @Test("a batch that fails every attempt becomes a dead letter; delivery goes on; replay and discard")
    func deadLetters() async throws {
        let receiver = WebhookReceiver(secret: Self.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        receiver.set(.fail(503))
        try await Self.withWebhookServer(Self.quick(attempts: 2)) { server, _ in
            try await register(server, "ana")
            let hook = try await Self.create(server, receiver.url, after: 0)
            for index in 0..<3 { try await Self.step(server, "ana", index) }
            let head = try await server.head()
            try await eventually("everything dead-lettered") { try await Self.status(server, hook)["deliveredThrough"] as? Int == Int(head) }
            var letters = try #require(try await Self.status(server, hook)["deadLetters"] as? [[String: Any]])
            #expect(letters.map { $0["events"] as? Int ?? 0 }.reduce(0, +) == Int(head))
            #expect(letters.allSatisfy { $0["attempts"] as? Int == 2 && ($0["error"] as? String)?.contains("answered 5xx") == true })
            let first = try #require(letters.first?["id"] as? String)

            // Replayed while the receiver still fails: 502, kept, one more attempt.
            let refused = try await server.call(.post, "/admin/webhooks/\(hook)/dead-letters/\(first)/replay", as: "root", admin: true)
            #expect(refused.status == .badGateway, "\(refused.text)")
            letters = try #require(try await Self.status(server, hook)["deadLetters"] as? [[String: Any]])
            #expect(letters.first { $0["id"] as? String == first }?["attempts"] as? Int == 3)

            receiver.set(.accept)
            let replayed = try await server.call(.post, "/admin/webhooks/\(hook)/dead-letters/\(first)/replay", as: "root", admin: true)
            #expect(replayed.status == .ok, "\(replayed.text)")
            #expect(!((replayed.json["deadLetters"] as? [[String: Any]]) ?? []).contains { $0["id"] as? String == first })
            #expect(receiver.deliveries.map { "dl-" + $0.delivery } == [first])
            for letter in letters.compactMap({ $0["id"] as? String }) where letter != first {
                let discarded = try await server.call(.delete, "/admin/webhooks/\(hook)/dead-letters/\(letter)", as: "root", admin: true)
                #expect(discarded.status == .ok)
            }
            #expect((try await Self.status(server, hook)["deadLetters"] as? [[String: Any]])?.isEmpty == true)
            let missing = try await server.call(.delete, "/admin/webhooks/\(hook)/dead-letters/\(first)", as: "root", admin: true)
            #expect(missing.status == .notFound)

            // Paused, it delivers nothing and keeps its place; resumed, it goes on from there.
            let paused = try await server.call(.post, "/admin/webhooks/\(hook)/pause", as: "root", admin: true)
            #expect(paused.json["paused"] as? Bool == true)
            let later = try await Self.step(server, "ana", 10)
            try await Task.sleep(for: .milliseconds(300))
            #expect(!receiver.positions.contains(later))
            #expect(try await Self.status(server, hook)["lagEvents"] as? Int == 1)
            let resumed = try await server.call(.post, "/admin/webhooks/\(hook)/resume", as: "root", admin: true)
            #expect(resumed.json["paused"] as? Bool == false)
            try await eventually("the event after the pause") { receiver.positions.contains(later) }
        }
    }

    @Test("embedded: a restart resumes from the checkpoint, and events written while the receiver was down arrive")
    func resumesAfterRestart() async throws {
        let receiver = WebhookReceiver(secret: Self.secret)
        try await receiver.start()
        try await withTemporaryDirectory { path in
            var configuration = LogbookConfiguration()
            configuration.log.durability = .relaxed
            func register(_ logbook: Logbook, _ users: Range<Int>) async throws {
                for index in users {
                    try await logbook.execute(.registerUser(user: "u-\(index)", UserRegistered(displayName: "U \(index)", timeZone: "UTC")))
                }
            }
            var logbook = try await Logbook.open(path: path, configuration: configuration)
            var dispatcher = WebhookDispatcher(logbook: logbook, policy: Self.quick(attempts: 1000))
            try await dispatcher.start()
            let hook = try await dispatcher.create(WebhookRequest(url: receiver.url, secret: Self.secret), after: 0).id
            try await register(logbook, 0..<5)
            try await eventually("the first five") { receiver.positions.count >= 5 }
            // Down: every batch refused (503), none taken. Stopping the receiver instead would
            // free its port for another test's server to take before it could listen there again.
            receiver.set(.fail(503))
            try await register(logbook, 5..<10)
            try await eventually("a refused attempt") { try await dispatcher.status(hook).failures >= 1 }
            await dispatcher.shutdown()
            await logbook.close()

            logbook = try await Logbook.open(path: path, configuration: configuration)
            dispatcher = WebhookDispatcher(logbook: logbook, policy: Self.quick(attempts: 1000))
            try await dispatcher.start()
            #expect(try await dispatcher.status(hook).deliveredThrough == 5, "the checkpoint survived the restart")
            receiver.set(.accept)
            try await register(logbook, 10..<13)
            try await eventually("all thirteen") { Set(receiver.positions).count >= 13 }
            #expect(receiver.firstArrivals == Array(1...13), "in log order")
            #expect(receiver.positions.count == 13, "none twice (the receiver took every batch it was sent, in time)")
            await dispatcher.shutdown()
            await logbook.close()
        }
        await receiver.stop()
    }

    @Test("the admin routes refuse what is wrong, naming it, and make nothing")
    func refusals() async throws {
        try await Self.withWebhookServer(Self.quick()) { server, dispatcher in
            func post(_ body: String, as user: String = "root", admin: Bool = true) async throws -> TestResponse {
                try await server.call(.post, "/admin/webhooks", as: user, admin: admin, body: body)
            }
            let good = #""url":"http://127.0.0.1:9/hook","secret":"whsec-test-secret-0123""#
            let cases: [(String, String)] = [
                (#"{"url":"ftp://example.com/x","secret":"whsec-test-secret-0123"}"#, "url"),
                (#"{"url":"http://user:pw@example.com/x","secret":"whsec-test-secret-0123"}"#, "url"),
                (#"{"url":"not a url at all","secret":"whsec-test-secret-0123"}"#, "url"),
                (#"{"url":"http://127.0.0.1:9/hook","secret":"short"}"#, "secret"),
                (#"{"url":"http://127.0.0.1:9/hook"}"#, "secret"),
                ("{\(good),\"eventTypes\":[\"steps.walked\"]}", "eventTypes"),
                ("{\(good),\"eventTypes\":[]}", "eventTypes"),
                ("{\(good),\"eventTypes\":[\"goal.set\",\"goal.set\"]}", "eventTypes"),
                ("{\(good),\"users\":[\"has space\"]}", "users"),
                ("{\(good),\"users\":[1]}", "users"),
                ("{\(good),\"after\":-1}", "after"),
                ("{\(good),\"after\":99999}", "after"),
                ("{\(good),\"colour\":\"red\"}", "colour"),
            ]
            for (body, field) in cases {
                let response = try await post(body)
                #expect(response.status == .badRequest, "\(body): \(response.text)")
                #expect(response.json["field"] as? String == field, "\(body): \(response.text)")
            }
            // 200 users of 128 backslashes and digits each: within the count and valid ids, but
            // stored escaped (256 bytes each) the record would not leave its dead letters room
            // under the log's checkpoint limit.
            let long = (0..<200).map { "\"" + String(repeating: "\\\\", count: 125) + String(format: "%03d", $0) + "\"" }.joined(separator: ",")
            let large = try await post("{\(good),\"users\":[\(long)]}")
            #expect(large.status == .badRequest && large.json["field"] as? String == "users", "\(large.text)")
            let tooMany = (0..<201).map { "\"u\($0)\"" }.joined(separator: ",")
            #expect(try await post("{\(good),\"users\":[\(tooMany)]}").status == .badRequest)
            #expect(try await post("{\(good)}", as: "ana", admin: false).status == .forbidden)
            #expect(try await dispatcher.list().isEmpty, "nothing was made")
            let unknown = try await server.call(.get, "/admin/webhooks/wh-0000000000000000", as: "root", admin: true)
            #expect(unknown.status == .notFound)

            let made = try await post("{\(good),\"users\":[\"ana\"]}")
            #expect(made.status == .created)
            let id = try #require(made.json["id"] as? String)
            #expect(try await server.call(.get, "/admin/webhooks", as: "root", admin: true).array.count == 1)
            #expect(try await server.call(.delete, "/admin/webhooks/\(id)", as: "root", admin: true).status == .noContent)
            #expect(try await server.call(.get, "/admin/webhooks/\(id)", as: "root", admin: true).status == .notFound)
            #expect(try await server.call(.get, "/admin/webhooks", as: "root", admin: true).array.isEmpty)
        }
    }
}
