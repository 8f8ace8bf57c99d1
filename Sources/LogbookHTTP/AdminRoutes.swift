import EventLog
import Foundation
import HTTPTypes
import Hummingbird
package import Logbook

/// Operators' routes (administrator role): projection checkpoints and lag, rebuilds,
/// verifications and backups run as jobs of ``AdminJobs`` (their progress streamed, or polled),
/// cache and storage status.
struct AdminRoutes<Context: LogbookRouteContext> {
    let logbook: Logbook
    let jobs: AdminJobs
    /// Where backups go (``HTTPConfiguration/backupDirectory``).
    let backupDirectory: String?
    let catalog: RouteCatalog

    func register(on group: RouteGroup<Context>) {
        group.route(.get, "admin/projections", "Every projection's checkpoint, code version and lag", statuses: Statuses.admin,
                    responses: [200: .reference([ReadModelStatus].self)], catalog: catalog) { _, _ in
            try JSONOutput.response(try await logbook.projectionStatus())
        }
        group.route(.post, "admin/rebuild", "Rebuild projections as a job, in place or (mode=background) beside the live ones without downtime, streaming NDJSON progress (wait=false: answer 202 with the job at once)",
                    query: RebuildQuery.self, statuses: Statuses.admin + [202], responses: [202: Self.startedJob], catalog: catalog) { try await rebuild($2) }
        group.route(.post, "admin/verify", "Rebuild into a scratch store and compare digests with the live read models, as a job (wait=false: 202 with the job)",
                    query: JobQuery.self, statuses: Statuses.admin + [202, 500],
                    responses: [200: .reference(VerifyReport.self), 202: Self.startedJob], catalog: catalog) { try await verify($2) }
        group.route(.post, "admin/backup", "Back the store up (log, read models, idempotency answers) into a new directory under the server's backup directory, as a job (wait=false: 202 with the job)",
                    query: BackupQuery.self, statuses: Statuses.admin + [202, 409, 500],
                    responses: [200: .reference(FinishedBackup.self), 202: Self.startedJob], catalog: catalog) { try await backup($2) }
        group.route(.get, "admin/jobs", "Administrative jobs (rebuilds, verifications, backups), newest first", statuses: Statuses.admin,
                    responses: [200: .reference([AdminJob].self)], catalog: catalog) { _, _ in
            try JSONOutput.response(jobs.all())
        }
        group.route(.get, "admin/jobs/{job}", "One administrative job: state, progress, result", statuses: Statuses.admin + [404],
                    responses: [200: .reference(AdminJob.self)], catalog: catalog) { _, context in
            try JSONOutput.response(try job(context))
        }
        group.route(.delete, "admin/jobs/{job}", "Cancel a running job (it stops after its current chunk)", statuses: [202, 400, 401, 403, 404, 409],
                    responses: [202: .reference(AdminJob.self, "The job, asked to stop")], catalog: catalog) { _, context in
            let job = try job(context)
            guard jobs.cancel(job.id) else { throw Problem(.conflict, type: "/problems/conflict", title: "Conflict", detail: "job \(job.id) is \(job.state.rawValue)") }
            return try JSONOutput.response(jobs.job(job.id) ?? job, status: .accepted)
        }
        group.route(.get, "admin/caches", "Entries, bytes, hits and misses of every query cache", statuses: Statuses.admin,
                    responses: [200: .reference([CacheStatus].self)], catalog: catalog) { _, _ in
            try JSONOutput.response(logbook.cacheStatus())
        }
        group.route(.get, "admin/storage", "Sizes of the log and its databases, map use, readers", statuses: Statuses.admin,
                    responses: [200: .reference(LogStorageInfo.self)], catalog: catalog) { _, _ in
            try JSONOutput.response(try await logbook.log.storageInfo())
        }
    }

    /// What `wait=false` answers: the job just started.
    static var startedJob: JSONSchema { .reference(AdminJob.self, "The job, started (wait=false): poll admin/jobs/{id}") }

    private func job(_ context: Context) throws -> AdminJob {
        let id = try context.path("job")
        guard let job = jobs.job(id.lowercased()) else { throw Problem.notFound("no job \"\(id)\"") }
        return job
    }

