import AsyncHTTPClient
import ChildProcesses
import EventLog
import Foundation
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import NIOCore
import Synchronization
import Testing

/// Real `logbook serve` and `logbook demo` processes: stopped with SIGTERM while clients append,
/// a server drains, closes the log, exits 0, and every append it acknowledged is in the log.
@Suite("Server processes")
struct ServerProcessTests {
    /// Starts `logbook serve` on a free port and returns the process and its base URL.
    static func startServer(path: String, _ extra: [String] = []) async throws -> (ChildProcess, String) {
        let (process, output) = try await startOffThePool(["serve", "--path", path, "--port", "0", "--durability", "durable", "--log-level", "warning"] + extra,
                                          until: #"http://127\.0\.0\.1:[0-9]+"#)
        return (process, String(output[output.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression)!]))
    }

    /// Runs `logbook arguments` and reads its standard output until `pattern` appears.
    /// Runs `body` against a real `logbook serve` over the demo data set of `users` users, made in
    /// `directory`; hands it the server's base URL. The server is stopped after.
    static func withDemoServer(users: Int, in directory: String, _ body: (String) async throws -> Void) async throws {
        let (demo, output) = try await runLogbook(["demo", "--path", directory + "/data", "--users", "\(users)", "--no-serve"], includeErrors: true)
        try #require(demo == 0, "\(output)")
        let (server, started) = try await startOffThePool(["serve", "--path", directory + "/data", "--port", "0", "--log-level", "error"],
                                          until: #"http://127\.0\.0\.1:[0-9]+"#)
        defer { server.terminate() }
        try await body(String(started[started.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression)!]))
    }

    /// ``start(_:until:)`` on a thread of its own: reading the child's output blocks, and a
    /// blocked thread of the cooperative pool (one per core) starves every other test.
    static func startOffThePool(_ arguments: [String], until pattern: String) async throws -> (ChildProcess, String) {
        let started = try await TestPostgres.offThePool { () throws -> Started in
            let (process, output) = try start(arguments, until: pattern)
            return Started(process: process, output: output)
        }
        return (started.process, started.output)
    }

    /// Waits for `process` to end on a thread of its own (a draining server takes a while).
    static func exited(_ process: ChildProcess) async throws -> ChildProcess.Termination {
        try await TestPostgres.offThePool { process.wait() }
    }

    private struct Started: Sendable {
        let process: ChildProcess
        let output: String
    }

