import EventLog
import LMDB
import LogbookStorage

extension Logbook {
    /// Rebuilds read models without downtime: builds each one's new version from the log into a
    /// second set of tables beside the live one, in chunks, while the live version keeps folding
    /// commits and answering every query; once the new version has caught up it becomes live in
    /// one write transaction (a reader sees the old version whole or the new one whole, never a
    /// half-built one, and no query answers 503), and the old tables are emptied. Returns the
    /// new digests.
    ///
    /// `/admin/projections` and ``projectionStatus()`` show how far the new version is. Opening a
    /// store whose read models' code versions changed runs the same upgrade in the background
    /// (``LogbookConfiguration/upgradesInBackground``). Cancelling the task stops the upgrade
    /// after its current chunk, the live version untouched; an upgrade cut off (cancelled, or by
    /// a crash) resumes from its last chunk when the store opens again. A rebuild of the same
    /// read models, which makes them current anyway, stops an upgrade first.
    @discardableResult
    public func upgrade(
        _ kinds: Set<ReadModelKind> = Set(ReadModelKind.allCases),
        progress: @escaping @Sendable (RebuildProgress) -> Void = { _ in }
    ) async throws -> [ReadModelDigest] {
        let task = upgrades.start(kinds) { try await self.buildNextVersions(kinds, fresh: true, progress: progress) }
        try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        return try digests().filter { kinds.contains($0.projection) }
    }

    /// Starts, in the background, the upgrades opening found: the read models whose live
    /// version an older code built, and those whose upgrade was cut off.
    func startUpgrades(_ kinds: Set<ReadModelKind>) {
        guard !kinds.isEmpty else { return }
        let logger = configuration.logger
        let names = kinds.sorted().map(\.rawValue).joined(separator: ",")
        logger.info("upgrading read models in the background", metadata: ["projections": "\(names)"])
        upgrades.start(kinds) {
            do {
                try await self.buildNextVersions(kinds, fresh: false) { _ in }
                logger.info("read models upgraded", metadata: ["projections": "\(names)"])
            } catch let error as CancellationError {
                logger.info("upgrade of read models stopped; it resumes when the store opens again", metadata: ["projections": "\(names)"])
                // Ended unfinished: whoever stopped it (a rebuild, an erasure) starts it again.
                throw error
            } catch {
                logger.error("upgrade of read models failed; the old version keeps answering", metadata: [
                    "projections": "\(names)", "error": "\(error)",
                ])
                throw error
            }
        }
    }

    /// Folds the log into the next tables of `kinds` (from scratch, or resuming their next
    /// checkpoints) until they stand where the live ones do, then switches them in.
    func buildNextVersions(_ kinds: Set<ReadModelKind>, fresh: Bool, progress: (RebuildProgress) -> Void) async throws {
        guard !kinds.isEmpty else { return }
        guard !configuration.log.readOnly else {
            throw LogbookError.invalidArgument(name: "upgrade", reason: "the store is open read-only")
        }
        guard control.beginUpgrade(kinds) else {
            throw LogbookError.conflict(stream: "read models", reason: "a rebuild or upgrade of \(kinds.sorted().map(\.rawValue)) is already running")
        }
        defer { control.endUpgrade(kinds) }
        try await foldAndSwitchNextVersions(kinds, fresh: fresh, progress: progress)
    }

    /// The work of ``buildNextVersions(_:fresh:progress:)`` for a caller that owns `kinds` already
    /// (``ReadModelControl/beginUpgrade(_:)``): folds their next tables until they stand where
    /// the live ones do, switches them in, forgets the answers worked out from the old ones and
    /// empties those.
    func foldAndSwitchNextVersions(_ kinds: Set<ReadModelKind>, fresh: Bool, progress: (RebuildProgress) -> Void) async throws {
        let replayer = Replayer(log: log, chunkSize: configuration.rebuildChunkSize, payloads: payloads)
        try replayer.prepare(kinds, in: readModels, .next, fresh: fresh)
        let from = try readModels.environment.read { txn in
            try kinds.map { try readModels.checkpoint($0, .next, txn)?.position ?? 0 }.min() ?? 0
        }
        // Each round folds what the log gained during the last, until what remains is at most a
        // chunk: the switch folds that much while it holds the writer.
        var target = try await host.upgradeTarget(kinds)
        for _ in 0..<Self.upgradeRounds {
            try Task.checkCancellation()
            let folded = try await replayer.fold(kinds, into: readModels, .next, through: target, progress: progress)
            target = try await host.upgradeTarget(kinds)
            if target > folded, target - folded > UInt64(configuration.rebuildChunkSize) { continue }
            let switched = try await host.finishUpgrade(kinds, control: control)
            guard let position = switched else { continue }
            // Old answers go at once; then the old tables are emptied.
            forgetAnswers()
            try readModels.environment.write { txn in try readModels.clearNext(kinds, txn) }
            progress(RebuildProgress(projections: kinds.sorted(), position: position, head: position,
                                     eventsFolded: Int(position - min(from, position)), finished: true))
            return
        }
        throw LogbookError.storage(
            "the upgrade of \(kinds.sorted().map(\.rawValue)) did not catch up with the live read models in \(Self.upgradeRounds) rounds")
    }

    /// How many times an upgrade folds towards the live version before giving up.
    static let upgradeRounds = 1_000
}
