import EventLog
public import Logbook
public import Logging
public import ServiceLifecycle

/// Closes users' weeks as they end: every `interval` it calls
/// ``Logbook/closeEndedWeeks(now:closed:)``, which appends `stats.week_closed` (the week's
/// totals) and, for a week with planned workouts, `training.week_closed` once per user and week, for webhooks and subscriptions to pass on. Idempotent across
/// restarts and servers (the event's id is derived from the user and the week).
public struct WeekClosingService: Service {
    public let logbook: Logbook
    public let interval: Duration
    let logger: Logger

    public init(logbook: Logbook, interval: Duration = .seconds(60), logger: Logger = Logger(label: "logbook.weeks")) {
        self.logbook = logbook
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        var closed: [String: CivilDate] = [:]
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                let report = try await logbook.closeEndedWeeks(closed: &closed)
                if !report.closed.isEmpty { logger.info("closed \(report.closed.count) weeks") }
                for (user, error) in report.failed {
                    logger.warning("closing a week failed (tried again in \(interval))", metadata: ["user": "\(user)", "error": "\(error)"])
                }
            } catch {
                logger.warning("closing ended weeks failed (tried again in \(interval))", metadata: ["error": "\(error)"])
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
        }
    }
}
