import ChildProcesses
import DemoData
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LogbookClient
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Synchronization
import Testing

/// LogbookClient's ``CommandJournal`` in a real client process against a real `logbook serve`,
/// each killed with SIGKILL in turn while commands flow: afterwards the log holds every command
/// the journal ever numbered, once each, in the journal's order.
@Suite("Command journal under kills", .serialized)
struct CommandJournalKillTests {
    static let rounds = 200

    @Test("200 kills of the client or the server while commands flow lose no command and apply none twice", arguments: KilledBackend.allCases)
    func killsLoseAndRepeatNothing(backend: KilledBackend) async throws {
        try await withTemporaryDirectory { directory in
            let server = try await KilledServer.start(try await backend.serveArguments(in: directory))
            defer { server.stop() }
            let token = try await server.register("u-1000")
            let journal = directory + "/u-1000.journal"
            func startClient(_ mode: [String]) throws -> ChildProcess {
                try ChildProcess(clientHelperExecutable.path, [mode[0], server.base, "u-1000", journal] + mode.dropFirst(),
                                 environment: ChildProcess.currentEnvironment().merging(["LOGBOOK_TOKEN": token]) { $1 }, output: true, errors: true)
            }
            let seed = UInt64.random(in: 1...UInt64.max)
            var random = SplitMix64(seed: seed)
            var client = try startClient(["steps", "30000"])
            var kills = (client: 0, server: 0)
            for _ in 0..<Self.rounds {
                try await Task.sleep(for: .milliseconds(Int.random(in: 10...80, using: &random)))
                if Bool.random(using: &random) {
                    client.send(SIGKILL)
                    _ = try await ServerProcessTests.exited(client)
                    client = try startClient(["steps", "30000"])
                    kills.client += 1
                } else {
                    try await server.kill()
                    try await server.restart()
                    kills.server += 1
                }
            }
            client.send(SIGKILL)
            _ = try await ServerProcessTests.exited(client)
            let drain = try startClient(["drain"])
            let drained = try await TestPostgres.offThePool { String(decoding: drain.readToEnd(), as: UTF8.self) }
            #expect(try await ServerProcessTests.exited(drain) == .exit(0), "seed \(seed): \(drained)")

            let kept = try CommandJournal(file: URL(fileURLWithPath: journal))
            let status = await kept.status()
            #expect(status.pending.isEmpty && status.refused.isEmpty, "seed \(seed)")
            let numbered = status.nextSequence - 1
            let applied = try await Self.journalSteps(at: server.base, token: token)
            #expect(numbered > 0 && kills.client > 0 && kills.server > 0)
            #expect(applied == Array(1...Int(numbered)), "seed \(seed): \(numbered) numbered, \(applied.count) applied; first difference at \(zip(applied, 1...).first { $0 != $1 }.map { "\($0)" } ?? "the end")")
        }
    }

    /// The step counts of the user's `journal` samples, in log order (command n records n steps).
    static func journalSteps(at base: String, token: String) async throws -> [Int] {
        var counts: [Int] = []
        var from = 0
        while true {
            var request = URLRequest(url: URL(string: "\(base)/users/u-1000/events?from=\(from)&limit=1000")!)
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (data, _) = try await URLSession.shared.data(for: request)
            let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let events = try #require(page["events"] as? [[String: Any]])
            for event in events where event["type"] as? String == "steps.recorded" {
                for sample in (event["data"] as? [String: Any])?["samples"] as? [[String: Any]] ?? [] where sample["source"] as? String == "journal" {
                    counts.append(try #require(sample["count"] as? Int))
                }
            }
            guard !events.isEmpty, let next = page["nextPosition"] as? Int else { return counts }
            from = next
        }
    }
}

/// Where a killed server keeps the log: LMDB, or a PostgreSQL database (with its read models in LMDB).
enum KilledBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case lmdb, postgres

    var testDescription: String { rawValue }

    /// `logbook serve`'s arguments for a fresh store of this kind under `directory` (without the port).
    func serveArguments(in directory: String) async throws -> [String] {
        switch self {
        case .lmdb: ["serve", "--path", directory + "/data", "--durability", "durable", "--log-level", "warning"]
        case .postgres: ["serve", "--postgres", try await TestPostgres.freshDatabase(), "--path", directory + "/read-models", "--log-level", "warning"]
        }
    }
}

/// A `logbook serve` on one port, killed with SIGKILL and started again on the same port and data.
final class KilledServer: Sendable {
    let base: String
    private let arguments: [String]
    private let port: String
    private let process: Mutex<ChildProcess>

    private init(arguments: [String], base: String, process: ChildProcess) {
        self.arguments = arguments
        self.base = base
        self.port = String(base.split(separator: ":").last!)
        self.process = Mutex(process)
    }

    /// Starts `logbook arguments` on a free port, which it keeps across restarts.
    static func start(_ arguments: [String]) async throws -> KilledServer {
        let (process, output) = try await ServerProcessTests.startOffThePool(arguments + ["--port", "0"], until: #"http://127\.0\.0\.1:[0-9]+"#)
        Thread.detachNewThread { while process.read() != nil {} }
        let base = String(output[output.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression)!])
        return KilledServer(arguments: arguments, base: base, process: process)
    }

    /// Registers `user` (Monday weeks, UTC, metric) and answers a token of theirs.
    func register(_ user: String) async throws -> String {
        let token = try await TokenKeys(secret: testSecret).token(user: user)
        let client = Client(logbook: URL(string: base)!, tokens: FixedAccessToken(token))
        _ = try await client.postUsersUser(path: .init(user: user), body: .json(.init(displayName: "Kim", timeZone: "UTC", units: .metric, weekStart: .monday))).created
        return token
    }

    func kill() async throws {
        let running = process.withLock { $0 }
        running.send(SIGKILL)
        _ = try await ServerProcessTests.exited(running)
    }

    /// Starts it again on its port (a killed server's port is free at once: the listener sets SO_REUSEADDR).
    func restart() async throws {
        let (started, _) = try await ServerProcessTests.startOffThePool(arguments + ["--port", port], until: #"http://127\.0\.0\.1:[0-9]+"#)
        Thread.detachNewThread { while started.read() != nil {} }
        process.withLock { $0 = started }
    }

    func stop() {
        let running = process.withLock { $0 }
        guard running.isRunning else { return }
        running.send(SIGKILL)
        running.wait()
    }
}
