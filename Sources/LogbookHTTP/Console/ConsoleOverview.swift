import EventLog
import Foundation
public import Logbook

/// What the console's overview shows, as `GET /admin/overview` answers it and
/// `GET /admin/overview/subscribe` streams it: the log's head and writer, its storage, events
/// by type, and where every read model stands, with the samples of the last minutes.
public struct ConsoleOverview: Sendable, Hashable, Codable {
    /// Which backend stores the log: `lmdb` or `postgres`.
    public let backend: String
    /// When the overview was sampled, in seconds since 1970 by the server's clock.
    public let sampledAt: Double
    /// When this server's sampler started, in seconds since 1970.
    public let serverStartedAt: Double
    /// The log's head position.
    public let head: UInt64
    /// Events appended per second over the last 10 seconds of samples (0 with fewer than two).
    public let eventsPerSecond: Double
    /// The mean commit latency over the last 10 seconds of samples, in microseconds (nil when
    /// nothing was committed then).
    public let commitLatencyMicroseconds: Double?
    /// Appends waiting for the writer (including the commit under way), by this server.
    public let writerQueue: Int
    /// Appends committed and refused by this server since it started.
    public let appends: Int
    public let rejected: Int
    /// Bytes in use and the memory map's size (LMDB), reader slots in use and available.
    public let usedBytes: Int
    public let mapSize: Int?
    public let readersInUse: Int?
    public let maxReaders: Int?
    /// Events in the log by type, counted through ``typesCountedThrough`` (the count catches up
    /// with the head a bounded chunk per sample).
    public let eventsByType: [TypeCount]
    public let typesCountedThrough: UInt64
    /// Every read model: its position and lag on this server, and whether it is stalled.
    public let readModels: [ReadModelOverview]
    /// The servers following the log: this one alone on an embedded store; on a log several
    /// servers share, each that announced itself in the last 30 seconds, in the order they started.
    public let servers: [ServerOverview]
    /// The samples of the last minutes, oldest first (at most ``OverviewSampler/historyLimit``).
    public let samples: [OverviewSample]

    /// How many events of one type the log holds.
    public struct TypeCount: Sendable, Hashable, Codable {
        public let type: String
        public let count: UInt64
    }
}

/// One read model as the overview shows it.
public struct ReadModelOverview: Sendable, Hashable, Codable {
    public let projection: ReadModelKind
    public let position: UInt64
    public let lag: UInt64
    public let lagSeconds: Double
    public let rebuilding: Bool
    public let upgrading: Bool
    /// Behind the log with no progress for at least the sampler's stall time.
    public let stalled: Bool
    /// Seconds since the read model last moved while behind (0 when caught up or moving).
    public let stalledSeconds: Double
}

/// A server following the log, as it last announced itself.
public struct ServerOverview: Sendable, Hashable, Codable {
    /// ``ServerIdentity/id``: its name and a suffix unique to this run.
    public let id: String
    public let name: String
    /// Where it answers (empty when not known).
    public let url: String
    /// When it started, in seconds since 1970.
    public let startedAt: Double
    /// The head it saw when it last announced itself.
    public let head: UInt64
    /// The lowest position its read models have folded.
    public let readThrough: UInt64
    /// Events of the log (at this overview's head) its slowest read model has not folded.
    public let lag: UInt64
    /// Seconds since it last announced itself (0 for this server).
    public let silentSeconds: Double
    /// The server answering this overview.
    public let thisServer: Bool
    /// It delivers the webhooks (holds their lease, on a shared log).
    public let deliversWebhooks: Bool
}

/// One sample of the log's writer, taken at most once a second while someone watches.
public struct OverviewSample: Sendable, Hashable, Codable {
    /// When, in seconds since 1970 by the server's clock.
    public let at: Double
    public let head: UInt64
    /// Events appended per second since the previous sample.
    public let eventsPerSecond: Double
    /// The mean commit latency since the previous sample, in microseconds (nil: no commit).
    public let commitLatencyMicroseconds: Double?
    public let writerQueue: Int
}