    /// Starts a rebuild of the projections named in `?projections=` (default: all) — in place, or
    /// beside the live ones with `mode=background` — and streams its
    /// progress as NDJSON lines, ending with the new digests. Progress lines are sampled: a slow
    /// client sees fewer of them, never slows the rebuild; a client that leaves leaves the job
    /// running (its id is in `X-Logbook-Job`).
    private func rebuild(_ query: RebuildQuery) async throws -> Response {
        let (kinds, detached) = (query.kinds, query.detached)
        let job = query.mode == .background ? jobs.upgrade(kinds) : jobs.rebuild(kinds)
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Logbook-Job")!] = job.id
        if detached { return try JSONOutput.response(job, status: .accepted, headers: headers) }
        headers[.contentType] = "application/x-ndjson"
        let jobs = self.jobs
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            var last: AdminJob?
            var written: RebuildProgress?
            for await state in jobs.updates(of: job.id) {
                last = state
                if let progress = state.progress, progress != written {
                    try await writer.write(ByteBuffer(data: try JSONOutput.encoder.encode(progress) + Data("\n".utf8)))
                    written = progress
                }
            }
            if let digests = last?.digests {
                try await writer.write(ByteBuffer(data: try JSONOutput.encoder.encode(["digests": digests]) + Data("\n".utf8)))
            } else {
                let reason = last?.error ?? "the rebuild was \(last?.state.rawValue ?? "lost")"
                try await writer.write(ByteBuffer(data: try JSONOutput.encoder.encode(["error": reason]) + Data("\n".utf8)))
            }
            try await writer.finish(nil)
        })
    }

    /// Starts a verification and answers its results when it ends (or the job at once, with
    /// `wait=false`).
    private func verify(_ query: JobQuery) async throws -> Response {
        let detached = query.detached
        return try await answer(jobs.verify(), detached: detached, failure: ("verify-failed", "Verification failed")) { job in
            job.verification.map { VerifyReport(allMatch: $0.allSatisfy(\.matches), projections: $0) }
        }
    }

    /// The answer to a job just started: the job at once (202) when the client does not wait,
    /// else `result` of the job once it has ended, or a 500 problem saying why there is none.
    private func answer<Answer: Encodable>(
        _ job: AdminJob, detached: Bool, failure: (type: String, title: String), result: (AdminJob) -> Answer?
    ) async throws -> Response {
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Logbook-Job")!] = job.id
        if detached { return try JSONOutput.response(job, status: .accepted, headers: headers) }
        let finished = await jobs.result(of: job.id)
        guard let finished, let answer = result(finished) else {
            throw Problem(.internalServerError, type: "/problems/\(failure.type)", title: failure.title,
                          detail: finished?.error ?? "the \(job.kind.rawValue) was \(finished?.state.rawValue ?? "lost")")
        }
        return try JSONOutput.response(answer, headers: headers)
    }
}

extension AdminRoutes {
    /// Starts a backup into `<backup directory>/<name>` (default: `backup-<time>`) and answers
    /// its manifest when it ends (or the job at once, with `wait=false`).
    private func backup(_ query: BackupQuery) async throws -> Response {
        let detached = query.detached
        guard let backupDirectory else {
            throw Problem(.conflict, type: "/problems/conflict", title: "Conflict",
                          detail: "this server has no backup directory (serve --backup-dir DIR); back up with `logbook backup --to DIR`")
        }
        let name = query.name ?? Self.defaultBackupName(logbook.configuration.clock.now())
        let directory = (backupDirectory as NSString).appendingPathComponent(name)
        guard !FileManager.default.fileExists(atPath: directory) else {
            throw Problem(.conflict, type: "/problems/conflict", title: "Conflict", detail: "a backup named \(name) exists already")
        }
        return try await answer(jobs.backup(to: directory), detached: detached, failure: ("backup-failed", "Backup failed")) { $0.backup }
    }
}

extension AdminRoutes {
    /// `backup-20261123T110704Z`: the time in UTC, to the second.
    static func defaultBackupName(_ now: Timestamp) -> String {
        let utc = Timestamp(microsecondsSinceEpoch: now.microsecondsSinceEpoch).rfc3339
        return "backup-" + utc.prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
    }
}

/// The answer of `POST /admin/verify`.
package struct VerifyReport: Encodable {
    var allMatch: Bool
    var projections: [VerificationResult]

    package init(allMatch: Bool, projections: [VerificationResult]) {
        self.allMatch = allMatch
        self.projections = projections
    }
}
