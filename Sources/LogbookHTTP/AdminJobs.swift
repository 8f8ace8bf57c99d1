public import EventLog
import Foundation
public import Logbook
public import Logging
public import ServiceLifecycle
import Synchronization

/// One piece of long-running administrative work (a rebuild, an upgrade, a verification, a
/// backup) and how it stands.
public struct AdminJob: Sendable, Hashable, Codable {
    /// What the job does.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case rebuild, verify, backup
        /// A rebuild beside the live read models, which keep answering until it switches in.
        case upgrade
    }

    /// Where the job is in its life.
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        case running, succeeded, failed, cancelled
    }

    /// The job's id: a lower-case UUID.
    public let id: String
    public let kind: Kind
    public internal(set) var state: State
    /// The read models it works on.
    public let projections: [ReadModelKind]
    /// The last progress report of a rebuild or verification (nil before the first).
    public internal(set) var progress: RebuildProgress?
    /// The last progress report of a backup (nil before the first).
    public internal(set) var backupProgress: BackupProgress?
    public let startedAt: Timestamp
    public internal(set) var finishedAt: Timestamp?
    /// A finished rebuild's or upgrade's new digests.
    public internal(set) var digests: [ReadModelDigest]?
    /// A finished verification's results.
    public internal(set) var verification: [VerificationResult]?
    /// A finished backup's directory and manifest.
    public internal(set) var backup: FinishedBackup?
    /// Why the job failed: a mistake of the request or a conflict in its own words; a failure
    /// inside the server only as such, with the id under which the server's log holds its cause
    /// (its text can name files and libraries, which stay on the server).
    public internal(set) var error: String?

    /// True once the job has ended, one way or another.
    public var isFinished: Bool { state != .running }
}

/// The administrative jobs of one Logbook: each runs in a task this object owns — not in the
/// request that asked for it — so it goes on if the client leaves, can be polled
/// (`GET /admin/jobs/{id}`) or cancelled (`DELETE /admin/jobs/{id}`), and ends with the service.
///
/// Run it as a `Service` (``LogbookServer`` does; a host that mounts the routes adds
/// ``LogbookRoutes/jobs`` to its service group): at graceful shutdown it cancels the running jobs
/// and waits for them, so the Logbook can close after them. Finished jobs are remembered, the
/// newest ``retainedJobs`` of them.
public final class AdminJobs: Service, Sendable {
    private struct Entry {
        var job: AdminJob
        var task: Task<Void, Never>?
        var watchers: [UUID: AsyncStream<AdminJob>.Continuation] = [:]
    }

    private let logbook: Logbook
    private let logger: Logger
    private let entries = Mutex<[String: Entry]>([:])
    private let order = Mutex<[String]>([])
    /// How many finished jobs stay listed.
    public let retainedJobs: Int

    /// Jobs of `logbook`; a job's failure inside the server is logged to `logger`.
    public init(logbook: Logbook, retainedJobs: Int = 50, logger: Logger = Logger(label: "logbook.jobs")) {
        self.logbook = logbook
        self.retainedJobs = retainedJobs
        self.logger = logger
    }

