public import EventLog
import Foundation
import LMDB
import Synchronization

/// Logbook as a library: the thing a host service embeds.
///
/// It takes commands (validated against the rules of DESIGN §4, appended as events), keeps every
/// read model current inline (in the same transaction as the events), answers queries (cached,
/// read-your-writes), rebuilds read models from the log, verifies them, and answers any query as
/// of a past position or time.
///
/// ```swift
/// let logbook = try await Logbook.open(path: "./data")
/// try await logbook.registerUser("u-1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin"))
/// let week = try await logbook.weeklyStats(user: "u-1", containing: CivilDate(parsing: "2026-11-20")!)
/// await logbook.close()
/// ```
public final class Logbook: Sendable {
    /// The event log underneath (for reads, subscriptions, export).
    public let log: LMDBEventStore
    public let configuration: LogbookConfiguration
    let readModels: ReadModelStore
    let control = ProjectionControl()
    let cache: QueryCache
    let locks = KeyedLock()
    /// The inline projections (nil for a read-only Logbook).
    let inline: Mutex<InlineProjector?> = Mutex(nil)

    private init(log: LMDBEventStore, readModels: ReadModelStore, configuration: LogbookConfiguration) {
        self.log = log
        self.readModels = readModels
        self.configuration = configuration
        self.cache = QueryCache(maxEntries: configuration.cacheEntries, maxBytes: configuration.cacheBytes)
    }

    /// Opens (creating if needed) the Logbook in directory `path`. Read models whose code
    /// version changed, that were left mid-rebuild, or that are behind the log are rebuilt or
    /// caught up before this returns; `progress` hears how that goes.
    public static func open(
        path: String, configuration: LogbookConfiguration = .init(),
        progress: @Sendable (RebuildProgress) -> Void = { _ in }
    ) async throws -> Logbook {
        let log = try LMDBEventStore(path: path, configuration: configuration.log)
        do {
            let readModels = try ReadModelStore(environment: log.environment)
            let logbook = Logbook(log: log, readModels: readModels, configuration: configuration)
            if !configuration.log.readOnly {
                let cache = logbook.cache
                let projector = InlineProjector(store: readModels, control: logbook.control) { summary in
                    cache.invalidate(summary)
                }
                try log.attach(projector)
                logbook.inline.withLock { $0 = projector }
                try await logbook.bringReadModelsUpToDate(progress: progress)
            }
            return logbook
        } catch {
            await log.close()
            throw error
        }
    }

    /// Commits what is queued and closes the log.
    public func close() async {
        await log.close()
    }

    /// Rebuilds or catches up every read model that is not current.
    func bringReadModelsUpToDate(progress: (RebuildProgress) -> Void) async throws {
        let head = try await log.headPosition().rawValue
        var fresh: Set<ProjectionKind> = []
        var behind: Set<ProjectionKind> = []
        try readModels.environment.read { txn in
            for kind in ProjectionKind.allCases {
                let checkpoint = try readModels.checkpoint(kind, txn)
                if checkpoint == nil || checkpoint?.codeVersion != kind.codeVersion {
                    fresh.insert(kind)
                } else if checkpoint?.rebuilding == true || checkpoint!.position < head {
                    behind.insert(kind)
                }
            }
        }
        if !fresh.isEmpty { try await rebuild(fresh, fresh: true, progress: progress) }
        if !behind.isEmpty { try await rebuild(behind, fresh: false, progress: progress) }
    }

    // MARK: Reading read models

    /// Runs `body` with the live read models and the log in one read transaction.
    func read<R>(_ body: (inout ProjectionSet, ReadTransaction) throws -> R) throws -> R {
        try readModels.environment.read { txn in
            var projections = readModels.projectionSet()
            return try body(&projections, txn)
        }
    }

    /// The clock's "now", or the caller's.
    func now(_ context: CommandContext) -> Timestamp { context.now ?? configuration.clock.now() }
}
