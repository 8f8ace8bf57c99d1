import AsyncHTTPClient
import ChildProcesses
import Foundation
import Logbook
import LogbookTestSupport
import NIOCore
import NIOHTTP1
import Synchronization

/// The pieces of ``PostgresKillTests``: two `logbook serve --postgres` processes that can be
/// killed and started again on the same read models, and what each keyed request was answered.
enum KillCampaign {
    /// A server of the shared log, started again after every kill (on another port).
    final class Server: Sendable {
        let name: String
        private let url: String
        private let readModels: String
        private let state = Mutex<(process: ChildProcess?, base: String)>((nil, ""))

        init(name: String, url: String, readModels: String) {
            self.name = name
            self.url = url
            self.readModels = readModels
        }

        /// Where it answers now.
        var base: String { state.withLock { $0.base } }
        var isRunning: Bool { state.withLock { $0.process }?.isRunning ?? false }
        /// How it ended, if it did.
        var ended: ChildProcess.Termination? {
            guard let process = state.withLock({ $0.process }), !process.isRunning else { return nil }
            return process.wait()
        }

        /// Starts it (on its read models); its output is read to its end so it never blocks.
        func start() async throws {
            let server = try await PostgresServerTests.serve(url, readModels: readModels)
            Thread.detachNewThread { while server.process.read() != nil {} }
            state.withLock { $0 = (server.process, server.base) }
        }

        /// Kills it, if it runs, at the end of a test.
        func stop() {
            guard let process = state.withLock({ $0.process }), process.isRunning else { return }
            process.send(SIGKILL)
            process.wait()
        }

        /// Kills it with SIGKILL and waits for it to die.
        func kill() async throws {
            guard let process = state.withLock({ $0.process }) else { return }
            process.send(SIGKILL)
            _ = try await ServerProcessTests.exited(process)
        }
    }

    /// A flag one task sets and others read.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }

    /// One try of a request: its answer, or nil when none came (a killed server, a timeout).
    struct Attempt: Sendable {
        var status: UInt?
        var body: [UInt8] = []
        var replayed = false
        var problemType: String?
        var server: String

        var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
        var serverError: Bool { status.map { $0 >= 500 } ?? false }
    }

    /// One keyed request and everything it was answered, until its first success.
    struct Request: Sendable {
        var user: String
        var key: String
        var path: String
        var body: String
        var attempts: [Attempt] = []

        /// The first success: what the client was told.
        var told: Attempt? { attempts.first(where: \.succeeded) }
    }

    /// The body of a step sample no other request sends.
    static func stepsBody(writer: Int, index: Int) -> String {
        let seconds = index % 86_400
        let time = String(format: "%02d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60)
        return #"{"samples":[{"start":"2026-10-\#(String(format: "%02d", 1 + index / 86_400))T\#(time)Z","end":"2026-10-\#(String(format: "%02d", 1 + index / 86_400))T\#(time).5Z","count":\#(index + 1),"source":"w\#(writer)"}]}"#
    }

    /// Sends `request` once to `server`, as `token`.
    static func send(_ request: Request, to server: Server, token: String, client: HTTPClient) async -> Attempt {
        var attempt = Attempt(server: server.name)
        var http = HTTPClientRequest(url: server.base + request.path)
        http.method = .POST
        http.headers.add(name: "Authorization", value: "Bearer \(token)")
        http.headers.add(name: "Content-Type", value: "application/json")
        http.headers.add(name: "Idempotency-Key", value: request.key)
        http.body = .bytes(ByteBuffer(string: request.body))
        do {
            // Longer than a server ever takes to answer (its waits for PostgreSQL are bounded).
            let response = try await client.execute(http, timeout: .seconds(180))
            let body = try await response.body.collect(upTo: 1 << 20)
            attempt.status = response.status.code
            attempt.body = Array(body.readableBytesView)
            attempt.replayed = response.headers.first(name: "Idempotent-Replayed") == "true"
            if response.status.code >= 400 {
                attempt.problemType = (try? JSONSerialization.jsonObject(with: Data(attempt.body)) as? [String: Any])?["type"] as? String
            }
        } catch {
            attempt.status = nil
        }
        return attempt
    }

    /// The positions and event a success body names.
    struct Told: Decodable {
        var stream: String
        var firstPosition: UInt64
        var lastPosition: UInt64
        var streamVersion: UInt64
        var alreadyApplied: Bool
    }
}
