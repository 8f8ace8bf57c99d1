public import EventLog
import EventLogLMDB
import Foundation
import LMDB
import LogbookStorage
import Synchronization

/// Logbook as a library: the thing a host service embeds.
///
/// It takes commands (validated against the rules of <doc:DomainRules>, appended as events), keeps every
/// read model current, answers queries (cached, read-your-writes), rebuilds read models from the
/// log, verifies them, and answers any query as of a past position or time.
///
/// The log is any ``EventStore``. Embedded (``open(path:configuration:progress:)``), it is an
/// LMDB log and the read models fold inside its own transactions; over a log shared by several
/// servers (``open(following:readModelsAt:configuration:progress:)``), the read models live in a
/// local LMDB directory and follow the log by subscription.
///
/// ```swift
/// let logbook = try await Logbook.open(path: "./data")
/// try await logbook.execute(.registerUser(user: "u-1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")))
/// let week = try await logbook.weeklyStats(user: "u-1", containing: CivilDate(parsing: "2026-11-20")!)
/// await logbook.close()
/// ```
public final class Logbook: Sendable {
    /// The event log underneath (for reads, subscriptions, export).
    public let log: any EventStore
    public let configuration: LogbookConfiguration
    /// Where the read models live and how they keep up with the log.
    let host: any ReadModelHost
    let control = ReadModelControl()
    /// The upgrades in the background that are running.
    let upgrades = BackgroundUpgrades()
    package let cache: QueryCache
    /// The catalog's search index, derived from the live places read model (see ``forgetAnswers()``).
    package let catalogIndex = CatalogIndex()
    /// Goal days worked out from the live read models, kept between queries (see ``forgetAnswers()``).
    package let goalDayBlocks = GoalDayBlocks.kept()
    /// Where uncached query work runs, within each user's share (``LogbookConfiguration/queryWork``).
    let queryWork: QueryWorkPool
    /// The as-of folds running (each holds a user's read models in memory), one user's at a time.
    let asOfFolds = AsOfFolds()
    let locks = KeyedLock()
    /// The answers to keyed requests, beside the read models (backed up with the store).
    let requestKeys: RequestKeyStore
    /// Where keyed requests' answers are kept and looked up: ``requestKeys``, or the log itself
    /// when several servers share it.
    let keptAnswers: any RequestKeyKeeper
    /// The keyed requests being performed (``once(_:_:)``), by the id of their first event: the
    /// appends that carry it keep the request's answer in their commit (on a shared log).
    let keyedCalls = Mutex<[UUID: KeyedCall]>([:])
    /// Each user's payload key: where payloads are sealed and opened (the Privacy article).
    package let payloads: PayloadKeys

    var readModels: ReadModelStore { host.store }

    private init(
        log: any EventStore, configuration: LogbookConfiguration, directory: String, payloads: PayloadKeys,
        host: (QueryCache) throws -> any ReadModelHost
    ) throws {
        if let problem = configuration.queryWork.problem { throw LogbookError.invalidArgument(name: "queryWork", reason: problem) }
        self.log = log
        self.configuration = configuration
        self.payloads = payloads
        queryWork = QueryWorkPool(limits: configuration.queryWork)
        let cache = QueryCache(maxEntries: configuration.cacheEntries, maxBytes: configuration.cacheBytes)
        self.cache = cache
        self.host = try host(cache)
        requestKeys = try RequestKeyStore(
            path: (directory as NSString).appendingPathComponent("request-keys"), retention: configuration.idempotencyKeyRetention,
            clock: configuration.clock, durability: configuration.log.durability == .noSync ? .noSync : .relaxed)
        if let shared = log as? any SharedLog {
            keptAnswers = SharedRequestKeys(log: shared, retention: configuration.idempotencyKeyRetention, clock: configuration.clock)
        } else {
            keptAnswers = requestKeys
        }
    }

    /// Opens (creating if needed) the embedded Logbook in directory `path`: an LMDB log with the
    /// read models beside it, folded inline. Read models whose code version changed, that were
    /// left mid-rebuild, or that are behind the log are rebuilt or caught up before this returns;
    /// `progress` hears how that goes.
    public static func open(
        path: String, configuration: LogbookConfiguration = .init(),
        progress: @Sendable (RebuildProgress) -> Void = { _ in }
    ) async throws -> Logbook {
        let log = try LMDBEventStore(path: path, configuration: configuration.log)
        var keys: UserKeyStore?
        var opened: Logbook?
        do {
            keys = try await Self.openKeys(path: path, log: log, configuration: configuration)
            let payloads = try PayloadKeys(store: keys)
            let logbook = try Logbook(log: log, configuration: configuration, directory: path, payloads: payloads) { cache in
                try InlineReadModels(log: log, cache: cache, payloads: payloads)
            }
            opened = logbook
            try await logbook.host.start(logbook, progress: progress)
            try await logbook.finishCutOffErasures()
            return logbook
        } catch {
            await opened?.upgrades.stop(overlapping: nil)
            keys?.close()
            await log.close()
            throw error
        }
    }

