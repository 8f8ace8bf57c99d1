public import EventLog
public import Foundation
import Logging
import NIOCore
public import PostgresNIO
public import ServiceLifecycle
import Synchronization

/// The event log in PostgreSQL: one log shared by several Logbook servers, with the guarantees
/// of the embedded log (the LogContract article, in Logbook's documentation).
///
/// - Positions are gapless and in commit order: each append transaction locks the one row of
///   `logbook.head` first and holds it until it commits (no sequence, no high-water mark), so
///   whoever sees position p sees everything below it. Commits are one at a time across all
///   servers; throughput comes from batching: appends of this process that arrive together share
///   one call of the SQL function `logbook.append` (one round trip, one transaction, one fsync).
/// - Event ids are unique in the whole log (a unique index); retries answer the original positions.
/// - Every record carries an XXH64 checksum of its content, verified on every read.
/// - Subscriptions read the table by position, woken by `LISTEN/NOTIFY` on `logbook_head`, and
///   poll the head every ``PostgresLogConfiguration/pollInterval`` because notifications are lost
///   while the listening connection reconnects.
/// - The schema is created and migrated by ``prepare()`` (versioned, `Schemas/postgres/`).
///
/// Use ``connect(_:configuration:)`` to get a running store over a pool of its own; or create
/// the `PostgresClient` yourself, run it and this store (a `Service`) in your `ServiceGroup`,
/// and call ``prepare()`` before the first use.
public final class PostgresEventStore: EventStore, Service {
    public let client: PostgresClient
    public let configuration: PostgresLogConfiguration
    public let statistics: WriterStatistics?
    let watcher = HeadWatcher(head: 0)
    let limits: AppendLimits
    private let queue: CommitQueue
    private let lifecycle = Mutex<(closed: Bool, owned: Task<Void, Never>?)>((false, nil))

    /// A store over `client`, which the caller runs (`client.run()`); call ``prepare()`` before use.
    public init(client: PostgresClient, configuration: PostgresLogConfiguration = .init()) {
        self.client = client
        self.configuration = configuration
        let statistics = WriterStatistics()
        self.statistics = statistics
        limits = AppendLimits(maxEventBytes: configuration.maxEventBytes)
        let watcher = self.watcher
        let clock = configuration.clock
        let timeout = configuration.operationTimeout
        let logger = configuration.logger
        queue = CommitQueue(configuration: configuration) { items in
            let started = ContinuousClock.now
            let call = AppendCall(items: items, recordedAt: clock.now())
            let results: [KeepingAppendResult]
            do {
                results = try await AppendTransaction(call: call, client: client, timeout: timeout, logger: logger).run()
            } catch {
                throw PostgresErrors.mapped(error)
            }
            var head: UInt64 = 0
            var written = 0
            var rejected = 0
            for (item, result) in zip(items, results) {
                switch result.result {
                case .success(let result):
                    head = max(head, result.lastPosition.rawValue)
                    if !result.alreadyWritten { written += item.request.events.count }
                case .failure: rejected += 1
                }
            }
            statistics.record(events: written, appends: items.count, rejected: rejected, duration: ContinuousClock.now - started)
            if head > 0 { watcher.publish(head) }
            return results
        }
    }

