public import EventLog
import Foundation

extension Logbook {
    /// How this store keeps its events' payloads: encrypted per user (new stores), or plaintext
    /// (stores from before, and logs shared in PostgreSQL).
    public var payloadFormat: PayloadFormat { payloads.format }

    /// Loads the keys that opening `events`' payloads needs — once per user: a log shared in
    /// PostgreSQL keeps them there — so that ``WireEvent/init(_:of:)`` can open them. Call it on
    /// events read from the log before making their wire form; an embedded store needs nothing.
    public func loadKeys(opening events: some Sequence<RecordedEvent>) async throws {
        try await payloads.prepare(opening: events.lazy.map(\.envelope))
    }

    /// ``loadKeys(opening:)`` for the events after `after` through `through`, before a scan of
    /// them makes their wire form (a shared log's events are read once more, for their users).
    public func loadKeys(openingEventsAfter after: Position, through: Position) async throws {
        guard payloads.shared != nil, payloads.encrypts, after < through else { return }
        var users = Set<BytewiseString>()
        try await log.scan(after: after, through: through, filter: .all, chunkSize: 16_384) { envelope, _, _ in
            if let subject = envelope.subject { users.insert(BytewiseString(subject)) }
            return true
        }
        try await payloads.prepare(users.lazy.map(\.value), creating: false)
    }

    /// How the embedded store at `path` keeps payloads, read from its key store without opening
    /// the store (plaintext if it has none).
    public static func payloadFormat(ofStoreAt path: String) throws -> PayloadFormat {
        let directory = (path as NSString).appendingPathComponent("keys")
        guard FileManager.default.fileExists(atPath: directory + "/data.mdb") else { return .plaintext }
        let keys = try UserKeyStore(directory: directory, creatingWith: .plaintext, readOnly: true, durability: .durable)
        defer { keys.close() }
        return keys.format
    }

    /// Finishes erasures a crash cut off after the key was destroyed and before the read models
    /// were cleared of the user (run on open): erased users the profile read model still holds
    /// are removed from every read model.
    func finishCutOffErasures() async throws {
        try await locks.withLock(Self.privacyLock) { try await finishHeldErasures() }
    }

    /// Forgets `user` (GDPR Art. 17; see <doc:Privacy>): appends `user.erased` to the user's
    /// stream, then destroys the user's key (and rewrites the key store compacted, so the key's
    /// bytes are gone from its file), then deletes the user's records from every read model —
    /// which leaves them as a rebuild would, the user's events being unreadable now — and clears
    /// the caches. Afterwards the user's events are
    /// still in the log (positions, types, times, stream names and the user id) but their payloads
    /// read as erased everywhere: queries, the timeline, exports (tombstones) and backups made from
    /// now on. Commands and imports for the user are refused (``DomainRule/userErased``).
    ///
    /// A retry after it finished writes nothing (`alreadyApplied`); an erasure a crash cut off
    /// after the key was destroyed is finished by the retry, or when the store opens again.
    /// Erasures and backups take turns. The erasure costs what the user owns — their events are
    /// read for their workouts' ids, and their records deleted in one write transaction — not the
    /// size of the store: commands and queries of other users keep answering, and the erased
    /// user's queries answer as for no one from the moment the key is gone. A rebuild in place
    /// already running is waited for; an upgrade is stopped and goes on afterwards (while one
    /// replaces tables of an older code version, the log is folded again instead).
    ///
    /// On a log several servers share, the key is destroyed in the log's key table (which is then
    /// rewritten, so its bytes leave the table's file); every server hears `user.erased` from the
    /// log, forgets the key and removes the user from its read models
    /// (``finishErasures(heardFromLog:)``).
    @discardableResult
    public func erase(user: String, context: CommandContext = .init()) async throws -> CommandResult {
        guard payloads.encrypts else { throw PayloadKeys.plaintextStore(user) }
        if let shared = payloads.shared { return try await erase(user: user, context: context, sharedKeys: shared) }
        return try await locks.withLock(Self.privacyLock) {
            let stream = "user-\(user)"
            if try isErased(user) {
                // Erased before, but the read models may still hold the user (the removal was cut
                // off): the profile read model holds every registered user, so it tells.
                try await removeIfHolding([user])
                return CommandResult(
                    stream: stream, firstPosition: 0, lastPosition: 0, streamVersion: try await log.streamVersion(stream) ?? 0,
                    alreadyApplied: true, workoutId: nil)
            }
            let result = try await decideAndAppendAlone(.eraseUser(user: user), context)
            try payloads.destroyKey(of: user)
            try await removeFromReadModels([user])
            return result
        }
    }