    /// The key store of the embedded Logbook at `path` (`keys/`): opened if it exists; else
    /// created — encrypting as the configuration says for a new, empty log, keeping plaintext for
    /// a log written before payloads were encrypted (``PayloadFormat/plaintext``; `logbook
    /// encrypt-existing` rewrites one). The log's own environment records the format too, so an
    /// encrypted log whose key store is missing is refused, never read as plaintext.
    private static func openKeys(path: String, log: LMDBEventStore, configuration: LogbookConfiguration) async throws -> UserKeyStore? {
        let directory = (path as NSString).appendingPathComponent("keys")
        let exists = FileManager.default.fileExists(atPath: directory + "/data.mdb")
        let marker = try PayloadFormatMarker(log.environment, readOnly: configuration.log.readOnly)
        let recorded = try marker.read()
        if !exists, let recorded, recorded != .plaintext {
            throw LogbookError.storage(
                "the log at \(path) keeps payloads encrypted (\(recorded.rawValue)) but its key store \(directory) is missing: "
                    + "restore keys/data.mdb (a backup's keys.mdb) before opening it")
        }
        if configuration.log.readOnly && !exists { return nil }
        let empty = try await log.headPosition() == .start
        let format: PayloadFormat = exists || empty ? configuration.payloadEncryption : .plaintext
        if !exists, !format.seals {
            throw LogbookError.invalidArgument(
                name: "payloadEncryption", reason: "a new store is made in \(PayloadFormat.current.rawValue); \(format.rawValue) is read, never written")
        }
        let durability: EnvironmentOptions.Durability = switch configuration.log.durability {
        case .durable: .durable
        case .relaxed: .relaxed
        case .noSync: .noSync
        }
        let keys = try UserKeyStore(directory: directory, creatingWith: format, readOnly: configuration.log.readOnly, durability: durability)
        if let recorded, recorded != keys.format {
            keys.close()
            throw LogbookError.storage(
                "the log at \(path) keeps payloads as \(recorded.rawValue) but its key store says \(keys.format.rawValue): they belong to different stores")
        }
        if recorded == nil && !configuration.log.readOnly {
            do {
                try marker.write(keys.format)
            } catch {
                keys.close()
                throw error
            }
        }
        return keys
    }

    /// Opens a Logbook over `log` — a log this process shares with others, such as PostgreSQL —
    /// with its read models in the local directory `readModelsAt`, following the log by
    /// subscription. The read models are rebuilt or caught up before this returns. Closing the
    /// Logbook closes `log` too.
    ///
    /// A shared log (``SharedLog``) keeps each user's key beside the events and seals payloads as
    /// the embedded store does, if it had no event when its first server opened it
    /// (``LogbookConfiguration/payloadEncryption``); one written before keeps plaintext.
    public static func open(
        following log: any EventStore, readModelsAt path: String, configuration: LogbookConfiguration = .init(),
        progress: @Sendable (RebuildProgress) -> Void = { _ in }
    ) async throws -> Logbook {
        let payloads: PayloadKeys
        do {
            payloads = try await sharedPayloadKeys(log, configuration)
        } catch {
            await log.close()
            throw error
        }
        let logbook = try Logbook(log: log, configuration: configuration, directory: path, payloads: payloads) { cache in
            try FollowingReadModels(log: log, path: path, configuration: configuration, cache: cache, payloads: payloads)
        }
        do {
            try await logbook.host.start(logbook, progress: progress)
            try await logbook.finishCutOffSharedErasures()
            return logbook
        } catch {
            await logbook.close()
            throw error
        }
    }

