import EventLog
import Foundation
import Logbook
import LogbookOutbound
import LogbookTestSupport
import LogbookWebhooks
import Logging
import NIOSSL
import Synchronization
import Testing

/// Where webhooks go, end to end: the admin route refuses URLs naming this machine's or its
/// networks' addresses, a name resolving to loopback is refused when it is resolved, the
/// connection goes to the address that was checked (the HTTP client never resolves the name
/// itself) with TLS checked against the name, and operators see coarse categories only — never
/// which status, whether a port refused or stayed silent, or a URL's query.
@Suite("Webhook reach")
struct WebhookReachTests {
    /// No opt-in: public addresses only (the default).
    static func publicOnly(attempts: Int = 2) -> WebhookPolicy {
        var policy = WebhookTests.quick(attempts: attempts)
        policy.allowPrivateAddresses = false
        return policy
    }

    /// A dispatcher of a fresh store, resolving with `resolver` and verifying TLS with `tls`.
    static func withDispatcher(
        _ policy: WebhookPolicy, resolver: any HostResolving = SystemResolver(), tls: TLSConfiguration? = nil, logger: Logger? = nil,
        _ body: @escaping @Sendable (Logbook, WebhookDispatcher) async throws -> Void
    ) async throws {
        try await withLogbook { logbook, _ in
            var quiet = Logger(label: "test")
            quiet.logLevel = .critical
            let dispatcher = WebhookDispatcher(
                logbook: logbook, policy: policy, server: nil, logger: logger ?? quiet, resolver: resolver, tlsConfiguration: tls)
            try await dispatcher.start()
            do {
                try await body(logbook, dispatcher)
            } catch {
                await dispatcher.shutdown()
                throw error
            }
            await dispatcher.shutdown()
        }
    }

    /// Registers `count` users: an event each.
    static func registerUsers(_ logbook: Logbook, _ count: Int, from first: Int = 0) async throws {
        for index in first..<(first + count) {
            try await logbook.execute(.registerUser(user: "u-\(index)", UserRegistered(displayName: "U \(index)", timeZone: "UTC")))
        }
    }

