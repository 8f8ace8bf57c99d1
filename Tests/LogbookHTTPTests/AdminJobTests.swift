import DemoData
import Foundation
import HTTPTypes
import Logbook
import LogbookHTTP
import LogbookTestSupport
import Testing

/// Rebuilds and verifications run as jobs the server owns: started without waiting, polled,
/// cancelled, and resumed by the next rebuild.
@Suite("Administrative jobs")
struct AdminJobTests {
    /// Polls the job until it has ended and answers its last state.
    func finished(_ server: TestServer, _ id: String) async throws -> [String: Any] {
        for _ in 0..<2_000 {
            let job = try await server.call(.get, "/admin/jobs/\(id)", as: "op", admin: true).json
            if job["state"] as? String != "running" { return job }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("job \(id) did not end")
        return [:]
    }

    @Test("a rebuild started without waiting answers 202 with its job, which is polled to the end and listed")
    func detachedRebuild() async throws {
        try await withServer { server in
            var generator = DemoDataGenerator(seed: 3, users: 2)
            generator.weeks = 1
            _ = try await generator.run(on: server.logbook)
            let started = try await server.call(.post, "/admin/rebuild?projections=stats&wait=false", as: "op", admin: true)
            #expect(started.status == .accepted)
            let id = try #require(started.json["id"] as? String)
            #expect(started.headers[HTTPField.Name("X-Logbook-Job")!] == id)
            #expect(started.json["kind"] as? String == "rebuild")
            #expect(started.json["projections"] as? [String] == ["stats"])
            let job = try await finished(server, id)
            #expect(job["state"] as? String == "succeeded")
            let digests = try #require(job["digests"] as? [[String: Any]])
            #expect(digests.map { $0["projection"] as? String } == ["stats"])
            #expect((job["progress"] as? [String: Any])?["finished"] as? Bool == true)
            let listed = try await server.call(.get, "/admin/jobs", as: "op", admin: true).array
            #expect(listed.first?["id"] as? String == id)
            // A finished job cannot be cancelled; an unknown one does not exist; users see none of it.
            #expect(try await server.call(.delete, "/admin/jobs/\(id)", as: "op", admin: true).status == .conflict)
            #expect(try await server.call(.get, "/admin/jobs/\(UUID().uuidString.lowercased())", as: "op", admin: true).status == .notFound)
            #expect(try await server.call(.get, "/admin/jobs/\(id)", as: "ana").status == .forbidden)
            #expect(try await server.call(.post, "/admin/rebuild?wait=maybe", as: "op", admin: true).status == .badRequest)
        }
    }

    @Test("a cancelled rebuild stops after its chunk, leaves its read models rebuilding, and the next rebuild finishes them")
    func cancelledRebuildResumes() async throws {
        try await withServer(logbook: { $0.rebuildChunkSize = 97 }) { server in
            var generator = DemoDataGenerator(seed: 4, users: 3)
            generator.weeks = 2
            _ = try await generator.run(on: server.logbook)
            let live = try server.logbook.digests()
            let started = try await server.call(.post, "/admin/rebuild?wait=false", as: "op", admin: true)
            let id = try #require(started.json["id"] as? String)
            let cancelled = try await server.call(.delete, "/admin/jobs/\(id)", as: "op", admin: true)
            #expect(cancelled.status == .accepted)
            let job = try await finished(server, id)
            #expect(job["state"] as? String == "cancelled")
            #expect(try await server.call(.get, "/ready").status == .serviceUnavailable)
            let resumed = try await server.call(.post, "/admin/rebuild", as: "op", admin: true)
            #expect(resumed.text.split(separator: "\n").last?.contains("\"digests\"") == true)
            #expect(try await server.call(.get, "/ready").status == .ok)
            #expect(try server.logbook.digests().map(\.sha256) == live.map(\.sha256))
        }
    }

    @Test("the job service cancels running jobs at shutdown and waits for them")
    func shutdownEndsJobs() async throws {
        try await withLogbook({ $0.rebuildChunkSize = 97 }) { logbook, _ in
            var generator = DemoDataGenerator(seed: 5, users: 3)
            generator.weeks = 2
            _ = try await generator.run(on: logbook)
            let jobs = AdminJobs(logbook: logbook)
            let job = jobs.rebuild(Set(ReadModelKind.allCases))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await jobs.run() }
                group.cancelAll()
                try await group.waitForAll()
            }
            // run() returned only after the job ended.
            #expect(jobs.job(job.id)?.state == .cancelled)
        }
    }
}