    /// The payload keys of a log followed from here: as a shared log records its format (the
    /// first server to open it records it), plaintext for any other log.
    private static func sharedPayloadKeys(_ log: any EventStore, _ configuration: LogbookConfiguration) async throws -> PayloadKeys {
        guard let shared = log as? any SharedLog else { return .plaintext }
        if configuration.payloadEncryption.isEncrypted, !configuration.payloadEncryption.seals {
            throw LogbookError.invalidArgument(
                name: "payloadEncryption",
                reason: "a new log is made in \(PayloadFormat.current.rawValue); \(configuration.payloadEncryption.rawValue) is read, never written")
        }
        let recorded = try await shared.payloadFormat(proposing: configuration.payloadEncryption.rawValue)
        guard let format = PayloadFormat(rawValue: recorded) else {
            throw LogbookError.storage("the shared log keeps payloads as \"\(recorded)\", which this build does not know")
        }
        guard format.isEncrypted else { return .plaintext }
        return try PayloadKeys(shared: SharedUserKeys(log: shared, format: format))
    }

    /// Stops following the log, commits what is queued and closes the log.
    public func close() async {
        await upgrades.stop(overlapping: nil)
        await queryWork.shutdown()
        await host.close()
        requestKeys.close()
        await log.close()
        // After the log: a commit still in flight folds with the keys.
        payloads.store?.close()
    }

    /// Rebuilds or catches up every read model that is not current. A read model whose code
    /// version changed while its old version is complete is upgraded in the background instead
    /// (``LogbookConfiguration/upgradesInBackground``), as is one whose upgrade was cut off.
    func bringReadModelsUpToDate(progress: (RebuildProgress) -> Void) async throws {
        let head = try await log.headPosition().rawValue
        var fresh: Set<ReadModelKind> = []
        var behind: Set<ReadModelKind> = []
        var upgrade: Set<ReadModelKind> = []
        var oldVersions: [ReadModelKind: Int] = [:]
        try readModels.environment.read { txn in
            for kind in ReadModelKind.allCases {
                let checkpoint = try readModels.checkpoint(kind, txn)
                // A next version of this code (one of another, say after a rolled-back deploy, is
                // not worth resuming: it is emptied below unless this code version upgrades too).
                let upgrading = try readModels.checkpoint(kind, .next, txn)?.codeVersion == kind.codeVersion
                if let checkpoint, checkpoint.codeVersion != kind.codeVersion, configuration.upgradesInBackground, !checkpoint.rebuilding,
                   checkpoint.position >= head || host.catchesUpLiveReadModels {
                    // Complete: it answers, folding what comes, until its new version replaces it.
                    upgrade.insert(kind)
                    oldVersions[kind] = checkpoint.codeVersion
                } else if checkpoint == nil || checkpoint?.codeVersion != kind.codeVersion {
                    fresh.insert(kind)
                } else if checkpoint?.rebuilding == true || checkpoint!.position < head {
                    behind.insert(kind)
                }
                if upgrading && !fresh.contains(kind) { upgrade.insert(kind) }
            }
        }
        control.keepLiveCodeVersions(oldVersions)
        // An old version a crash left behind between its switch and its emptying.
        let idle = Set(ReadModelKind.allCases).subtracting(upgrade)
        try readModels.environment.write { txn in try readModels.clearNext(idle, txn) }
        if !fresh.isEmpty { try await rebuild(fresh, fresh: true, progress: progress) }
        if !behind.isEmpty { try await rebuild(behind, fresh: false, progress: progress) }
        if configuration.upgradesInBackground {
            startUpgrades(upgrade)
        } else {
            // An upgrade cut off before this open, finished before it returns.
            try await buildNextVersions(upgrade, fresh: false, progress: progress)
        }
    }

    // MARK: Reading read models

    /// Runs `body` with the live read models in one read transaction.
    func read<R>(_ body: (inout ReadModelSet, any TableReader) throws -> R) throws -> R {
        // Pinned before the transaction begins: blocks worked out from read models a rebuild
        // replaces meanwhile are not kept.
        let blocks = goalDayBlocks.pinned()
        // Checked before the transaction too: live tables only ever switch to this code's.
        let older = control.snapshot.liveCodeVersion
        return try readModels.environment.read { txn in
            var projections = try readModels.projectionSet(txn)
            projections.goalDayBlocks = blocks
            projections.olderTables = Set(older.keys)
            return try body(&projections, LMDBTableReader(txn))
        }
    }

    /// Forgets every answer derived from the live read models as they were — the cached answers
    /// and the catalog's search index — once the read models were rebuilt, upgraded or had users
    /// erased.
    func forgetAnswers() {
        cache.clear()
        catalogIndex.reset()
        goalDayBlocks.clear()
    }

    /// The clock's "now", or the caller's.
    func now(_ context: CommandContext) -> Timestamp { context.now ?? configuration.clock.now() }
}