    /// Connects to the database at `url` with a pool of its own, creates or migrates the schema,
    /// and starts following the head. ``close()`` stops it all.
    public static func connect(_ url: PostgresURL, configuration: PostgresLogConfiguration = .init()) async throws -> PostgresEventStore {
        var clientConfiguration = url.configuration
        clientConfiguration.options.connectTimeout = configuration.operationTimeout
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: configuration.logger)
        let store = PostgresEventStore(client: client, configuration: configuration)
        let task = Task {
            await withDiscardingTaskGroup { group in
                group.addTask { await client.run() }
                group.addTask { try? await store.run() }
            }
        }
        store.lifecycle.withLock { $0.owned = task }
        // Let the pool's run loop start before the first lease (PostgresNIO warns otherwise).
        try? await Task.sleep(for: .milliseconds(10))
        do {
            try await store.prepare()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Creates the schema or migrates it to this build's version (under an advisory lock, so
    /// servers starting together do it once), and reads the head. Refuses a database whose schema
    /// is newer than this build.
    public func prepare() async throws {
        let migrations = LogSchema.migrations
        let logger = configuration.logger
        let policy = configuration.schema
        try await operation("prepare the schema", timeout: configuration.prepareTimeout) { client in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.rows("SELECT pg_advisory_xact_lock(7406224911)", logger: logger)
                // Whether the schema's head table and migrations table exist.
                var (head, recorded) = (false, false)
                let probe: PostgresQuery = "SELECT to_regclass('logbook.head') IS NOT NULL, to_regclass('logbook.migrations') IS NOT NULL"
                for row in try await connection.rows(probe, logger: logger) { (head, recorded) = try row.decode((Bool, Bool).self) }
                if head && !recorded {
                    throw EventStoreError.storage(
                        "the database has a logbook schema this store did not make (no logbook.migrations): point Logbook at another database")
                }
                if policy == .requireCurrent {
                    guard recorded else {
                        throw EventStoreError.storage("the database holds no Logbook log (no logbook schema): check the URL's database")
                    }
                } else {
                    try await connection.rows("CREATE SCHEMA IF NOT EXISTS logbook", logger: logger)
                    try await connection.rows(
                        "CREATE TABLE IF NOT EXISTS logbook.migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
                        logger: logger)
                }
                var applied = 0
                for row in try await connection.rows("SELECT coalesce(max(version), 0) FROM logbook.migrations", logger: logger) {
                    applied = Int(try row.decode(Int32.self))
                }
                if applied > LogSchema.currentVersion {
                    throw EventStoreError.storage(
                        "the database's log schema is version \(applied), newer than this build's \(LogSchema.currentVersion): upgrade Logbook")
                }
                if policy == .requireCurrent, applied != LogSchema.currentVersion {
                    throw EventStoreError.storage("""
                        the database's log schema is version \(applied) and this build's is \(LogSchema.currentVersion): \
                        use the Logbook build its servers run (a server of this build migrates it when it starts)
                        """)
                }
                for migration in migrations where migration.version > applied {
                    for statement in migration.statements {
                        try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    let version = Int32(migration.version)
                    let name = migration.name
                    try await connection.rows("INSERT INTO logbook.migrations (version, name) VALUES (\(version), \(name))", logger: logger)
                }
            }
        }
        watcher.publish(try await headPosition().rawValue)
    }

    /// Follows the head until cancelled or shut down gracefully: listens for `logbook_head`
    /// notifications and polls, publishing every new head to the subscriptions.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.listen() }
                group.addTask { await self.poll() }
            }
        }
    }

    private func listen() async {
        var failures = 0
        while !Task.isCancelled, !isClosed {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: "logbook_head") { notifications in
                        failures = 0
                        // Whatever was committed while no one listened.
                        if let head = try? await self.headPosition() { self.watcher.publish(head.rawValue) }
                        for try await notification in notifications {
                            if let head = UInt64(notification.payload) { self.watcher.publish(head) }
                        }
                    }
                }
            } catch {
                if Task.isCancelled || isClosed { return }
                failures += 1
                configuration.logger.debug("listening for new events failed; polling meanwhile", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .milliseconds(min(5_000, 20 << min(failures, 8))))
            }
        }
    }

    private func poll() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: configuration.pollInterval)
            if Task.isCancelled || isClosed { return }
            if let head = try? await headPosition() { watcher.publish(head.rawValue) }
        }
    }

    var isClosed: Bool { lifecycle.withLock { $0.closed } }

    /// Runs `body` against the pool, bounded by the operation timeout, with errors mapped.
    func operation<T: Sendable>(
        _ what: String, timeout: Duration? = nil, _ body: @escaping @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        guard !isClosed else { throw EventStoreError.closed }
        let client = self.client
        do {
            return try await withDeadline(timeout ?? configuration.operationTimeout, what) { try await body(client) }
        } catch {
            throw PostgresErrors.mapped(error)
        }
    }

    // MARK: Appends

    public func append(
        _ events: [ProposedEvent], to stream: String, expectedVersion: ExpectedVersion, checkpoint: Checkpoint?
    ) async throws -> AppendResult {
        let request = AppendRequest(stream: stream, events: events, expectedVersion: expectedVersion)
        if let problem = limits.problem(with: request) { throw problem }
        if let checkpoint, let problem = limits.problem(with: checkpoint) { throw problem }
        statistics?.enqueued(1)
        defer { statistics?.answered(1) }
        return try await queue.submit([AppendCall.Item(request: request, checkpoint: checkpoint)])[0].result.get()
    }

    public func append(batch requests: [AppendRequest]) async throws -> [Result<AppendResult, EventStoreError>] {
        try await append(batch: requests, keeping: []).map(\.result)
    }

    /// Appends `requests`, the answers `keeping` names kept in the same commit (missing entries
    /// keep nothing); see ``SharedLog/append(batch:keeping:)``.
    public func append(batch requests: [AppendRequest], keeping answers: [AnswerToKeep?]) async throws -> [KeepingAppendResult] {
        var results = [KeepingAppendResult?](repeating: nil, count: requests.count)
        var items: [AppendCall.Item] = []
        var indices: [Int] = []
        for (index, request) in requests.enumerated() {
            if let problem = limits.problem(with: request) {
                results[index] = KeepingAppendResult(result: .failure(problem))
            } else {
                items.append(AppendCall.Item(request: request, checkpoint: nil, keep: answers.indices.contains(index) ? answers[index] : nil))
                indices.append(index)
            }
        }
        if !items.isEmpty {
            statistics?.enqueued(items.count)
            defer { statistics?.answered(items.count) }
            for (index, result) in zip(indices, try await queue.submit(items)) { results[index] = result }
        }
        return results.map { $0! }
    }

    // MARK: Reads

    public func event(at position: Position) async throws -> RecordedEvent? {
        guard position.rawValue > 0, position.rawValue <= UInt64(Int64.max) else { return nil }
        let at = Int64(position.rawValue)
        return try await rows("read an event", "SELECT \(unescaped: EventRow.columns) FROM logbook.events WHERE position = \(at)").first
    }

    public func locations(ofEvents ids: [UUID]) async throws -> [EventLocation?] {
        guard !ids.isEmpty else { return [] }
        let found = try await operation("find events by id") { client in
            var found: [UUID: EventLocation] = [:]
            let query: PostgresQuery = "SELECT event_id, position, stream, stream_version FROM logbook.events WHERE event_id = ANY(\(ids))"
            for row in try await client.rows(query) {
                let (id, position, stream, version) = try row.decode((UUID, Int64, String, Int64).self)
                found[id] = EventLocation(position: Position(UInt64(position)), stream: stream, streamVersion: UInt64(version))
            }
            return found
        }
        return ids.map { found[$0] }
    }

    public func readStream(_ stream: String, from version: UInt64, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent] {
        guard limit > 0 else { return [] }
        let (from, count, comparison, order) = (Int64(clamping: version), Int64(limit), direction.comparison, direction.order)
        return try await rows("read a stream", """
            SELECT \(unescaped: EventRow.columns) FROM logbook.events WHERE stream = \(stream) \
            AND stream_version \(unescaped: comparison) \(from) ORDER BY stream_version \(unescaped: order) LIMIT \(count)
            """)
    }

    public func streamVersion(_ stream: String) async throws -> UInt64? {
        try await operation("read a stream's version") { client in
            var version: UInt64?
            let query: PostgresQuery = "SELECT max(stream_version) FROM logbook.events WHERE stream = \(stream)"
            for row in try await client.rows(query) { version = try row.decode(Int64?.self).map { UInt64($0) } }
            return version
        }
    }

    public func readAll(from position: Position, direction: ReadDirection, limit: Int, filter: EventFilter) async throws -> LogPage {
        let window = Int64(max(configuration.maxPositionsScannedPerRead, limit, 1))
        let start = Int64(clamping: position.rawValue)
        // Forward reads start at position 1 at the earliest, so the window and what the page
        // claims to have scanned are the same positions.
        let low = max(start, 1)
        let types = filter.eventTypes.map { $0.sorted() }
        let prefix = filter.streamPrefix
        let subject = filter.subject
        let count = Int64(max(limit, 0))
        let (head, events): (Int64, [RecordedEvent]) = try await operation("read the log") { client in
            let query: PostgresQuery
            switch direction {
            case .forward:
                query = """
                    SELECT e.*, h.position AS head FROM logbook.head h LEFT JOIN LATERAL (
                      SELECT \(unescaped: EventRow.columns) FROM logbook.events
                       WHERE position >= \(low) AND position < \(low) + \(window)
                         AND (\(types)::text[] IS NULL OR type = ANY(\(types)::text[]))
                         AND (\(prefix)::text IS NULL OR starts_with(stream, \(prefix)::text))
                         AND (\(subject)::text IS NULL OR subject = \(subject)::text)
                       ORDER BY position LIMIT \(count)) e ON true
                    """
            case .backward:
                query = """
                    SELECT e.*, h.position AS head FROM logbook.head h LEFT JOIN LATERAL (
                      SELECT \(unescaped: EventRow.columns) FROM logbook.events
                       WHERE position <= least(\(start), h.position) AND position > least(\(start), h.position) - \(window)
                         AND (\(types)::text[] IS NULL OR type = ANY(\(types)::text[]))
                         AND (\(prefix)::text IS NULL OR starts_with(stream, \(prefix)::text))
                         AND (\(subject)::text IS NULL OR subject = \(subject)::text)
                       ORDER BY position DESC LIMIT \(count)) e ON true
                    """
            }
            var head: Int64 = 0
            var events: [RecordedEvent] = []
            for row in try await client.rows(query) {
                // The event's columns (NULL when none matched), then the head.
                let cells = row.makeRandomAccess()
                head = try cells[EventRow.columnCount].decode(Int64.self)
                if try cells[0].decode(Int64?.self) != nil { events.append(try EventRow.decode(row)) }
            }
            return (head, events)
        }
        let full = limit > 0 && events.count == limit
        switch direction {
        case .forward:
            guard low <= head else { return LogPage(events: events, scannedThrough: nil, reachedEnd: true) }
            if full, let last = events.last { return LogPage(events: events, scannedThrough: last.position, reachedEnd: false) }
            let end = min(low + window - 1, head)
            return LogPage(events: events, scannedThrough: Position(UInt64(end)), reachedEnd: end >= head)
        case .backward:
            let top = min(start, head)
            guard top >= 1 else { return LogPage(events: events, scannedThrough: nil, reachedEnd: true) }
            if full, let last = events.last { return LogPage(events: events, scannedThrough: last.position, reachedEnd: false) }
            let bottom = max(top - window + 1, 1)
            return LogPage(events: events, scannedThrough: Position(UInt64(bottom)), reachedEnd: bottom == 1)
        }
    }

    public func readSubject(_ subject: String, from position: Position, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent] {
        guard limit > 0 else { return [] }
        let (from, count, comparison, order) = (Int64(clamping: position.rawValue), Int64(limit), direction.comparison, direction.order)
        return try await rows("read a subject", """
            SELECT \(unescaped: EventRow.columns) FROM logbook.events WHERE subject = \(subject) \
            AND position \(unescaped: comparison) \(from) ORDER BY position \(unescaped: order) LIMIT \(count)
            """)
    }

    public func headPosition() async throws -> Position {
        try await operation("read the head") { client in
            var head: Int64 = 0
            for row in try await client.rows("SELECT position FROM logbook.head") { head = try row.decode(Int64.self) }
            return Position(UInt64(head))
        }
    }

    public func subscribe(after position: Position, filter: EventFilter) -> EventSubscription {
        EventSubscription { PostgresSubscriptionSource(store: self, after: position, filter: filter) }
    }

    @discardableResult
    public func scan(
        after position: Position, through end: Position?, filter: EventFilter, chunkSize: Int,
        _ body: (EventEnvelope, _ metadata: Span<UInt8>, _ payload: Span<UInt8>) throws -> Bool
    ) async throws -> Position {
        try await scanByPages(after: position, through: end, filter: filter, chunkSize: chunkSize, body)
    }

    // MARK: Checkpoints

    public func checkpoint(named name: String) async throws -> Checkpoint? {
        try await operation("read a checkpoint") { client in
            var checkpoint: Checkpoint?
            let query: PostgresQuery = "SELECT position, data FROM logbook.checkpoints WHERE name = \(name)"
            for row in try await client.rows(query) {
                let (position, data) = try row.decode((Int64, ByteBuffer).self)
                checkpoint = Checkpoint(name: name, position: Position(UInt64(position)), data: Array(data.readableBytesView))
            }
            return checkpoint
        }
    }

    public func storeCheckpoint(_ checkpoint: Checkpoint) async throws {
        if let problem = limits.problem(with: checkpoint) { throw problem }
        let name = checkpoint.name
        let position = Int64(clamping: checkpoint.position.rawValue)
        let data = ByteBuffer(bytes: checkpoint.data)
        try await write("store a checkpoint") { transaction in
            try await transaction.rows("""
                INSERT INTO logbook.checkpoints (name, position, data) VALUES (\(name), \(position), \(data)) \
                ON CONFLICT (name) DO UPDATE SET position = excluded.position, data = excluded.data
                """)
            return ()
        }
    }

    // MARK: Inspection and lifecycle

    public func storageInfo() async throws -> LogStorageInfo {
        let head = try await headPosition()
        let tables = try await operation("read table sizes") { client in
            var tables: [LogStorageInfo.DatabaseInfo] = []
            let query: PostgresQuery = """
                SELECT c.relname::text, greatest(c.reltuples, 0)::bigint, pg_total_relation_size(c.oid) FROM pg_class c \
                JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'logbook' AND c.relkind = 'r' ORDER BY c.relname
                """
            for row in try await client.rows(query) {
                let (name, rows, bytes) = try row.decode((String, Int64, Int64).self)
                tables.append(.init(name: name, entries: Int(rows), bytes: Int(bytes)))
            }
            return tables
        }
        let databases = tables.map { table in
            table.name == "events" ? LogStorageInfo.DatabaseInfo(name: table.name, entries: Int(head.rawValue), bytes: table.bytes) : table
        }
        return LogStorageInfo(
            backend: "postgres", headPosition: head, mapSize: nil, usedBytes: databases.reduce(0) { $0 + $1.bytes },
            readersInUse: nil, maxReaders: nil, databases: databases)
    }

    public func close() async {
        let first = lifecycle.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        await queue.close()
        watcher.close()
        guard let owned = lifecycle.withLock({ $0.owned }) else { return }
        owned.cancel()
        // The pool and the listener stop on cancellation; if PostgreSQL keeps one of them waiting
        // (a connection that never comes), closing does not wait for it past a few seconds.
        do {
            try await withDeadline(.seconds(5), "stop the connection pool") { await owned.value }
        } catch {
            configuration.logger.warning("the PostgreSQL connection pool did not stop within 5 s of closing the log; leaving it")
        }
    }

    /// The events a query selects (the columns of ``EventRow``), checksums verified.
    private func rows(_ what: String, _ query: PostgresQuery) async throws -> [RecordedEvent] {
        try await operation(what) { client in
            var events: [RecordedEvent] = []
            for row in try await client.rows(query) { events.append(try EventRow.decode(row)) }
            return events
        }
    }
}

extension ReadDirection {
    /// How a read in this direction bounds its start, and orders its rows, in SQL.
    fileprivate var comparison: String { self == .forward ? ">=" : "<=" }
    fileprivate var order: String { self == .forward ? "ASC" : "DESC" }
}