    @Test("the route refuses every way of naming this machine or its networks, naming the URL, and makes nothing")
    func routeRefusesInternalAddresses() async throws {
        try await WebhookTests.withWebhookServer(Self.publicOnly()) { server, dispatcher in
            let urls = [
                "http://127.0.0.1/hook", "http://127.0.0.1:9/hook", "http://0.0.0.0/", "http://2130706433/", "http://0x7f.1/", "http://[::1]/",
                "http://169.254.169.254/latest/meta-data/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::ffff:a9fe:a9fe]/",
                "http://127.1/", "http://0177.0.0.1/", "http://017700000001/", "http://0x7f000001/", "http://10.0.0.1/", "http://192.168.1.1:8080/",
                "http://172.16.0.1/", "http://100.64.0.1/", "http://[fd00::1]/", "http://[fe80::1]/", "http://[::]/", "http://[64:ff9b::7f00:1]/",
                "http://[2002:7f00:1::1]/", "http://224.0.0.1/", "http://255.255.255.255/",
            ]
            for url in urls {
                let response = try await server.call(
                    .post, "/admin/webhooks", as: "root", admin: true, body: #"{"url":"\#(url)","secret":"\#(WebhookTests.secret)"}"#)
                #expect(response.status == .badRequest, "\(url): \(response.text)")
                #expect(response.json["field"] as? String == "url", "\(url): \(response.text)")
            }
            #expect(try await dispatcher.list().isEmpty, "nothing was made")
            // A public address and a name are taken (the name is checked when it is resolved).
            let made = try await server.call(
                .post, "/admin/webhooks", as: "root", admin: true, body: #"{"url":"https://93.184.216.34/hook","secret":"\#(WebhookTests.secret)"}"#)
            #expect(made.status == .created, "\(made.text)")
        }
    }

    @Test("a name that resolves to loopback is refused at each attempt: the receiver hears nothing, the operator reads 'not public'")
    func nameResolvingToLoopback() async throws {
        let receiver = WebhookReceiver(secret: WebhookTests.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await WebhookTests.withWebhookServer(Self.publicOnly()) { server, _ in
            try await register(server, "ana")
            let id = try await WebhookTests.create(server, receiver.url(host: "localhost"), after: 0)
            let head = try await server.head()
            try await eventually("everything dead-lettered") { try await WebhookTests.status(server, id)["deliveredThrough"] as? Int == Int(head) }
            let letters = try #require(try await WebhookTests.status(server, id)["deadLetters"] as? [[String: Any]])
            #expect(!letters.isEmpty)
            #expect(letters.allSatisfy { $0["error"] as? String == DeliveryFailure.addressRefused.description }, "\(letters)")
            #expect(receiver.deliveries.isEmpty && receiver.refused == 0, "no request reached the receiver")
        }
    }

    @Test("opted in, a name is resolved once and the client connects to the address checked: it never looks the name up itself")
    func connectsToTheCheckedAddress() async throws {
        let receiver = WebhookReceiver(secret: WebhookTests.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        // Only this resolver knows receiver.test: the system's does not, so a delivery proves the
        // client connected to the address given here.
        let resolver = WebhookAddressTests.TableResolver(table: ["receiver.test": ["127.0.0.1"], "inside.test": ["10.255.255.1", "127.0.0.1"]])
        try await Self.withDispatcher(WebhookTests.quick(), resolver: resolver) { logbook, dispatcher in
            let id = try await dispatcher.create(WebhookRequest(url: receiver.url(host: "receiver.test"), secret: WebhookTests.secret), after: 0).id
            try await Self.registerUsers(logbook, 5)
            try await eventually("five events") { receiver.positions.count >= 5 }
            #expect(receiver.deliveries.allSatisfy { $0.signed })
            #expect(try await dispatcher.status(id).failures == 0)
        }
        // Not opted in, the same name is refused before anything is sent.
        try await Self.withDispatcher(Self.publicOnly(), resolver: resolver) { logbook, dispatcher in
            let before = receiver.deliveries.count
            let id = try await dispatcher.create(WebhookRequest(url: receiver.url(host: "receiver.test"), secret: WebhookTests.secret), after: 0).id
            try await Self.registerUsers(logbook, 1)
            try await eventually("a refused attempt") { try await dispatcher.status(id).deadLetters.count == 1 }
            #expect(try await dispatcher.status(id).deadLetters.first?.error == DeliveryFailure.addressRefused.description)
            #expect(receiver.deliveries.count == before)
        }
    }

    @Test("over TLS the connection goes to the checked address while the certificate is checked against the URL's host name")
    func tlsNamesTheHost() async throws {
        let receiver = WebhookReceiver(secret: WebhookTests.secret, tls: try WebhookTLSFixtures.serverConfiguration())
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let resolver = WebhookAddressTests.TableResolver(table: ["receiver.test": ["127.0.0.1"], "other.test": ["127.0.0.1"]])
        var policy = WebhookTests.quick(attempts: 2)
        policy.requestTimeout = .seconds(30)
        try await Self.withDispatcher(policy, resolver: resolver, tls: try WebhookTLSFixtures.clientConfiguration()) { logbook, dispatcher in
            let named = try await dispatcher.create(WebhookRequest(url: receiver.url(host: "receiver.test"), secret: WebhookTests.secret), after: 0).id
            // The same receiver under a name its certificate does not hold, and under its address.
            let otherName = try await dispatcher.create(WebhookRequest(url: receiver.url(host: "other.test"), secret: WebhookTests.secret), after: 0).id
            let address = try await dispatcher.create(WebhookRequest(url: receiver.url, secret: WebhookTests.secret), after: 0).id
            try await Self.registerUsers(logbook, 3)
            try await eventually("three events over TLS") { receiver.positions.count >= 3 }
            #expect(receiver.deliveries.allSatisfy { $0.webhook == named && $0.signed })
            for id in [otherName, address] {
                try await eventually("\(id) dead-lettered") { try await dispatcher.status(id).deadLetters.count >= 1 }
                #expect(try await dispatcher.status(id).deadLetters.allSatisfy { $0.error.hasPrefix("no answer within") })
            }
            #expect(Set(receiver.deliveries.map(\.webhook)) == [named])
        }
    }

    @Test("operators see coarse categories: a closed port and a silent one read alike, a status by its class, a query never")
    func coarseErrors() async throws {
        let closed = WebhookReceiver(secret: WebhookTests.secret), silent = WebhookReceiver(secret: WebhookTests.secret)
        let teapot = WebhookReceiver(secret: WebhookTests.secret)
        for receiver in [closed, silent, teapot] { try await receiver.start() }
        defer { Task { await silent.stop(); await teapot.stop() } }
        await closed.stop()
        silent.set(.stall(.seconds(5)))
        teapot.set(.fail(418))
        let lines = LogLines()
        var logger = Logger(label: "webhooks") { _ in CollectingLogHandler(lines: lines) }
        logger.logLevel = .trace
        try await Self.withDispatcher(WebhookTests.quick(attempts: 1000, timeout: .seconds(1)), logger: logger) { logbook, dispatcher in
            let ids = try await [closed, silent, teapot].asyncMap { receiver in
                try await dispatcher.create(WebhookRequest(url: receiver.url + "?token=s3cr3t-in-query", secret: WebhookTests.secret), after: 0).id
            }
            try await Self.registerUsers(logbook, 1)
            var errors: [String] = []
            // On a loaded machine an attempt on the teapot may run out of time too; its status comes.
            try await eventually("each to fail, the teapot by its status") {
                errors = try await ids.asyncMap { try await dispatcher.status($0).lastError ?? "" }
                return errors.allSatisfy { !$0.isEmpty } && errors[2] == "the receiver answered 4xx"
            }
            #expect(errors[0] == errors[1], "a closed port reads as a silent one: \(errors)")
            #expect(errors[0] == DeliveryFailure.noAnswer(within: .seconds(1)).description)
            #expect(errors[2] == "the receiver answered 4xx")
            for status in try await dispatcher.list() {
                #expect(status.url.hasSuffix("/[redacted]") && !status.url.contains("hook"), "\(status.url)")
            }
        }
        let logged = lines.all
        #expect(logged.contains { $0.contains("webhook attempt failed") }, "the details go to the log at debug level")
        #expect(!logged.contains { $0.contains("s3cr3t-in-query") }, "no log line shows a URL's query")
    }
}

extension Array {
    /// The results of `transform` on each element, in order, one at a time.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
