import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Logging
import Testing

/// `Idempotency-Key` on the write routes: a retry answers the original and writes nothing,
/// however much was written since, across restarts and races; a key re-used for another
/// request is refused. Each test runs on the embedded store and on PostgreSQL, where the answers
/// are kept in the log (`logbook.request_keys`) and a restart is another server.
@Suite("HTTP idempotency keys")
struct IdempotencyKeyTests {
    /// A goal request for day `index` of the next ten weeks (2026-11-18 is the test server's today).
    private static func goal(_ index: Int) -> (path: String, body: String) {
        let day = 18 + index % 60
        let date = day <= 30 ? "2026-11-\(String(format: "%02d", day))"
            : day <= 61 ? "2026-12-\(String(format: "%02d", day - 30))" : "2027-01-\(String(format: "%02d", day - 61))"
        return ("/users/ana/goals/\(date)", #"{"steps":\#(5_000 + index)}"#)
    }

    @Test("re-sending 300 acknowledged requests after all of them answers each original and writes nothing", arguments: Backend.allCases)
    func resendAfterManyWrites(_ backend: Backend) async throws {
        try await withServer(on: backend) { server in
            try await register(server, "ana")
            var originals: [(key: String, path: String, body: String, status: HTTPResponse.Status, text: String)] = []
            for index in 0..<300 {
                let key = "phone-\(index)"
                let request = index % 3 == 0
                    ? ("/users/ana/steps", #"{"samples":[{"start":"2026-11-17T08:\#(String(format: "%02d", index % 60)):00Z","end":"2026-11-17T08:\#(String(format: "%02d", index % 60)):30Z","count":\#(index + 1),"source":"phone-\#(index)"}]}"#)
                    : Self.goal(index)
                let response = try await server.call(request.0.contains("goals") ? .put : .post, request.0, as: "ana", body: request.1, headers: ["Idempotency-Key": key])
                #expect(response.status == .created, "\(response.text)")
                originals.append((key, request.0, request.1, response.status, response.text))
            }
            let head = try await server.head()
            for original in originals {
                let method: HTTPRequest.Method = original.path.contains("goals") ? .put : .post
                let retry = try await server.call(method, original.path, as: "ana", body: original.body, headers: ["Idempotency-Key": original.key])
                #expect(retry.status == original.status)
                #expect(retry.text == original.text)
                #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            }
            #expect(try await server.head() == head)
            let ids = try await server.logbook.log.readAll(from: .start, direction: .forward, limit: 10_000, filter: .all).events.map(\.eventId)
            #expect(Set(ids).count == ids.count)
        }
    }

    @Test("the same key with another body, path or method is 422 naming the key; another caller's key is its own", arguments: Backend.allCases)
    func reuseIsRefused(_ backend: Backend) async throws {
        try await withServer(on: backend) { server in
            try await register(server, "ana")
            try await register(server, "bob")
            let key = ["Idempotency-Key": "K-1"]
            let first = try await server.call(.put, "/users/ana/goals/2026-12-01", as: "ana", body: #"{"steps":5000}"#, headers: key)
            #expect(first.status == .created)
            let head = try await server.head()
            for (method, path, body) in [
                (HTTPRequest.Method.put, "/users/ana/goals/2026-12-01", #"{"steps":7777}"#),
                (.put, "/users/ana/goals/2026-12-02", #"{"steps":5000}"#),
                (.put, "/users/ana/goals/2026-12-01", #"{"steps": 5000}"#),
                (.delete, "/users/ana/goals/2026-12-01", ""),
            ] {
                let reused = try await server.call(method, path, as: "ana", body: body.isEmpty ? nil : body, headers: key)
                #expect(reused.status == .unprocessableContent, "\(method) \(path) \(body): \(reused.text)")
                #expect(reused.json["type"] as? String == "/problems/idempotency-conflict")
                #expect(reused.json["field"] as? String == "Idempotency-Key")
                #expect((reused.json["detail"] as? String)?.contains("K-1") == true)
            }
            #expect(try await server.head() == head)
            let bob = try await server.call(.put, "/users/bob/goals/2026-12-01", as: "bob", body: #"{"steps":5000}"#, headers: key)
            #expect(bob.status == .created)
            #expect(try await server.call(.put, "/users/bob/goals/2026-12-01", as: "bob", body: #"{"steps":5000}"#, headers: ["Idempotency-Key": "bad key"]).status == .badRequest)
        }
    }

    @Test("eight identical requests racing under one key write one event and all answer it", arguments: Backend.allCases)
    func racingRequests(_ backend: Backend) async throws {
        try await withServer(on: backend) { server in
            try await register(server, "ana")
            let head = try await server.head()
            let body = #"{"samples":[{"start":"2026-11-17T08:00:00Z","end":"2026-11-17T08:01:00Z","count":90,"source":"phone"}]}"#
            let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await server.call(.post, "/users/ana/steps", as: "ana", body: body, headers: ["Idempotency-Key": "race"])
                        return (Int(response.status.code), response.text)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(try await server.head() == head + 1)
            #expect(Set(answers.map(\.1)).count == 1)
            #expect(answers.allSatisfy { $0.0 == 201 })
        }
    }

    @Test("a restarted server (on PostgreSQL: another server) still answers a key's retries and refuses its reuse", arguments: Backend.allCases)
    func survivesRestart(_ backend: Backend) async throws {
        let url = backend == .postgres ? try await TestPostgres.freshDatabase() : ""
        try await withTemporaryDirectory { directory in
            let body = #"{"steps":5000}"#
            @Sendable func serving<R: Sendable>(_ name: String, _ work: @escaping @Sendable (TestServer) async throws -> R) async throws -> R {
                backend == .postgres
                    ? try await serveFollowing(url, readModels: directory + "/" + name, work)
                    : try await Self.serving(directory + "/logbook", work)
            }
            let first = try await serving("a") { server in
                try await register(server, "ana")
                return try await server.call(.put, "/users/ana/goals/2026-12-01", as: "ana", body: body, headers: ["Idempotency-Key": "K"])
            }
            #expect(first.status == .created)
            try await serving("b") { server in
                let head = try await server.head()
                let retry = try await server.call(.put, "/users/ana/goals/2026-12-01", as: "ana", body: body, headers: ["Idempotency-Key": "K"])
                #expect(retry.status == .created)
                #expect(retry.text == first.text)
                let reused = try await server.call(.put, "/users/ana/goals/2026-12-01", as: "ana", body: #"{"steps":7777}"#, headers: ["Idempotency-Key": "K"])
                #expect(reused.status == .unprocessableContent)
                #expect(try await server.head() == head)
            }
        }
    }

    @Test("a key older than the retention is forgotten: its retry still writes nothing, another request under it is new", arguments: Backend.allCases)
    func retention(_ backend: Backend) async throws {
        try await withServer(on: backend, logbook: { $0.idempotencyKeyRetention = .milliseconds(20) }) { server in
            try await register(server, "ana")
            let first = try await server.call(.put, "/users/ana/goals/2026-12-01", as: "ana", body: #"{"steps":5000}"#, headers: ["Idempotency-Key": "old"])
            #expect(first.status == .created)
            // The test clock steps a millisecond per reading: these writes age the key past 20 ms.
            for index in 1...30 { try await server.call(.put, Self.goal(index).path, as: "ana", body: Self.goal(index).body) }
            let head = try await server.head()
            let retry = try await server.call(.put, "/users/ana/goals/2026-12-01", as: "ana", body: #"{"steps":5000}"#, headers: ["Idempotency-Key": "old"])
            #expect(retry.status == .ok, "\(retry.text)")
            #expect(retry.json["alreadyApplied"] as? Bool == true)
            #expect(retry.json["firstPosition"] as? Int == first.json["firstPosition"] as? Int)
            #expect(try await server.head() == head)
            // The retry's answer is kept afresh; let it age too.
            for index in 31...60 { try await server.call(.put, Self.goal(index).path, as: "ana", body: Self.goal(index).body) }
            let later = try await server.head()
            let other = try await server.call(.put, "/users/ana/goals/2026-12-01", as: "ana", body: #"{"steps":7777}"#, headers: ["Idempotency-Key": "old"])
            #expect(other.status == .created, "\(other.text)")
            #expect(try await server.head() == later + 1)
        }
    }

    /// Serves the Logbook at `path` (opened for the call, closed after it).
    private static func serving<R: Sendable>(_ path: String, _ body: @escaping @Sendable (TestServer) async throws -> R) async throws -> R {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .relaxed
        configuration.clock = SteppingClock()
        let logbook = try await Logbook.open(path: path, configuration: configuration)
        do {
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let router = try await LogbookServer.router(
                logbook: logbook, configuration: HTTPConfiguration(jwtSecret: testSecret), metrics: nil, logger: logger)
            let keys = await TokenKeys(secret: testSecret)
            let result = try await Application(router: router, logger: logger).test(.router) { client in
                try await body(TestServer(logbook: logbook, client: client, keys: keys))
            }
            await logbook.close()
            return result
        } catch {
            await logbook.close()
            throw error
        }
    }
}
