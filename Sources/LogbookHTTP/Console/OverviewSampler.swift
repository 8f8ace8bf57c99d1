import EventLog
import Foundation
public import Logbook
import LogbookWebhooks

/// Samples the log's writer, its storage and the read models for the console's overview and for
/// stall detection: at most once a second however many consoles watch, keeping the last
/// ``historyLimit`` samples (5 minutes at one a second) and counting the log's events by type a
/// bounded chunk per sample, so a large log's first overview answers at once and its counts
/// catch up over the next samples.
///
/// It samples when asked (an overview, a stream of them, a `/metrics` scrape) and, run by
/// ``OverviewSamplingService`` as ``LogbookServer`` does, every second in the background, so its
/// history covers the last minutes whether or not anyone watched.
public actor OverviewSampler {
    /// Samples kept: 5 minutes at one a second.
    public static let historyLimit = 300
    /// Events counted by type per sample, at most.
    static let typeChunk = 20_000
    /// Distinct event types counted by name; any further type is counted under `(other types)`.
    static let maxTypes = 1_024
    /// The shortest time between two samples: callers within it share the last one.
    static let minimumInterval = 0.9

    private let logbook: Logbook
    /// The server sampling, listed first among the servers, and whether it delivers webhooks
    /// (on a shared log the lease says who does).
    private let server: ServerIdentity
    private let deliversWebhooks: Bool
    /// A read model behind the log that has not moved for this many seconds is stalled.
    public let stallAfterSeconds: Double
    private var stalls: StallDetector
    private let startedAt: Double

    /// One sample with the writer's counters it was computed from.
    private struct Taken {
        var sample: OverviewSample
        var commits: Int
        var commitMicroseconds: Int
    }

    private var history: [Taken] = []
    private var typeCounts: [String: UInt64] = [:]
    private var countedThrough: UInt64 = 0
    private var latest: ConsoleOverview?
    private var inFlight: Task<ConsoleOverview, any Error>?

    /// A sampler of `logbook` on behalf of `server` (nil: this process, started now).
    public init(logbook: Logbook, server: ServerIdentity? = nil, deliversWebhooks: Bool = true, stallAfterSeconds: Double = 30) {
        self.logbook = logbook
        self.server = server ?? .local(startedAt: logbook.configuration.clock.now().instant)
        self.deliversWebhooks = deliversWebhooks
        self.stallAfterSeconds = stallAfterSeconds
        stalls = StallDetector(stallAfterSeconds: stallAfterSeconds)
        startedAt = Self.seconds(logbook.configuration.clock.now())
    }

    /// The current overview: a fresh sample, or the last one if it is under a second old.
    public func overview() async throws -> ConsoleOverview {
        if let latest, Self.seconds(logbook.configuration.clock.now()) - latest.sampledAt < Self.minimumInterval { return latest }
        if let inFlight { return try await inFlight.value }
        let task = Task { try await self.sample() }
        inFlight = task
        defer { inFlight = nil }
        let overview = try await task.value
        latest = overview
        return overview
    }

    private func sample() async throws -> ConsoleOverview {
        let status = try await logbook.projectionStatus()
        let storage = try await logbook.log.storageInfo()
        try await countTypes(through: storage.headPosition.rawValue)
        let now = Self.seconds(logbook.configuration.clock.now())
        let head = storage.headPosition.rawValue
        let statistics = logbook.log.statistics
        let commits = statistics?.transactions ?? 0
        let commitMicroseconds = statistics?.commitMicroseconds ?? 0
        let queue = statistics?.waitingAppends ?? 0

        let previous = history.last
        let sample = OverviewSample(
            at: now, head: head,
            eventsPerSecond: previous.map { Self.rate(Double(head) - Double($0.sample.head), over: now - $0.sample.at) } ?? 0,
            commitLatencyMicroseconds: previous.flatMap {
                Self.mean(Double(commitMicroseconds - $0.commitMicroseconds), over: commits - $0.commits)
            },
            writerQueue: queue)
        history.append(Taken(sample: sample, commits: commits, commitMicroseconds: commitMicroseconds))
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }

        // The last 10 seconds: from the oldest sample within them (or the one just before).
        let window = history.last { now - $0.sample.at >= 10 } ?? history.first!
        let readModels = status.map { readModel($0, now: now) }
        let servers = await servers(head: head, status: status)
        return ConsoleOverview(
            backend: storage.backend, sampledAt: now, serverStartedAt: startedAt, head: head,
            eventsPerSecond: Self.rate(Double(head) - Double(window.sample.head), over: now - window.sample.at),
            commitLatencyMicroseconds: Self.mean(Double(commitMicroseconds - window.commitMicroseconds), over: commits - window.commits),
            writerQueue: queue, appends: statistics?.appends ?? 0, rejected: statistics?.rejected ?? 0,
            usedBytes: storage.usedBytes, mapSize: storage.mapSize, readersInUse: storage.readersInUse, maxReaders: storage.maxReaders,
            eventsByType: typeCounts.map { ConsoleOverview.TypeCount(type: $0.key, count: $0.value) }
                .sorted { $0.type.utf8.lexicographicallyPrecedes($1.type.utf8) },
            typesCountedThrough: countedThrough, readModels: readModels, servers: servers, samples: history.map(\.sample))
    }

    /// Where a read model stands, and whether it has stalled: behind the log and not moving.
    private func readModel(_ status: ReadModelStatus, now: Double) -> ReadModelOverview {
        let stall = stalls.observe(status.projection, position: status.position, lag: status.lag, at: now)
        return ReadModelOverview(
            projection: status.projection, position: status.position, lag: status.lag, lagSeconds: status.lagSeconds,
            rebuilding: status.rebuilding, upgrading: status.upgrade?.running ?? false, stalled: stall.stalled, stalledSeconds: stall.seconds)
    }

    /// The servers following the log: this one as it stands now, and on a shared log the others
    /// as they last announced themselves (listed only while the store answers).
    private func servers(head: UInt64, status: [ReadModelStatus]) async -> [ServerOverview] {
        let mine = ServerPresence.announcement(of: server, head: head, status: status)
        guard let shared = logbook.log as? any SharedLog else {
            return [Self.overview(mine, head: head, silent: 0, this: true, delivers: deliversWebhooks)]
        }
        let announced = (try? await shared.servers(seenWithin: .seconds(30), forgetAfter: .seconds(3_600))) ?? []
        let holder = (try? await shared.leaseHolder(WebhookDispatcher.leaseName))?.holder
        let others = announced.filter { $0.announcement.id != server.id }.map {
            Self.overview($0.announcement, head: head, silent: $0.silentMicroseconds, this: false, delivers: $0.announcement.id == holder)
        }
        let this = Self.overview(mine, head: head, silent: 0, this: true, delivers: server.id == holder)
        return (others + [this]).sorted { a, b in
            a.startedAt != b.startedAt ? a.startedAt < b.startedAt : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
    }

    private static func overview(_ server: ServerAnnouncement, head: UInt64, silent: Int64, this: Bool, delivers: Bool) -> ServerOverview {
        let through = server.readThrough.rawValue
        return ServerOverview(
            id: server.id, name: server.name, url: server.url, startedAt: Double(server.startedAt) / 1_000_000,
            head: server.head.rawValue, readThrough: through, lag: head > through ? head - through : 0,
            silentSeconds: Double(silent) / 1_000_000, thisServer: this, deliversWebhooks: delivers)
    }

    /// Counts the types of at most ``typeChunk`` events past the last one counted.
    private func countTypes(through head: UInt64) async throws {
        var budget = Self.typeChunk
        while countedThrough < head, budget > 0 {
            let page = try await logbook.log.readAll(
                from: Position(countedThrough + 1), direction: .forward, limit: min(budget, 2_000), filter: EventFilter())
            for event in page.events where event.envelope.position.rawValue <= head {
                let type = typeCounts[event.envelope.type] != nil || typeCounts.count < Self.maxTypes ? event.envelope.type : "(other types)"
                typeCounts[type, default: 0] += 1
            }
            guard let scanned = page.scannedThrough, scanned.rawValue > countedThrough else { break }
            countedThrough = min(scanned.rawValue, head)
            budget -= max(1, page.events.count)
        }
    }

    private static func seconds(_ timestamp: Timestamp) -> Double {
        Double(timestamp.microsecondsSinceEpoch) / 1_000_000
    }

    private static func rate(_ events: Double, over seconds: Double) -> Double {
        seconds > 0 && events > 0 ? events / seconds : 0
    }

    private static func mean(_ microseconds: Double, over commits: Int) -> Double? {
        commits > 0 ? max(0, microseconds) / Double(commits) : nil
    }
}
