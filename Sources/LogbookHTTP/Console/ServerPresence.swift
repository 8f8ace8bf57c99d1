import EventLog
public import Logbook
public import Logging
public import ServiceLifecycle

/// Announces this server to the others sharing its log (a ``SharedLog``: PostgreSQL) every
/// ``interval``: where it answers, the head it sees and how far its read models have followed,
/// for the console's list of servers. On a log only one process opens it does nothing.
public struct ServerPresence: Service {
    public let logbook: Logbook
    public let server: ServerIdentity
    public let interval: Duration
    let logger: Logger

    public init(logbook: Logbook, server: ServerIdentity, interval: Duration = .seconds(2), logger: Logger = Logger(label: "logbook.presence")) {
        self.logbook = logbook
        self.server = server
        self.interval = interval
        self.logger = logger
    }

    /// Announces until graceful shutdown.
    public func run() async throws {
        guard let shared = logbook.log as? any SharedLog else {
            // A service group takes a service that ends early for a failure: wait with the others.
            try? await gracefulShutdown()
            return
        }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await shared.announce(try await announcement())
                } catch {
                    logger.debug("announcing this server failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// This server as it stands now.
    func announcement() async throws -> ServerAnnouncement {
        let status = try await logbook.projectionStatus()
        let head = try await logbook.log.headPosition()
        return Self.announcement(of: server, head: head.rawValue, status: status)
    }

    /// `server` at `head`, its read models where `status` says: it has read through the lowest.
    static func announcement(of server: ServerIdentity, head: UInt64, status: [ReadModelStatus]) -> ServerAnnouncement {
        let through = status.map(\.position).min() ?? head
        return ServerAnnouncement(
            id: server.id, name: server.name, url: server.url, startedAt: server.startedAt,
            head: Position(head), readThrough: Position(min(through, head)))
    }
}