    static func start(_ arguments: [String], until pattern: String) throws -> (ChildProcess, String) {
        let process = try ChildProcess(
            logbookExecutable.path, arguments, environment: ChildProcess.currentEnvironment().merging(["LOGBOOK_JWT_SECRET": testSecret]) { $1 })
        var output = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            guard let data = process.read() else { break }
            output += String(decoding: data, as: UTF8.self)
            if output.range(of: pattern, options: .regularExpression) != nil { return (process, output) }
        }
        process.terminate()
        throw CancellationError()
    }

    @Test("SIGTERM with appends in flight: exit 0, and nothing acknowledged is lost")
    func drainOnSigterm() async throws {
        try await withTemporaryDirectory { path in
            let (process, base) = try await Self.startServer(path: path + "/data")
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let token = try await TokenKeys(secret: testSecret).token(user: "ana")
            func post(_ uri: String, _ body: String, key: UUID? = nil) async throws -> (UInt, String) {
                var request = HTTPClientRequest(url: base + uri)
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                request.headers.add(name: "Content-Type", value: "application/json")
                if let key { request.headers.add(name: "Idempotency-Key", value: key.uuidString) }
                request.body = .bytes(ByteBuffer(string: body))
                let response = try await client.execute(request, timeout: .seconds(10))
                let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
                return (response.status.code, text)
            }
            let registered = try await post("/users/ana", #"{"displayName":"Ana","timeZone":"UTC","weekStart":"monday","units":"metric"}"#)
            #expect(registered.0 == 201)
            // 8 clients append steps until the server stops answering; each remembers what was acknowledged.
            let acknowledgedSoFar = Counter()
            let acknowledged = try await withThrowingTaskGroup(of: [(UUID, UInt64, String)].self) { group in
                for clientIndex in 0..<8 {
                    group.addTask {
                        var mine: [(UUID, UInt64, String)] = []
                        for index in 0..<100_000 {
                            let key = UUID()
                            let second = String(format: "%02d", index % 60), minute = String(format: "%02d", (index / 60) % 60)
                            let hour = String(format: "%02d", clientIndex * 3 + index / 3600)
                            let body = """
                                {"samples":[{"start":"2026-11-17T\(hour):\(minute):\(second)Z","end":"2026-11-17T\(hour):\(minute):\(second).5Z","count":1,"source":"c\(clientIndex)"}]}
                                """
                            guard let (status, text) = try? await post("/users/ana/steps", body, key: key) else { break }
                            if status == 201, let data = text.data(using: .utf8),
                               let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                               let position = object["firstPosition"] as? Int {
                                mine.append((key, UInt64(position), body))
                                acknowledgedSoFar.add()
                            } else if status != 201 {
                                break
                            }
                        }
                        return mine
                    }
                }
                // SIGTERM once appends are flowing (however slow the machine), while they still are.
                // (A debug server fsyncing beside the rest of the suite can be slow: wait generously.)
                let deadline = ContinuousClock.now + .seconds(300)
                while acknowledgedSoFar.value < 50, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                process.terminate()
                var all: [(UUID, UInt64, String)] = []
                for try await mine in group { all += mine }
                return all
            }
            try await client.shutdown()
            #expect(try await Self.exited(process) == .exit(0))
            #expect(acknowledged.count >= 50, "too few appends were in flight to test anything")
            let logbook = try await Logbook.open(path: path + "/data")
            for (key, position, body) in acknowledged {
                // The first event's id is the one the key derives for this caller and request.
                let request = try IdempotentRequest(
                    key: key.uuidString, scope: Identity(user: "ana", isAdmin: false).idempotencyScope,
                    fingerprint: IdempotentRequest.fingerprint([Array("POST".utf8), Array("/users/ana/steps".utf8), [], Array(body.utf8)]))
                let event = try await logbook.log.event(at: Position(position))
                #expect(event?.eventId == request.eventId, "acknowledged append at \(position) lost")
            }
            await logbook.close()
        }
    }

    @Test("the README's main job: `logbook demo` generates, serves, and the printed token and request work")
    func demoServes() async throws {
        try await withTemporaryDirectory { path in
            let (process, output) = try await Self.startOffThePool(["demo", "--path", path + "/data", "--users", "2", "--port", "0"], until: "API: Schemas/openapi.json")
            defer { if process.isRunning { process.terminate() } }
            let token = try #require(output.firstMatch(of: /export TOKEN=(\S+)/)?.1)
            let request = try #require(output.firstMatch(of: /curl -s -H "Authorization: Bearer \$TOKEN" '([^']+weekly\?date=[0-9-]+)'/)?.1)
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            var get = HTTPClientRequest(url: String(request))
            get.headers.add(name: "Authorization", value: "Bearer \(token)")
            let response = try await client.execute(get, timeout: .seconds(10))
            let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
            try await client.shutdown()
            #expect(response.status.code == 200, "\(body)")
            #expect(body.contains("\"totals\""))
            process.terminate()
            #expect(try await Self.exited(process) == .exit(0))
        }
    }
}

extension ServerProcessTests {
    @Test("logbook serve samples the overview in the background: the console's charts have the minutes before it opened")
    func overviewSampledInTheBackground() async throws {
        try await withTemporaryDirectory { path in
            let (process, base) = try await Self.startServer(path: path + "/data")
            defer { if process.isRunning { process.terminate() } }
            // Nobody asks for 4 seconds; then one request (which takes at most one sample itself).
            try await Task.sleep(for: .seconds(4))
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            var get = HTTPClientRequest(url: base + "/admin/overview")
            get.headers.add(name: "Authorization", value: "Bearer \(try await TokenKeys(secret: testSecret).token(user: "op", admin: true))")
            let response = try await client.execute(get, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            #expect(response.status.code == 200)
            let overview = try JSONDecoder().decode(ConsoleOverview.self, from: Data(buffer: body))
            #expect(overview.samples.count >= 3, "\(overview.samples.count) samples after 4 s")
            process.terminate()
            #expect(try await Self.exited(process) == .exit(0))
        }
    }
}

/// A count shared by concurrent tasks.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}
