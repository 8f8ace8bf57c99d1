import AsyncHTTPClient
import ChildProcesses
import EventLog
import EventLogPostgres
import Foundation
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import NIOHTTP1
import NIOCore
import Testing

/// Two real `logbook serve --postgres` processes on one PostgreSQL log: a write on one is read on
/// the other through `minPosition`; one killed with SIGKILL mid-appends loses nothing it
/// acknowledged, the other keeps serving, and the killed one catches up when it comes back.
@Suite("Servers sharing a PostgreSQL log", .serialized, .timeLimit(.minutes(10)))
struct PostgresServerTests {
    struct Server {
        let process: ChildProcess
        let base: String
    }

    /// Starts `logbook serve --postgres` and waits (on a thread of its own) for it to listen.
    static func serve(_ url: String, readModels: String) async throws -> Server {
        try await TestPostgres.offThePool { try startServe(url, readModels: readModels) }
    }

    static func startServe(_ url: String, readModels: String) throws -> Server {
        let (process, output) = try ServerProcessTests.start(
            ["serve", "--postgres", url, "--path", readModels, "--port", "0", "--log-level", "error"],
            until: #"http://127\.0\.0\.1:[0-9]+"#)
        return Server(process: process, base: String(output[output.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression)!]))
    }

    @Test("read-your-writes across servers, a server SIGKILLed mid-appends loses nothing acknowledged, and catches up on restart")
    func twoServers() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            var a = try await Self.serve(url, readModels: root + "/a")
            let b = try await Self.serve(url, readModels: root + "/b")
            defer { b.process.terminate(); a.process.terminate() }
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let token = try await TokenKeys(secret: testSecret).token(user: "ana")
            func call(
                _ server: Server, _ method: HTTPMethod, _ uri: String, _ body: String? = nil, headers: [String: String] = [:], as bearer: String? = nil
            ) async throws -> (status: UInt, text: String, position: String?) {
                var request = HTTPClientRequest(url: server.base + uri)
                request.method = method
                request.headers.add(name: "Authorization", value: "Bearer \(bearer ?? token)")
                request.headers.add(name: "Content-Type", value: "application/json")
                for (name, value) in headers { request.headers.add(name: name, value: value) }
                if let body { request.body = .bytes(ByteBuffer(string: body)) }
                let response = try await client.execute(request, timeout: .seconds(20))
                let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
                return (response.status.code, text, response.headers.first(name: "X-Logbook-Position"))
            }
            let registered = try await call(a, .POST, "/users/ana", #"{"displayName":"Ana","timeZone":"UTC","weekStart":"monday","units":"metric"}"#)
            #expect(registered.status == 201, "\(registered.text)")
            let position = try #require(registered.position)
            let profile = try await call(b, .GET, "/users/ana/profile?minPosition=\(position)")
            #expect(profile.status == 200, "\(profile.text)")
            #expect(profile.text.contains("Ana"))

            // Clients append steps through both servers; A is killed while they do.
            let counter = Counter()
            let acknowledged = try await withThrowingTaskGroup(of: [UInt64].self) { group in
                for clientIndex in 0..<6 {
                    let server = clientIndex % 2 == 0 ? a : b
                    group.addTask {
                        var mine: [UInt64] = []
                        for index in 0..<3_000 {
                            let second = String(format: "%02d", index % 60), minute = String(format: "%02d", (index / 60) % 60)
                            let body = """
                                {"samples":[{"start":"2026-11-17T0\(clientIndex):\(minute):\(second)Z","end":"2026-11-17T0\(clientIndex):\(minute):\(second).5Z","count":1,"source":"c\(clientIndex)"}]}
                                """
                            guard let answer = try? await call(server, .POST, "/users/ana/steps", body) else {
                                if server.base == b.base { Issue.record("server B failed a request") }
                                break
                            }
                            if answer.status == 201, let position = answer.position.flatMap(UInt64.init) {
                                mine.append(position)
                                counter.add()
                            } else if server.base == b.base, answer.status != 201 {
                                Issue.record("server B answered \(answer.status): \(answer.text)")
                                break
                            }
                            if server.base == b.base, index >= 150 { break }
                        }
                        return mine
                    }
                }
                let deadline = ContinuousClock.now + .seconds(120)
                while counter.value < 60, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                a.process.send(SIGKILL)
                var all: [UInt64] = []
                for try await mine in group { all += mine }
                return all
            }
            a.process.wait()
            #expect(acknowledged.count >= 60, "too few appends to test anything")
            let store = try await PostgresEventStore.connect(try PostgresURL(url))
            for position in acknowledged {
                let event = try await store.event(at: Position(position))
                #expect(event?.type == "steps.recorded", "acknowledged append at \(position) is missing")
            }
            let head = try await store.headPosition()
            await store.close()

            // A comes back on its own read models and catches up; both answer the same week.
            a = try await Self.serve(url, readModels: root + "/a")
            let weekA = try await call(a, .GET, "/users/ana/stats/weekly?date=2026-11-17&minPosition=\(head)")
            let weekB = try await call(b, .GET, "/users/ana/stats/weekly?date=2026-11-17&minPosition=\(head)")
            #expect(weekA.status == 200 && weekB.status == 200, "\(weekA.text) \(weekB.text)")
            #expect(weekA.text == weekB.text)

            // The overview lists the running servers; once the killed one's lease ran out, a
            // running one delivers the webhooks (the killed one stays listed, silent, for 30 s).
            let admin = try await TokenKeys(secret: testSecret).token(user: "op", admin: true)
            try await eventually("a running server to hold the webhooks' lease", timeout: .seconds(90)) {
                let answer = try await call(b, .GET, "/admin/overview", as: admin)
                guard answer.status == 200 else { return false }
                let servers = try JSONDecoder().decode(ConsoleOverview.self, from: Data(answer.text.utf8)).servers
                let heard = servers.filter { $0.silentSeconds < 3 }
                return heard.count == 2 && heard.filter(\.thisServer).count == 1 && servers.filter(\.deliversWebhooks).count == 1
                    && heard.contains(where: \.deliversWebhooks)
            }
            try await client.shutdown()
        }
    }

    @Test("an Idempotency-Key request answered by A, A SIGKILLed, the retry to B: the original answer byte for byte, nothing written")
    func idempotencyAcrossServers() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let a = try await Self.serve(url, readModels: root + "/a")
            let b = try await Self.serve(url, readModels: root + "/b")
            defer { b.process.terminate(); if a.process.isRunning { a.process.send(SIGKILL) } }
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let token = try await TokenKeys(secret: testSecret).token(user: "ana")
            func call(_ server: Server, _ method: HTTPMethod, _ uri: String, _ body: String, key: String) async throws
                -> (status: UInt, body: [UInt8], replayed: String?)
            {
                var request = HTTPClientRequest(url: server.base + uri)
                request.method = method
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "Idempotency-Key", value: key)
                request.body = .bytes(ByteBuffer(string: body))
                let response = try await client.execute(request, timeout: .seconds(20))
                let bytes = Array(try await response.body.collect(upTo: 1 << 20).readableBytesView)
                return (response.status.code, bytes, response.headers.first(name: "Idempotent-Replayed"))
            }
            do {
                let registered = try await call(a, .POST, "/users/ana", #"{"displayName":"Ana","timeZone":"UTC","weekStart":"monday","units":"metric"}"#, key: "register-1")
                #expect(registered.status == 201)
                let steps = #"{"samples":[{"start":"2026-11-17T08:00:00Z","end":"2026-11-17T08:01:00Z","count":90,"source":"phone"}]}"#
                let first = try await call(a, .POST, "/users/ana/steps", steps, key: "steps-1")
                #expect(first.status == 201 && first.replayed == nil)
                a.process.send(SIGKILL)
                _ = try await ServerProcessTests.exited(a.process)
                let store = try await PostgresEventStore.connect(try PostgresURL(url))
                let head = try await store.headPosition()

                // B never saw the request: it answers the original from the log's kept answers.
                let retry = try await call(b, .POST, "/users/ana/steps", steps, key: "steps-1")
                #expect(retry.status == 201, "\(String(decoding: retry.body, as: UTF8.self))")
                #expect(retry.body == first.body, "the original answer, byte for byte")
                #expect(retry.replayed == "true")
                let again = try await call(b, .POST, "/users/ana", #"{"displayName":"Ana","timeZone":"UTC","weekStart":"monday","units":"metric"}"#, key: "register-1")
                #expect(again.status == 201 && again.body == registered.body && again.replayed == "true")
                // The same key for another request is refused there too; nothing was written.
                let reused = try await call(b, .POST, "/users/ana/steps", steps.replacingOccurrences(of: "90", with: "91"), key: "steps-1")
                #expect(reused.status == 422, "\(String(decoding: reused.body, as: UTF8.self))")
                #expect(try await store.headPosition() == head)
                #expect(try await TestPostgres.psql(url, "SELECT count(*) FROM logbook.request_keys").trimmingCharacters(in: .whitespacesAndNewlines) == "2")
                await store.close()
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }
}
