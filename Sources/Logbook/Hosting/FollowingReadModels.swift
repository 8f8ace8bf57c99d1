import EventLog
import Foundation
import LMDB
import Synchronization
import LogbookStorage

/// Read models kept in a local LMDB environment of their own that follows a log it shares no
/// transaction with — a log in PostgreSQL shared by several servers, or any other
/// ``EventStore`` — through a subscription, like a read replica.
///
/// On start the read models are rebuilt or caught up from the log; then a task folds each batch
/// the subscription delivers in one local write transaction, moves the checkpoints to the batch's
/// last position, invalidates the query caches and wakes whoever waits for that position.
/// Decisions wait until every event of the command's streams and user is folded; a write's answer
/// waits (bounded) until the read models hold it, so a client reads its own writes. If the log
/// fails (a database restart), the task backs off and subscribes again from the checkpoints: no
/// event is skipped or folded twice.
final class FollowingReadModels: ReadModelHost {
    let log: any EventStore
    let store: ReadModelStore
    private let environment: Environment
    private let cache: QueryCache
    private let configuration: LogbookConfiguration
    /// Where payloads are opened (a shared log's keys, loaded batch by batch).
    private let payloads: PayloadKeys
    private let waiters = PositionWaiters()
    private let knownHead = Atomic<UInt64>(0)
    private let follower = Mutex<Task<Void, Never>?>(nil)
    /// Erasures heard from the log being finished (cancelled when the read models close).
    private let finishing = Mutex<[Task<Void, Never>]>([])
    /// Written after an erasure removed users: the data file's free pages may still hold the erased
    /// user's records until the next open rewrites the file compacted.
    private let compactionOwed: String

    /// Read models in directory `path` (created if needed) for `log`.
    init(log: any EventStore, path: String, configuration: LogbookConfiguration, cache: QueryCache, payloads: PayloadKeys) throws {
        self.log = log
        self.cache = cache
        self.configuration = configuration
        self.payloads = payloads
        compactionOwed = (path as NSString).appendingPathComponent("compaction-owed")
        try PrivateFiles.createDirectory(atPath: path)
        var options = EnvironmentOptions()
        options.initialMapSize = configuration.log.initialMapSize
        options.maxMapSize = configuration.log.maxMapSize
        options.maxDatabases = configuration.log.maxDatabases
        // Read models can always be rebuilt from the log: their commits need not wait for the disk.
        options.durability = .relaxed
        if FileManager.default.fileExists(atPath: compactionOwed) {
            _ = try Environment.compactDataFile(inDirectory: path, options: options)
            try FileManager.default.removeItem(atPath: compactionOwed)
        }
        environment = try Environment(path: path, options: options)
        do {
            store = try ReadModelStore(environment: environment)
        } catch {
            environment.close()
            throw error
        }
    }

    /// Records that the data file is to be rewritten compacted when it is next opened (after an
    /// erasure's rebuild: live, freed pages may keep the erased user's bytes until reused).
    func oweCompaction() throws {
        guard PrivateFiles.createFile(atPath: compactionOwed) else {
            throw LogbookError.storage("could not write \(compactionOwed)")
        }
    }

    /// Waits for the erasures heard so far to be finished here (keys destroyed, users removed from the read models).
    func erasuresFinished() async {
        for task in finishing.withLock({ $0 }) { await task.value }
    }

    func start(_ logbook: Logbook, progress: (RebuildProgress) -> Void) async throws {
        try await logbook.bringReadModelsUpToDate(progress: progress)
        let from = try liveFloor(logbook.control)
        waiters.advance(to: from)
        knownHead.store(try await log.headPosition().rawValue, ordering: .relaxed)
        let control = logbook.control
        // Erasures heard from the log are finished beside the following task, which a rebuild needs running.
        let heard: @Sendable ([String]) -> Void = { [weak logbook, weak self] users in
            let task = Task<Void, Never> { await logbook?.finishErasures(heardFromLog: users) }
            self?.finishing.withLock { $0.append(task) }
        }
        let task = Task { await self.follow(control: control, heardErasures: heard) }
        follower.withLock { $0 = task }
    }

