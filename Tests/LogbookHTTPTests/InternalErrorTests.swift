import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logbook
import LogbookTestSupport
@testable import LogbookHTTP
import Logging
import Synchronization
import Testing

/// A failure inside the server — a bug, the storage, the log's database — answers a problem with
/// a correlation id and no word of the error's own text (paths, SQL, hosts stay inside); the
/// server's log has the text under the same id.
@Suite("Internal errors stay inside")
struct InternalErrorTests {
    /// An error whose text must never reach a client.
    struct Secret: Error, CustomStringConvertible {
        var description: String { "cannot open /var/lib/logbook-secret/data.mdb for user ana (errno 13)" }
    }

    static let secrets = ["/var/lib/logbook-secret", "10.0.0.9", "password=hunter2", "mdb_put", "relation \"logbook.events\""]

    @Test("an unexpected error, a storage failure, a corrupt record and an unreachable database: a problem with a correlation id, the text only in the log")
    func internalTextStaysInside() async throws {
        let records = LogLines()
        var logger = Logger(label: "test") { _ in CollectingLogHandler(lines: records) }
        logger.logLevel = .debug
        let router = Router(context: LogbookRequestContext.self)
        let routes = router.group().add(middleware: ProblemMiddleware<LogbookRequestContext>())
        let failures: [(String, any Error, HTTPResponse.Status)] = [
            ("bug", Secret(), .internalServerError),
            ("storage", LogbookError.storage("mdb_put failed in /var/lib/logbook-secret: MDB_MAP_FULL"), .internalServerError),
            ("log-storage", EventStoreError.storage("mdb_put failed in /var/lib/logbook-secret"), .internalServerError),
            ("corrupt", EventStoreError.corruption(position: Position(7), reason: "checksum of /var/lib/logbook-secret/data.mdb"), .internalServerError),
            ("database", LogbookError.log(.unavailable("PostgreSQL connection failed (host=10.0.0.9 password=hunter2)")), .serviceUnavailable),
            ("sql", EventStoreError.unavailable("PostgreSQL 42P01: relation \"logbook.events\" does not exist"), .serviceUnavailable),
        ]
        for (path, error, _) in failures {
            routes.get(RouterPath(path)) { _, _ -> Response in throw error }
        }
        try await Application(router: router, logger: logger).test(.router) { client in
            for (path, _, status) in failures {
                let response = try await client.execute(uri: "/" + path, method: .get)
                let text = String(buffer: response.body)
                #expect(response.status == status, "\(path): \(text)")
                #expect(response.headers[.contentType] == "application/problem+json", "\(path)")
                for secret in Self.secrets { #expect(!text.contains(secret), "\(path) sent \(secret): \(text)") }
                let problem = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                let id = try #require(problem["correlationId"] as? String, "\(path): \(text)")
                #expect(!id.isEmpty && (problem["detail"] as? String)?.contains(id) == true, "\(path): \(text)")
                // The log line with that id holds what the client was not told.
                let logged = records.all.filter { $0.contains(id) }
                #expect(logged.contains { line in Self.secrets.contains { line.contains($0) } }, "\(path): \(logged)")
            }
        }
    }

    @Test("a job that fails inside the server (a backup into a path that is a file) says so with its id, and only the log has the cause")
    func jobFailureStaysInside() async throws {
        try await withLogbook { logbook, directory in
            let records = LogLines()
            let jobs = AdminJobs(logbook: logbook, logger: Logger(label: "test") { _ in CollectingLogHandler(lines: records) })
            let blocker = (directory as NSString).appendingPathComponent("not-a-directory")
            try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
            let target = (blocker as NSString).appendingPathComponent("backup-1")
            let started = jobs.backup(to: target)
            let job = try #require(await jobs.result(of: started.id))
            #expect(job.state == .failed)
            let said = try #require(job.error)
            #expect(said.contains("failed inside the server") && said.contains(job.id), "\(said)")
            #expect(!said.contains(directory) && !said.contains("not-a-directory"), "the job showed a path: \(said)")
            let logged = records.all.filter { $0.contains(job.id) }
            #expect(logged.contains { $0.contains("not-a-directory") }, "the log lacks the cause: \(logged)")
        }
    }
}
