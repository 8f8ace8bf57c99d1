public import EventLog
public import Logging

/// How a ``PostgresEventStore`` behaves: batching of commits, limits, timeouts and polling.
public struct PostgresLogConfiguration: Sendable {
    /// The largest payload plus metadata of one event, in bytes (as for the LMDB log).
    public var maxEventBytes = 1 << 20
    /// At most this many events go into one commit (one call of `logbook.append`).
    public var maxEventsPerCommit = 8_192
    /// At most about this many bytes of payload and metadata go into one commit.
    public var maxBytesPerCommit = 16 << 20
    /// How many commits of this process may be on their way at once when a backlog builds up.
    /// The head row lets only one commit in at a time, so a second one waits in the database
    /// while the first commits, hiding a round trip: 2 is enough.
    public var commitsInFlight = 2
    /// A second commit goes on its way only while at least this many events wait (bulk loads);
    /// small concurrent appends gather into one commit instead.
    public var pipelineBacklogEvents = 1_024
    /// Events read per query by subscriptions, scans and paged reads.
    public var pageSize = 1_024
    /// A filtered read of the whole log examines at most this many positions before it answers
    /// with what it found and how far it scanned.
    public var maxPositionsScannedPerRead = 65_536
    /// How often subscriptions look at the head when no notification came: notifications are
    /// lost while the listening connection reconnects, so this bounds how late a live event can be.
    public var pollInterval: Duration = .milliseconds(500)
    /// How long one operation may wait for PostgreSQL (a connection, a query) before it fails
    /// with ``EventStoreError/Code/unavailable``: writes fail fast while the database is down.
    public var operationTimeout: Duration = .seconds(10)
    /// How long creating or migrating the schema may take when the store starts (it waits for
    /// other servers doing the same, and DDL is slow on a busy database).
    public var prepareTimeout: Duration = .seconds(120)
    /// Whether connecting may create or migrate the schema (a server, an import, a restore's
    /// target) or must find this build's schema already there (a backup, which only reads:
    /// pointed at the wrong database it must say so, not make an empty log there).
    public var schema: SchemaPolicy = .createOrMigrate
    /// The clock that stamps `recordedAt`.
    public var clock: any LogClock = SystemLogClock()
    /// Where the store logs reconnections and notification losses.
    public var logger = Logger(label: "logbook.postgres")

    public init() {}
}

/// What ``PostgresEventStore/prepare()`` may do to the database's schema.
public enum SchemaPolicy: Sendable, Equatable {
    /// Create the schema in an empty database, or migrate an older one to this build's version.
    case createOrMigrate
    /// Change nothing: refuse a database without a Logbook log, or with a schema of another version.
    case requireCurrent
}