    func withDecisionView<R>(streams: [String], subjects: [String], _ body: (inout DecisionView) throws -> R) async throws -> R {
        var versions: [String: UInt64?] = [:]
        var subjectPositions: [String: Position] = [:]
        var needed: UInt64 = 0
        for stream in Set(streams) {
            let last = try await log.readStream(stream, from: .max, direction: .backward, limit: 1).first
            versions[stream] = last?.streamVersion
            needed = max(needed, last?.position.rawValue ?? 0)
        }
        for subject in Set(subjects) {
            let last = try await log.readSubject(subject, from: Position(.max), direction: .backward, limit: 1).first
            subjectPositions[subject] = last?.position ?? .start
            needed = max(needed, last?.position.rawValue ?? 0)
        }
        try await waitUntilFolded(needed)
        return try environment.read { txn in
            var view = DecisionView(state: ReadModelState(projections: try store.projectionSet(txn), transaction: txn), streamVersions: versions)
            view.subjectPositions = subjectPositions
            view.whole = try store.whole(ReadModelState.kinds, through: needed, txn)
            return try body(&view)
        }
    }

    func waitUntilFolded(_ position: UInt64) async throws {
        guard waiters.reached < position else { return }
        guard await waiters.wait(for: position, timeout: configuration.readYourWritesTimeout) else {
            throw LogbookError.notCaughtUp(
                position: position, reason: "the read models stand at \(waiters.reached) after waiting \(configuration.readYourWritesTimeout)")
        }
    }

    func headPosition(in txn: ReadTransaction) throws -> UInt64 {
        max(knownHead.load(ordering: .relaxed), waiters.reached)
    }

    /// Puts the rebuilt read models back into live folding where their rebuild stopped; the
    /// following task sees them come back behind it and folds what they missed.
    func finishRebuild(_ kinds: Set<ReadModelKind>, control: ReadModelControl) async throws -> UInt64 {
        try store.environment.write { txn in
            var position: UInt64 = 0
            for kind in kinds {
                let checkpoint = try store.checkpoint(kind, txn)?.position ?? 0
                try store.setCheckpoint(kind, .init(position: checkpoint, codeVersion: kind.codeVersion, rebuilding: false), txn)
                position = max(position, checkpoint)
            }
            control.goLive(kinds)
            return position
        }
    }

    var catchesUpLiveReadModels: Bool { true }

    /// The log's head: at or past where the live tables stand, which the next ones must reach
    /// before they switch (past it, the following task skips for them what they already hold).
    func upgradeTarget(_ kinds: Set<ReadModelKind>) async throws -> UInt64 {
        try await log.headPosition().rawValue
    }

    /// Switches the next tables of `kinds` in when they have folded at least what the live ones
    /// hold (the following task may have folded more meanwhile: then nil, and the caller folds
    /// again). The switch and the following task's folds are write transactions of one
    /// environment, so the following task folds the batch after the switch into the new tables.
    func finishUpgrade(_ kinds: Set<ReadModelKind>, control: ReadModelControl) async throws -> UInt64? {
        let position: UInt64? = try environment.write { txn in
            var next: UInt64 = .max
            var live: UInt64 = 0
            for kind in kinds {
                next = min(next, try store.checkpoint(kind, .next, txn)?.position ?? 0)
                live = max(live, try store.checkpoint(kind, txn)?.position ?? 0)
            }
            guard next >= live else { return nil }
            try store.switchToNext(kinds, at: next, txn)
            control.goLive(kinds)
            return next
        }
        return position
    }

    func close() async {
        let task = follower.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        for finisher in finishing.withLock({ tasks in defer { tasks = [] }; return tasks }) {
            finisher.cancel()
            await finisher.value
        }
        waiters.close()
        environment.close()
    }

    // MARK: Following

    /// The lowest checkpoint of the live read models: where following resumes.
    private func liveFloor(_ control: ReadModelControl) throws -> UInt64 {
        let live = Set(ReadModelKind.allCases).subtracting(control.snapshot.rebuilding)
        return try environment.read { txn in
            try live.map { try store.checkpoint($0, txn)?.position ?? 0 }.min() ?? 0
        }
    }

    /// Subscribes from the live read models' floor and folds batch after batch, until the store
    /// closes or the task is cancelled; subscribes again after a failure (backing off) or when a
    /// read model comes back live behind the others.
    private func follow(control: ReadModelControl, heardErasures: @escaping @Sendable ([String]) -> Void) async {
        var projections = store.projectionSet(.init())
        var slots: ReadModelStore.Slots?
        var generations: [ReadModelKind: Int] = [:]
        var failures = 0
        while !Task.isCancelled {
            do {
                var iterator = log.subscribe(after: Position(try liveFloor(control)), filter: .all).makeAsyncIterator()
                var behind = false
                while !behind, let batch = try await iterator.nextBatch(limit: configuration.followBatchSize) {
                    // Finished beside the fold, from the moment the users read as erased here (a
                    // batch delivered again hears them again: the finishing then finds nothing to do).
                    let erased = try await prepareKeys(batch)
                    if !erased.isEmpty { heardErasures(erased) }
                    behind = try fold(batch, into: &projections, slots: &slots, control: control, generations: &generations)
                    failures = 0
                    if let head = try? await log.headPosition() { knownHead.store(head.rawValue, ordering: .relaxed) }
                }
                if !behind { return }
            } catch is CancellationError {
                return
            } catch {
                projections.dropCache()
                failures += 1
                configuration.logger.warning("following the log failed; subscribing again", metadata: [
                    "error": "\(error)", "attempt": "\(failures)",
                ])
                try? await Task.sleep(for: .milliseconds(min(5_000, 50 << min(failures, 7))))
            }
        }
    }