    /// Waits until this server has finished the erasures it has heard from a shared log so far
    /// (those users removed from its read models); at once for an embedded store.
    package func erasuresFinished() async {
        await (host as? FollowingReadModels)?.erasuresFinished()
    }

    /// True if the profile read model holds `user` (read directly: queries answer an erased
    /// user as no one even before the removal).
    private func readModelsHold(_ user: String) throws -> Bool {
        try read { projections, txn in
            do {
                _ = try projections.requireProfile(user, txn)
                return true
            } catch let error as LogbookError where error.code == .notFound {
                return false
            }
        }
    }

    /// ``erase(user:context:)`` on a shared log: the erasure is marked begun in the key table,
    /// `user.erased` appended, then the key destroyed — a crash in between is finished by the next
    /// server to open the log, or at once by any server following it, which hears the event.
    private func erase(user: String, context: CommandContext, sharedKeys shared: SharedUserKeys) async throws -> CommandResult {
        try await locks.withLock(Self.privacyLock) {
            let stream = "user-\(user)"
            try await shared.load([user], creating: false)
            if shared.entry(for: user)?.isErased == true {
                try await removeIfHolding([user])
                return CommandResult(
                    stream: stream, firstPosition: 0, lastPosition: 0, streamVersion: try await log.streamVersion(stream) ?? 0,
                    alreadyApplied: true, workoutId: nil)
            }
            guard let sharedLog = log as? any SharedLog else { throw LogbookError.storage("the shared keys' log is not shared") }
            try await sharedLog.beginErasing(user)
            let result = try await decideAndAppendAlone(.eraseUser(user: user), context)
            shared.markErased(user)
            try await sharedLog.destroyUserKey(user)
            shared.markDestroyed(user)
            try await removeIfHolding([user])
            return result
        }
    }

    /// Finishes, on this server, the erasures of `users` whose `user.erased` its read models just
    /// folded (made here or by another server): their keys are forgotten here already; the key is
    /// destroyed in the shared table if the erasing server has not done so yet (a crash cut it
    /// off), and they are removed from every read model. Failures are logged: the next open
    /// finishes what is left. Meanwhile queries of those users answer as for no user.
    func finishErasures(heardFromLog users: [String]) async {
        guard let shared = payloads.shared, let sharedLog = log as? any SharedLog else { return }
        for user in users { shared.markErased(user) }
        forgetAnswers()
        // Tried again (backing off up to 30 s) until the read models close.
        for attempt in 0..<12 where !Task.isCancelled {
            do {
                try await locks.withLock(Self.privacyLock) {
                    // This server's own erasure destroyed the key and removed the user already.
                    for user in users where !shared.destroyedHere(user) { try await sharedLog.destroyUserKey(user) }
                    try await removeIfHolding(users)
                }
                return
            } catch {
                configuration.logger.error("finishing an erasure heard from the log failed", metadata: [
                    "users": "\(users)", "error": "\(error)", "attempt": "\(attempt + 1)",
                ])
                if case .closed? = (error as? EventStoreError)?.code { return }
                try? await Task.sleep(for: .milliseconds(min(30_000, 250 << attempt)))
            }
        }
    }

