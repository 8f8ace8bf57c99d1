import EventLog
import EventLogLMDB
import Foundation
import LMDB
import Synchronization
import LogbookStorage

extension Logbook {
    /// This build's version, recorded in backups and the OpenAPI document.
    public static let version = "1.0.0"
    /// Backups and erasures take turns under this lock: a backup never holds half an erasure.
    static let privacyLock = "$backup-and-erasure"

    /// Backs the embedded Logbook up into `directory` (created, or an existing empty directory)
    /// while it serves: a consistent, compacted copy of the log's environment — log and read
    /// models, one snapshot — and of the idempotency answers, then `manifest.json` (written last:
    /// a directory without one is a backup that did not finish). The manifest's head and digests
    /// are read from the copy itself, so they describe exactly what was copied.
    ///
    /// Appends go on meanwhile (the copy reads a snapshot); only map growth waits for the copy.
    /// Cancelling the task stops the copy and removes what it wrote.
    public func backup(
        to directory: String, progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }
    ) async throws -> BackupManifest {
        guard let inline = host as? InlineReadModels else {
            guard let shared = log as? any SnapshotLog else { throw BackupError.notEmbedded }
            return try await Self.backup(sharedLog: shared, to: directory, configuration: configuration, progress: progress)
        }
        let created = try BackupDirectory.prepare(directory)
        let createdAt = configuration.clock.now()
        let sources = [(BackupLayout.log, inline.log.environment), (BackupLayout.requestKeys, requestKeys.environment)]
        let sourceBytes = inline.log.environment.info().usedBytes
        let cancelled = CancellationFlag()
        let keys = payloads.store
        do {
            // The key store is copied after the log: keys are made before the events they
            // encrypt, so every event in the copy finds its key. An erasure waits meanwhile.
            let files = try await locks.withLock(Self.privacyLock) {
                // An erasure whose build failed left the user in the read models: finished first.
                try await finishHeldErasures()
                return try await withTaskCancellationHandler {
                    try await BlockingWork.onThread { [cancelled] in
                        var files = try sources.map { layout, environment in
                            try layout.copy(environment, into: directory, sourceBytes: sourceBytes,
                                            cancelled: { cancelled.isSet }, progress: progress)
                        }
                        if let keys {
                            files.append(try keys.withEnvironment { environment in
                                try BackupLayout.keys.copy(environment, into: directory, sourceBytes: sourceBytes,
                                                           cancelled: { cancelled.isSet }, progress: progress)
                            })
                        }
                        return files
                    }
                } onCancel: {
                    cancelled.set()
                }
            }
            try Task.checkCancellation()
            let (head, readModels) = try await Self.readings(ofStoreAt: directory, configuration: configuration)
            let manifest = BackupManifest(
                format: BackupManifest.currentFormat, logbookVersion: Self.version, createdAt: createdAt, head: head,
                readModels: readModels, files: files, sourceBytes: sourceBytes, source: nil, rows: nil)
            try BackupDirectory.writeManifest(manifest, in: directory)
            return manifest
        } catch {
            BackupDirectory.remove(directory, created: created)
            throw error
        }
    }

    /// Restores the backup in `backup` into a new store at `path` (absent, or an empty
    /// directory), and proves it sound before it appears there: every file is checked against
    /// the manifest's size and SHA-256 as it is copied into a staging directory beside `path`,
    /// the staged store is opened, its head and read-model digests must equal the manifest's,
    /// and `verify` must rebuild every read model from the restored log to the same digest.
    /// Only then is the staging directory renamed to `path`. A partial, truncated or damaged
    /// backup is refused with a ``BackupError`` and nothing is left at `path`.
    public static func restore(
        backup: String, to path: String, configuration: LogbookConfiguration = .init()
    ) async throws -> RestoreCheck {
        let manifest = try BackupDirectory.readManifest(in: backup)
        guard manifest.source == nil else { throw BackupError.wrongSource(backup: manifest.source ?? "", restore: "embedded") }
        guard manifest.file(named: BackupLayout.log.name) != nil else {
            throw BackupError.unreadableManifest(path: backup, reason: "it lists no \(BackupLayout.log.name)")
        }
        let layouts = try manifest.files.map { file in
            guard let layout = BackupLayout.named(file.name) else {
                throw BackupError.unreadableManifest(path: backup, reason: "it lists \(file.name), a file this build does not know")
            }
            return (layout, file)
        }
        guard BackupDirectory.isAbsentOrEmpty(path) else { throw BackupError.destinationNotEmpty(path: path) }
        let staging = path + ".restoring-" + UUID().uuidString.lowercased()
        try PrivateFiles.createDirectory(atPath: staging)
        do {
            try await BlockingWork.onThread {
                for (layout, file) in layouts { try layout.restore(file, from: backup, into: staging) }
            }
            let verification = try await check(storeAt: staging, against: manifest, configuration: configuration)
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: staging, toPath: path)
            return RestoreCheck(path: path, head: manifest.head, filesChecked: layouts.map(\.1.name), verification: verification)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    /// Opens the restored store and holds it to the manifest: the same head, the same digest
    /// for every read model whose code is unchanged, and a clean `verify`.
    private static func check(
        storeAt path: String, against manifest: BackupManifest, configuration: LogbookConfiguration
    ) async throws -> [VerificationResult] {
        let logbook = try await Logbook.open(path: path, configuration: configuration)
        do {
            let head = try await logbook.log.headPosition().rawValue
            guard head == manifest.head else {
                throw BackupError.restoredStateDiffers(what: "head", expected: "\(manifest.head)", actual: "\(head)")
            }
            let digests = try logbook.digests()
            for recorded in manifest.readModels where recorded.codeVersion == recorded.projection.codeVersion {
                guard let digest = digests.first(where: { $0.projection == recorded.projection }) else { continue }
                guard digest.sha256 == recorded.sha256 else {
                    throw BackupError.restoredStateDiffers(
                        what: "digest of \(recorded.projection)", expected: recorded.sha256, actual: digest.sha256)
                }
            }
            let verification = try await logbook.verify()
            let failed = verification.filter { !$0.matches }.map(\.projection.rawValue)
            guard failed.isEmpty else { throw BackupError.verificationFailed(projections: failed) }
            await logbook.close()
            return verification
        } catch {
            await logbook.close()
            throw error
        }
    }

    /// The head and every read model's checkpoint and digest in the store at `path`, read in
    /// one snapshot of a read-only open (which leaves nothing behind but LMDB's lock file,
    /// removed here).
    private static func readings(
        ofStoreAt path: String, configuration: LogbookConfiguration
    ) async throws -> (UInt64, [BackupReadModel]) {
        var readOnly = configuration.log
        readOnly.readOnly = true
        let log = try LMDBEventStore(path: path, configuration: readOnly)
        defer { try? FileManager.default.removeItem(atPath: path + "/lock.mdb") }
        do {
            let store = try ReadModelStore(environment: log.environment)
            let readings = try log.environment.read { txn in
                let head = try log.headPosition(in: txn).rawValue
                let models = try store.checkpointsAndDigests(txn).map { kind, checkpoint, sha256 in
                    BackupReadModel(
                        projection: kind, codeVersion: checkpoint?.codeVersion ?? kind.codeVersion, position: checkpoint?.position ?? 0,
                        sha256: sha256)
                }
                return (head, models)
            }
            await log.close()
            return readings
        } catch {
            await log.close()
            throw error
        }
    }
}

/// A flag a cancellation handler sets and blocking work on another thread reads.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
