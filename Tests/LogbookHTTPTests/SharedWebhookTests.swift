import EventLog
import EventLogPostgres
import Foundation
import Hummingbird
import HummingbirdTesting
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import LogbookWebhooks
import Logging
import Synchronization
import Testing

/// Two servers on one PostgreSQL log, in this process, each with its own read models: one
/// delivers the webhooks (it holds the lease), the other stands by — it lists them and refuses
/// changes naming the holder — and takes over from the checkpoint when the holder stops or goes
/// silent. The console's overview lists both with their positions.
@Suite("Webhooks and servers on a shared PostgreSQL log", .serialized, .timeLimit(.minutes(10)))
struct SharedWebhookTests {
    /// A server following the shared log: its Logbook, routes and in-process client.
    struct Member: Sendable {
        let logbook: Logbook
        let routes: LogbookRoutes<LogbookRequestContext>
        let server: ServerIdentity
    }

    static func member(_ url: String, _ directory: String, name: String, policy: WebhookPolicy) async throws -> (Member, Router<LogbookRequestContext>) {
        var configuration = PostgresLogConfiguration()
        configuration.operationTimeout = .seconds(60)
        let log = try await PostgresEventStore.connect(try PostgresURL(url), configuration: configuration)
        let logbook = try await Logbook.open(following: log, readModelsAt: directory)
        var http = HTTPConfiguration(jwtSecret: testSecret)
        http.webhooks = policy
        let server = ServerIdentity(name: name, url: "http://\(name).example:8080", startedAt: logbook.configuration.clock.now().instant)
        http.server = server
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let (router, routes) = try await LogbookServer.routerAndRoutes(logbook: logbook, configuration: http, metrics: LogbookMetrics(), logger: logger)
        return (Member(logbook: logbook, routes: routes, server: server), router)
    }

    /// Quick turns, long leases: a server that stops (and gives the lease up) is replaced within
    /// a quarter of a second, while a holder steps down on its own only after a minute without
    /// a renewal — on this project's loaded 2-core machines a whole test suite can hold a claim
    /// for seconds, and a step-down sends a batch again, which these tests would count.
    static var policy: WebhookPolicy {
        var policy = WebhookTests.quick()
        policy.leaseDuration = .seconds(60)
        policy.leaseRenewInterval = .milliseconds(250)
        return policy
    }

    /// A holder that never renews within a test: only a refused write makes it step down.
    static var neverRenewing: WebhookPolicy {
        var policy = WebhookTests.quick()
        policy.leaseDuration = .seconds(600)
        policy.leaseRenewInterval = .seconds(300)
        // Every delivered batch's checkpoint is stored, so the store of the first batch after the
        // lease is lost is refused, while the next batch goes out (with the default, a few
        // batches or a second would go out first).
        policy.checkpointEveryBatches = 1
        return policy
    }