    /// Loads the keys the batch's payloads need (a shared log's), and forgets — before the batch
    /// is folded — the keys of the users it erases: their events fold as erased from here on.
    /// Returns those users.
    private func prepareKeys(_ batch: [SubscriptionElement]) async throws -> [String] {
        guard payloads.encrypts, let shared = payloads.shared else { return [] }
        var users = Set<BytewiseString>()
        var erased: [String] = []
        for case .event(let event) in batch {
            guard let user = event.envelope.subject else { continue }
            users.insert(BytewiseString(user))
            if event.envelope.type == EventType.userErased.rawValue { erased.append(user) }
        }
        try await shared.load(users.lazy.map(\.value), creating: false)
        for user in erased { shared.markErased(user) }
        return erased
    }

    /// Folds one batch into the live read models in one local write transaction, which reads
    /// the checkpoints and which tables are live (an upgrade may have switched some since the last
    /// batch). Returns true, folding nothing, when a live read model stands behind the batch (it
    /// came back from a rebuild): the caller subscribes again from there.
    private func fold(
        _ batch: [SubscriptionElement], into projections: inout ReadModelSet, slots: inout ReadModelStore.Slots?,
        control: ReadModelControl, generations: inout [ReadModelKind: Int]
    ) throws -> Bool {
        guard let first = batch.first?.position.rawValue, let last = batch.last?.position.rawValue else { return false }
        var summary = CommitSummary(position: last)
        var attempts = 0
        var behind = false
        do {
            try environment.write { txn in
                attempts += 1
                if attempts > 1 {
                    // The map grew and the transaction runs again: fold again from what is committed.
                    projections.dropCache()
                    summary = CommitSummary(position: last)
                }
                // Read in the write, so that a switch committed just before is seen whole, and
                // records an erasure deleted just before are not taken from the cache.
                let snapshot = control.snapshot
                for kind in ReadModelKind.allCases where generations[kind, default: 0] != snapshot.generation[kind, default: 0] {
                    projections.dropCache([kind])
                    generations[kind] = snapshot.generation[kind, default: 0]
                }
                var live = Set(ReadModelKind.allCases).subtracting(snapshot.rebuilding)
                let older = Set(snapshot.liveCodeVersion.keys)
                let current = try store.slots(txn)
                if current != slots {
                    projections = store.projectionSet(current)
                    slots = current
                }
                var checkpoints: [ReadModelKind: UInt64] = [:]
                for kind in live { checkpoints[kind] = try store.checkpoint(kind, txn)?.position ?? 0 }
                if checkpoints.values.contains(where: { $0 + 1 < first }) {
                    behind = true
                    return
                }
                let uniform = checkpoints.values.allSatisfy { $0 < first }
                projections.active = live
                var memo = payloads.keyMemo(events: batch.count)
                for element in batch {
                    guard case .event(let event) = element,
                          let fold = try FoldEvent.decode(event.envelope, payload: event.payload.span, payloads, remembering: &memo) else { continue }
                    if !uniform { projections.active = live.filter { checkpoints[$0, default: 0] < fold.position } }
                    let failed = try projections.apply(fold, txn, isolating: older)
                    if !failed.isEmpty {
                        live.subtract(failed)
                        projections.dropCache(failed)
                        try control.suspend(failed, store: store, txn)
                    }
                    summary.add(fold)
                }
                projections.active = live
                try projections.flush(txn)
                try store.setLiveCheckpoints(live.filter { checkpoints[$0, default: 0] < last }, position: last, codeVersion: snapshot.codeVersion, txn)
            }
        } catch {
            projections.dropCache()
            throw error
        }
        if behind { return true }
        projections.markFlushed()
        if projections.cachedCount > 200_000 { projections.dropCache() }
        if !summary.isEmpty { cache.invalidate(summary) }
        waiters.advance(to: last)
        return false
    }
}