    /// Finishes the erasures of a shared log that a crash cut off (run on open): keys still held
    /// by users whose `user.erased` is in the log are destroyed, and erased users the read models
    /// still hold are removed from them.
    func finishCutOffSharedErasures() async throws {
        guard payloads.encrypts, let shared = payloads.shared, let sharedLog = log as? any SharedLog, !configuration.log.readOnly else { return }
        var destroyed = false
        for user in try await sharedLog.unfinishedErasures() where try await hasErasure(user) {
            shared.markErased(user)
            try await sharedLog.destroyUserKey(user)
            shared.markDestroyed(user)
            destroyed = true
        }
        do {
            try await sharedLog.finishOwedKeyCompaction()
        } catch {
            // The key is destroyed already; its bytes leave the table's file at the next attempt.
            configuration.logger.warning("rewriting the users' keys table failed; the next open or erasure tries again", metadata: ["error": "\(error)"])
        }
        let erased = try await sharedLog.erasedUsers()
        for user in erased { shared.markErased(user) }
        // Upgrades this open started may have opened payloads of a key destroyed just now.
        try await locks.withLock(Self.privacyLock) { try await removeIfHolding(erased, afterLiveErasure: destroyed) }
    }

    /// True if `user`'s own stream (`user-<id>`, a few events: registration, profile changes)
    /// holds a `user.erased` (an import may have appended after it, so it need not be the last).
    private func hasErasure(_ user: String) async throws -> Bool {
        var from = UInt64.max
        while true {
            let page = try await log.readStream("user-\(user)", from: from, direction: .backward, limit: 256)
            if page.contains(where: { $0.type == EventType.userErased.rawValue }) { return true }
            guard let last = page.last, page.count == 256, last.streamVersion > 0 else { return false }
            from = last.streamVersion - 1
        }
    }

    /// Removes from every read model (``removeFromReadModels(_:)``) those of `users` the profile
    /// read model — which holds every registered user — still holds, or, `afterLiveErasure`, all
    /// of them if a rebuild or upgrade is running (it may have opened their payloads before the
    /// key went, and the profiles it owns tell nothing); read models following a shared log then
    /// owe a compaction of their file at the next open. Called under the privacy lock.
    private func removeIfHolding(_ users: [String], afterLiveErasure: Bool = true) async throws {
        let running = afterLiveErasure && !control.snapshot.running.isEmpty
        let held = try running ? users : users.filter { try readModelsHold($0) }
        guard !held.isEmpty else { return }
        // Owed first: a crash before the removal commits must not leave the freed pages uncompacted.
        try (host as? FollowingReadModels)?.oweCompaction()
        try await removeFromReadModels(held)
    }