    /// Runs `body` with two members on a fresh shared log, serving through the test client.
    static func withTwoServers(
        alpha: WebhookPolicy = policy, _ body: @escaping @Sendable (Member, TestServer, Member, TestServer, String) async throws -> Void
    ) async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let (a, routerA) = try await member(url, root + "/a", name: "alpha", policy: alpha)
            let second = Mutex<Member?>(nil)
            let keys = await TokenKeys(secret: testSecret)
            func close() async {
                for member in [a] + [second.withLock { $0 }].compactMap({ $0 }) {
                    await member.routes.webhooks.shutdown()
                    await member.logbook.close()
                }
            }
            do {
                try await Application(router: routerA).test(.router) { clientA in
                    let (b, routerB) = try await member(url, root + "/b", name: "beta", policy: policy)
                    second.withLock { $0 = b }
                    try await Application(router: routerB).test(.router) { clientB in
                        try await body(a, TestServer(logbook: a.logbook, client: clientA, keys: keys), b, TestServer(logbook: b.logbook, client: clientB, keys: keys), url)
                    }
                }
            } catch {
                await close()
                throw error
            }
            await close()
        }
    }

    @Test("one server delivers, the other stands by and refuses changes naming it, then takes over from the checkpoint: every event once, in order")
    func oneDelivers() async throws {
        let receiver = WebhookReceiver(secret: WebhookTests.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await Self.withTwoServers { a, serverA, b, serverB, _ in
            try await a.routes.webhooks.start()
            try await b.routes.webhooks.start()
            try await register(serverA, "ana")
            try await register(serverB, "ben")
            let start = try await serverA.head()
            let id = try await WebhookTests.create(serverA, receiver.url)

            // The standby lists the same webhook, names who delivers, and refuses to change it.
            let listed = try await serverB.call(.get, "/admin/webhooks", as: "root", admin: true)
            #expect(listed.status == .ok && listed.array.map { $0["id"] as? String } == [id], "\(listed.text)")
            #expect(listed.array.first?["deliveredBy"] as? String == a.server.id)
            let refused = try await serverB.call(.post, "/admin/webhooks/\(id)/pause", as: "root", admin: true)
            #expect(refused.status == .conflict && refused.text.contains(a.server.id), "\(refused.text)")
            let made = try await serverB.call(.post, "/admin/webhooks", as: "root", admin: true, body: #"{"url":"\#(receiver.url)","secret":"\#(WebhookTests.secret)"}"#)
            #expect(made.status == .conflict, "\(made.text)")

            // Both servers write; the holder delivers all of it.
            for index in 0..<20 { try await WebhookTests.step(index % 2 == 0 ? serverA : serverB, index % 2 == 0 ? "ana" : "ben", index) }
            var wanted = try await WebhookTests.wanted(a.logbook, after: start)
            try await eventually("the holder to deliver everything") { receiver.positions.count >= wanted.count }
            #expect(receiver.positions == wanted)

            // The holder stops (giving the lease up); the standby takes over and goes on from the checkpoint.
            await a.routes.webhooks.shutdown()
            for index in 20..<40 { try await WebhookTests.step(serverB, "ben", index) }
            wanted = try await WebhookTests.wanted(b.logbook, after: start)
            try await eventually("the new holder to deliver the rest") { receiver.positions.count >= wanted.count }
            #expect(receiver.positions == wanted, "every event once, in order")
            let status = try await WebhookTests.status(serverB, id)
            #expect(status["deliveredBy"] as? String == b.server.id)
            // The stopped server refuses changes; the new holder makes them.
            let late = try await serverA.call(.post, "/admin/webhooks/\(id)/pause", as: "root", admin: true)
            #expect(late.status == .conflict, "\(late.text)")
            #expect(try await serverB.call(.post, "/admin/webhooks/\(id)/pause", as: "root", admin: true).status == .ok)
        }
    }

    @Test("a secret one server sealed opens on the other: the log holds it sealed, the server taking over signs with it and rotates it")
    func sealedSecretsShared() async throws {
        let secret = WebhookSecretTests.uniqueSecret(), next = WebhookSecretTests.uniqueSecret()
        let receiver = WebhookReceiver(secret: secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await Self.withTwoServers { a, serverA, b, serverB, _ in
            try await a.routes.webhooks.start()
            try await b.routes.webhooks.start()
            try await register(serverA, "ana")
            let made = try await serverA.call(
                .post, "/admin/webhooks", as: "root", admin: true, body: #"{"url":"\#(receiver.url)?token=abc","secret":"\#(secret)"}"#)
            #expect(made.status == .created, "\(made.text)")
            let id = try #require(made.json["id"] as? String)
            try await WebhookTests.step(serverA, "ana", 0)
            try await eventually("alpha's delivery") { receiver.deliveries.count >= 1 }
            let stored = String(decoding: try #require(try await b.logbook.log.checkpoint(named: "webhook/\(id)")).data, as: UTF8.self)
            #expect(!stored.contains(secret) && stored.contains(#""current":"xc1:"#), "\(stored)")
            // The standby lists it with the path and query redacted, as the holder does.
            let listed = try await serverB.call(.get, "/admin/webhooks", as: "root", admin: true).array.first?["url"] as? String
            let host = try #require(receiver.url.range(of: "://").flatMap { scheme in receiver.url[scheme.upperBound...].firstIndex(of: "/") })
            #expect(listed == receiver.url[..<host] + "/[redacted]", "\(listed ?? "")")

            await a.routes.webhooks.shutdown()
            try await WebhookTests.step(serverB, "ana", 1)
            try await eventually("beta's delivery") { receiver.deliveries.count >= 2 }
            #expect(receiver.deliveries.allSatisfy { $0.signed }, "beta signs with the secret alpha sealed")
            let rotated = try await serverB.call(.post, "/admin/webhooks/\(id)/secret", as: "root", admin: true, body: #"{"secret":"\#(next)"}"#)
            #expect(rotated.status == .ok, "\(rotated.text)")
            try await WebhookTests.step(serverB, "ana", 2)
            try await eventually("the delivery after the rotation") { receiver.deliveries.count >= 3 }
            let last = try #require(receiver.deliveries.last)
            let seconds = Int64(last.signature.split(separator: ",")[0].dropFirst(2)) ?? 0
            #expect(last.signed && WebhookSignature.verify(header: last.signature, secret: next, body: last.body, now: seconds))
        }
    }

    @Test("a holder gone silent is replaced once its lease runs out; what it then tries to store is refused, and it stands by")
    func silentHolderReplaced() async throws {
        let receiver = WebhookReceiver(secret: WebhookTests.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await Self.withTwoServers(alpha: Self.neverRenewing) { a, serverA, b, _, url in
            try await a.routes.webhooks.start()
            try await register(serverA, "ana")
            let start = try await serverA.head()
            let id = try await WebhookTests.create(serverA, receiver.url)
            for index in 0..<5 { try await WebhookTests.step(serverA, "ana", index) }
            try await eventually("the first deliveries") { receiver.positions.count >= 5 }

            // Another server takes the lease behind alpha's back (as if alpha had been silent
            // past its lease). Alpha renews only every 5 minutes, so what makes it stand by is
            // its next checkpoint, refused under the lease.
            let shared = try #require(b.logbook.log as? any SharedLog)
            try await TestPostgres.psql(url, "UPDATE logbook.leases SET holder = 'intruder', expires_at = now() + interval '15 seconds'")
            #expect(try await shared.leaseHolder(WebhookDispatcher.leaseName)?.holder == "intruder")
            for index in 5..<8 { try await WebhookTests.step(serverA, "ana", index) }
            try await eventually("alpha to stand by") {
                (try await serverA.call(.post, "/admin/webhooks/\(id)/pause", as: "root", admin: true)).status == .conflict
            }
            // The intruder never renews: beta, started now, takes over when the lease runs out
            // and delivers from the stored checkpoint — at worst a batch again, nothing lost.
            try await b.routes.webhooks.start()
            let wanted = try await WebhookTests.wanted(b.logbook, after: start)
            try await eventually("beta or alpha to deliver the rest") { Set(receiver.positions).isSuperset(of: wanted) }
            #expect(receiver.firstArrivals == wanted, "in order, nothing lost")
            let holder = try await shared.leaseHolder(WebhookDispatcher.leaseName)?.holder
            #expect(holder == a.server.id || holder == b.server.id)
        }
    }

    @Test("the overview lists both servers with the head each saw, how far its read models follow, and which delivers webhooks")
    func overviewListsServers() async throws {
        try await Self.withTwoServers { a, serverA, b, serverB, _ in
            try await a.routes.webhooks.start()
            try await b.routes.webhooks.start()
            try await register(serverA, "ana")
            for index in 0..<10 { try await WebhookTests.step(serverB, "ana", index) }
            let presences = [a, b].map { member in
                Task { try await ServerPresence(logbook: member.logbook, server: member.server, interval: .milliseconds(100)).run() }
            }
            defer { for presence in presences { presence.cancel() } }
            let head = try await serverB.head()
            try await eventually("both servers announced at the head") {
                let overview = try JSONDecoder().decode(ConsoleOverview.self, from: Data(try await serverA.call(.get, "/admin/overview", as: "op", admin: true).text.utf8))
                return overview.servers.count == 2 && overview.servers.allSatisfy { $0.readThrough == head && $0.head == head }
            }
            let overview = try JSONDecoder().decode(ConsoleOverview.self, from: Data(try await serverA.call(.get, "/admin/overview", as: "op", admin: true).text.utf8))
            #expect(overview.backend == "postgres")
            #expect(overview.servers.map(\.id) == [a.server.id, b.server.id], "in the order they started")
            #expect(overview.servers.map(\.thisServer) == [true, false])
            #expect(overview.servers.map(\.url) == ["http://alpha.example:8080", "http://beta.example:8080"])
            #expect(overview.servers.filter(\.deliversWebhooks).map(\.id) == [a.server.id], "alpha holds the webhooks' lease")
            #expect(overview.servers.allSatisfy { $0.lag == 0 && $0.silentSeconds < 30 })
        }
    }
}