    /// Waits for graceful shutdown, then cancels the running jobs and waits until they end.
    public func run() async throws {
        try? await gracefulShutdown()
        let running = entries.withLock { $0.values.compactMap(\.task) }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// Starts a rebuild of `kinds`.
    public func rebuild(_ kinds: Set<ReadModelKind>) -> AdminJob {
        start(.rebuild, kinds) { logbook, update in
            let digests = try await logbook.rebuild(kinds) { progress in update { $0.progress = progress } }
            return { $0.digests = digests }
        }
    }

    /// Starts an upgrade of `kinds` (``Logbook/upgrade(_:progress:)``): their new versions are
    /// built beside the live ones, which answer until the switch.
    public func upgrade(_ kinds: Set<ReadModelKind>) -> AdminJob {
        start(.upgrade, kinds) { logbook, update in
            let digests = try await logbook.upgrade(kinds) { progress in update { $0.progress = progress } }
            return { $0.digests = digests }
        }
    }

    /// Starts a verification of every read model.
    public func verify() -> AdminJob {
        start(.verify, Set(ReadModelKind.allCases)) { logbook, update in
            let results = try await logbook.verify { progress in update { $0.progress = progress } }
            return { $0.verification = results }
        }
    }

    /// Starts a backup of the whole store into `directory` (``Logbook/backup(to:progress:)``).
    public func backup(to directory: String) -> AdminJob {
        start(.backup, Set(ReadModelKind.allCases)) { logbook, update in
            let manifest = try await logbook.backup(to: directory) { progress in update { $0.backupProgress = progress } }
            return { $0.backup = FinishedBackup(directory: directory, manifest: manifest) }
        }
    }

    /// The job with this id, if it is remembered.
    public func job(_ id: String) -> AdminJob? { entries.withLock { $0[id]?.job } }

    /// Every remembered job, newest first.
    public func all() -> [AdminJob] {
        let ids = order.withLock { $0 }
        return entries.withLock { entries in ids.reversed().compactMap { entries[$0]?.job } }
    }

    /// Cancels a running job; false if there is no such running job.
    @discardableResult
    public func cancel(_ id: String) -> Bool {
        let task = entries.withLock { $0[id].flatMap { $0.job.isFinished ? nil : $0.task } }
        task?.cancel()
        return task != nil
    }

    /// The job's states as they change, ending with its final state (the newest state only, if
    /// the reader falls behind). Empty if there is no such job.
    public func updates(of id: String) -> AsyncStream<AdminJob> {
        let (stream, continuation) = AsyncStream<AdminJob>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let watcher = UUID()
        let current = entries.withLock { entries -> AdminJob? in
            guard let entry = entries[id] else { return nil }
            if !entry.job.isFinished { entries[id]?.watchers[watcher] = continuation }
            return entry.job
        }
        if let current { continuation.yield(current) }
        if current?.isFinished ?? true { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            _ = self?.entries.withLock { $0[id]?.watchers.removeValue(forKey: watcher) }
        }
        return stream
    }

    /// The job's final state, once it has ended.
    public func result(of id: String) async -> AdminJob? {
        var last: AdminJob?
        for await state in updates(of: id) { last = state }
        return last
    }

    private typealias Change = @Sendable (inout AdminJob) -> Void
    private typealias Work = @Sendable (Logbook, _ update: @escaping @Sendable (Change) -> Void) async throws -> Change

    private func start(_ kind: AdminJob.Kind, _ kinds: Set<ReadModelKind>, _ work: @escaping Work) -> AdminJob {
        let job = AdminJob(
            id: UUID().uuidString.lowercased(), kind: kind, state: .running, projections: kinds.sorted(), progress: nil,
            startedAt: logbook.configuration.clock.now())
        entries.withLock { $0[job.id] = Entry(job: job) }
        order.withLock { $0.append(job.id) }
        let logbook = self.logbook
        let task = Task { [self] in
            do {
                let finish = try await work(logbook) { change in self.update(job.id, change) }
                end(job.id, .succeeded, finish)
            } catch is CancellationError {
                end(job.id, .cancelled) { _ in }
            } catch {
                let text = describe(error, of: job)
                end(job.id, .failed) { $0.error = text }
            }
        }
        entries.withLock { $0[job.id]?.task = task }
        forgetOldJobs()
        return job
    }

    /// What `job` says of `error`: a problem a client may see (a conflict, a bad argument) as
    /// itself; anything else (storage, files, libraries) as a failure inside the server, logged
    /// with its text under the job's id.
    private func describe(_ error: any Error, of job: AdminJob) -> String {
        if let problem = Problem.from(error), problem.status.code < 500 { return problem.detail }
        logger.error("job failed", metadata: ["job": "\(job.id)", "kind": "\(job.kind.rawValue)", "cause": "\(error)"])
        return "the \(job.kind.rawValue) failed inside the server; its log has the cause under job \(job.id)"
    }

    private func update(_ id: String, _ change: (inout AdminJob) -> Void) {
        let (job, watchers) = entries.withLock { entries -> (AdminJob?, [AsyncStream<AdminJob>.Continuation]) in
            guard entries[id] != nil else { return (nil, []) }
            change(&entries[id]!.job)
            return (entries[id]!.job, Array(entries[id]!.watchers.values))
        }
        if let job { for watcher in watchers { watcher.yield(job) } }
    }

    private func end(_ id: String, _ state: AdminJob.State, _ change: (inout AdminJob) -> Void) {
        let now = logbook.configuration.clock.now()
        let (job, watchers) = entries.withLock { entries -> (AdminJob?, [AsyncStream<AdminJob>.Continuation]) in
            guard entries[id] != nil else { return (nil, []) }
            change(&entries[id]!.job)
            entries[id]!.job.state = state
            entries[id]!.job.finishedAt = now
            entries[id]!.task = nil
            defer { entries[id]!.watchers = [:] }
            return (entries[id]!.job, Array(entries[id]!.watchers.values))
        }
        if let job {
            for watcher in watchers {
                watcher.yield(job)
                watcher.finish()
            }
        }
    }

    /// Forgets the oldest finished jobs beyond ``retainedJobs``.
    private func forgetOldJobs() {
        let ids = order.withLock { $0 }
        let finished = entries.withLock { entries in ids.filter { entries[$0]?.job.isFinished ?? true } }
        let excess = finished.count - retainedJobs
        guard excess > 0 else { return }
        let dropped = Set(finished.prefix(excess))
        entries.withLock { entries in for id in dropped { entries[id] = nil } }
        order.withLock { $0.removeAll { dropped.contains($0) } }
    }
}

/// Where a finished backup went, and what it holds.
public struct FinishedBackup: Sendable, Hashable, Codable {
    public var directory: String
    public var manifest: BackupManifest
}