    /// Removes users whose keys were destroyed from every read model, while commands and queries
    /// of other users go on: each read model forgets their records — the key ranges that hold
    /// the users' own records and their workouts' (``RecordOwner``) — in the live tables and the
    /// next ones, in one write transaction, and whoever folds or caches read models forgets what
    /// it held of them. The work is what the users own: their events are read (for their workouts'
    /// ids, which stream names keep) and their records deleted, not the log folded again.
    ///
    /// Work running already may have opened their payloads before the key went. A rebuild in
    /// place is waited for (it would write them back); upgrades are stopped, and go on from their
    /// last chunk once their next tables have forgotten the users too. While an upgrade replaces
    /// live tables of an older code version — whose keys the running code cannot read — the whole
    /// log is folded again instead, beside the live tables, and switched in.
    func removeFromReadModels(_ users: [String]) async throws {
        let kinds = Set(ReadModelKind.allCases)
        let started = ContinuousClock.now
        forgetAnswers()
        var owners: [RecordOwner] = []
        for user in users { owners.append(RecordOwner(user: user, workoutIds: try await workoutIds(of: user))) }
        var stopped: Set<ReadModelKind> = []
        var removal = Removal.unfinished
        // Declared first, so it runs after the ownership below ends. Stopped upgrades go on from
        // their last chunk once their next tables forgot the users; if the removal did not finish
        // (it failed, or was cancelled, even while waiting), they start again from scratch: their
        // next tables may hold what they opened before the key went.
        defer {
            switch removal {
            case .forgotten:
                startUpgrades(stopped)
            case .rebuilt:
                break
            case .unfinished where !stopped.isEmpty:
                do {
                    try readModels.environment.write { txn in try readModels.clearNext(stopped, txn) }
                    startUpgrades(stopped)
                } catch {
                    configuration.logger.error("emptying the next tables of upgrades an erasure stopped failed; they start again when the store opens", metadata: [
                        "error": "\(error)",
                    ])
                }
            case .unfinished:
                break
            }
        }
        while true {
            stopped.formUnion(await upgrades.stop(overlapping: nil))
            if control.beginUpgrade(kinds, erasing: true) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        defer { control.endUpgrade(kinds, erasing: true) }
        if control.snapshot.liveCodeVersion.isEmpty {
            let forgotten = try readModels.environment.write { txn in
                let forgotten = try readModels.forget(owners, in: kinds, txn)
                // In the transaction: whoever folds next, in a transaction of its own, forgets what
                // it cached of the user first.
                control.invalidateCaches(kinds)
                return forgotten
            }
            forgetAnswers()
            removal = .forgotten
            configuration.logger.info("erased users removed from the read models", metadata: [
                "users": "\(users.count)", "workouts": "\(owners.reduce(0) { $0 + $1.workoutIds.count })", "records": "\(forgotten)",
                "milliseconds": "\((ContinuousClock.now - started).microseconds / 1_000)",
            ])
        } else {
            try await foldAndSwitchNextVersions(kinds, fresh: true) { _ in }
            removal = .rebuilt
        }
    }

    /// How ``removeFromReadModels(_:)`` ended.
    private enum Removal {
        /// Not (yet): nothing switched in, nothing forgotten.
        case unfinished
        /// The users' records were deleted where they were, in the next tables of the stopped
        /// upgrades too, which go on.
        case forgotten
        /// Every read model was built again beside the live ones and switched in.
        case rebuilt
    }

    /// The ids of the workouts `user` recorded: the streams `workout-<id>` of the user's events,
    /// read through the log's subject index (stream names stay readable after the key is gone).
    ///
    /// A workout's id is never used again now, but a log written before that rule may hold a
    /// workout stream another user took over after `user` was erased: its records are that
    /// user's (the erased user's events no longer open), and the workout's record in the
    /// activities read model names them. Such a workout is left out; one whose record names
    /// `user` (compared as bytes), or that has none, is `user`'s, whoever else's events its
    /// stream holds.
    private func workoutIds(of user: String) async throws -> [String] {
        var ids = Set<BytewiseString>()
        var from = Position.start
        // Whole events are read (payloads too, up to 1 MiB each): a short page bounds the memory.
        let pageSize = 64
        while true {
            let page = try await log.readSubject(user, from: from, direction: .forward, limit: pageSize)
            for event in page {
                if let id = DomainEvent.workoutId(ofStream: event.envelope.stream) { ids.insert(BytewiseString(id)) }
            }
            guard page.count == pageSize, let last = page.last else { break }
            from = Position(last.envelope.position.rawValue + 1)
        }
        let owned = try read { projections, txn in
            try ids.map(\.value).filter { id in
                guard let owner = try projections.workoutOwner(id, txn) else { return true }
                return owner.utf8.elementsEqual(user.utf8)
            }
        }
        return owned.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Removes from the read models erased users they still hold — an erasure whose removal
    /// failed, or a crash cut off — so that nothing copied or compared afterwards holds them.
    /// Called under the privacy lock.
    func finishHeldErasures() async throws {
        guard payloads.encrypts, !configuration.log.readOnly, let store = payloads.store else { return }
        try await removeIfHolding(try store.erasedUsers(), afterLiveErasure: false)
    }
}
