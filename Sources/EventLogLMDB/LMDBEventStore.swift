public import EventLog
import Foundation
public import LMDB
import Synchronization

/// The event log stored in LMDB: the ``EventStore`` a Logbook process embeds.
///
/// One process writes (through a single writer thread with group commit); any number of readers,
/// in this process or others (opened with ``LogConfiguration/readOnly``), read consistent
/// snapshots without blocking it. Open one store per directory per process, and ``close()`` it
/// before the process ends so queued appends are committed.
public final class LMDBEventStore: EventStore {
    /// The directory holding the log.
    public let path: String
    public let configuration: LogConfiguration
    /// The LMDB environment holding the log. Code that keeps read models beside the log (inline
    /// projections) opens its own named databases here and writes them from a
    /// ``LogCommitObserver``, in the log's own transactions.
    public let environment: Environment
    let databases: LogDatabases
    let watcher: HeadWatcher
    /// The client-chosen event ids not yet folded into the id index's tree.
    let idJournal: IdJournal
    /// Names resolved by earlier short reads (all in read-only transactions).
    let committedNames = CommittedNames()
    private let writer: LogWriter?
    private let writerLock: WriterLockFile?
    private let isClosed = Atomic<Bool>(false)

    /// Opens (creating if needed) the log in directory `path`.
    public init(path: String, configuration: LogConfiguration = .init()) throws {
        self.path = path
        self.configuration = configuration
        idJournal = IdJournal(foldThreshold: configuration.idJournalFoldThreshold)
        if configuration.readOnly {
            writerLock = nil
        } else {
            try PrivateFiles.createDirectory(atPath: path)
            writerLock = try WriterLockFile(directory: path)
        }
        var options = EnvironmentOptions()
        options.readOnly = configuration.readOnly
        options.initialMapSize = configuration.initialMapSize
        options.maxMapSize = configuration.maxMapSize
        options.durability = switch configuration.durability {
        case .durable: .durable
        case .relaxed: .relaxed
        case .noSync: .noSync
        }
        options.maxDatabases = configuration.maxDatabases
        environment = try Environment(path: path, options: options)
        do {
            databases = try LogDatabases.open(in: environment)
            if !configuration.readOnly { try IdIndexBuilder.buildIfNeeded(environment, databases) }
        } catch {
            environment.close()
            throw error
        }
        let databases = self.databases
        let idJournal = self.idJournal
        let head = try environment.read { txn in
            try idJournal.refresh(in: txn, databases)
            return try LogReader(txn: txn, databases: databases, resolver: NameResolver(databases: databases)).headPosition()
        }
        watcher = HeadWatcher(head: head)
        writer = configuration.readOnly
            ? nil
            : LogWriter(environment: environment, databases: databases, configuration: configuration, watcher: watcher, journal: idJournal)
    }

    /// Commits what is queued, stops the writer, wakes subscribers (their sequences end) and
    /// closes the environment. Safe to call twice.
    public func close() async {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        await writer?.close()
        watcher.close()
        environment.close()
        writerLock?.release()
    }

    /// Installs the observer that runs inside every write transaction (inline projections).
    /// Attach it before the first append; only one can be attached.
    public func attach(_ observer: any LogCommitObserver) throws {
        try requireWriter().attach(observer)
    }

    /// Counters of the writer's work (nil for a read-only store).
    public var statistics: WriterStatistics? { writer?.statistics }

    // MARK: Internal helpers

    func ensureOpen() throws(EventStoreError) {
        if isClosed.load(ordering: .acquiring) { throw .closed }
    }

    func requireWriter() throws(EventStoreError) -> LogWriter {
        try ensureOpen()
        guard let writer else { throw .readOnly }
        return writer
    }

    /// Runs `body` with a reader over one read transaction.
    func withReader<R>(resolver: NameResolver? = nil, _ body: (LogReader) throws -> R) throws -> R {
        try ensureOpen()
        let resolver = resolver ?? NameResolver(databases: databases, shared: committedNames)
        return try environment.read { txn in
            try body(LogReader(txn: txn, databases: databases, resolver: resolver))
        }
    }
}

@available(*, unavailable)
extension NameResolver: Sendable {}
