public import EventLog

/// Where one read model stands against the log: its checkpoint, code version and lag.
public struct ReadModelStatus: Sendable, Hashable, Codable {
    public let projection: ReadModelKind
    public let codeVersion: Int
    /// The last position folded into the read model (0 before the first event).
    public let position: UInt64
    /// The log's head when the status was read.
    public let head: UInt64
    /// Events in the log the read model has not folded yet.
    public let lag: UInt64
    /// How long the oldest event the read model has not folded has been waiting: seconds since
    /// it was recorded, by the Logbook's clock (0 when nothing is waiting).
    public let lagSeconds: Double
    /// A rebuild is under way (or was interrupted and will resume).
    public let rebuilding: Bool
    /// The next version an upgrade builds beside this one (nil when none is being built).
    public let upgrade: ReadModelUpgrade?

    /// The status of `projection` at `position` against the log's `head`, the oldest waiting
    /// event `lagSeconds` old.
    public init(
        projection: ReadModelKind, codeVersion: Int, position: UInt64, head: UInt64, rebuilding: Bool, lagSeconds: Double = 0,
        upgrade: ReadModelUpgrade? = nil
    ) {
        self.projection = projection
        self.codeVersion = codeVersion
        self.position = position
        self.head = head
        self.lag = head - min(head, position)
        self.lagSeconds = lag == 0 ? 0 : lagSeconds
        self.rebuilding = rebuilding
        self.upgrade = upgrade
    }
}

/// How far the next version of a read model, built beside the live one by an upgrade
/// (``Logbook/upgrade(_:progress:)``), has come: it switches in once it reaches the live one.
public struct ReadModelUpgrade: Sendable, Hashable, Codable {
    /// The code version being built.
    public let codeVersion: Int
    /// The last position folded into the next version.
    public let position: UInt64
    /// Events it has still to fold to reach the log's head.
    public let lag: UInt64
    /// A task is building it now; false when the upgrade was cut off (it resumes when the store
    /// opens again, or by another upgrade).
    public let running: Bool

    public init(codeVersion: Int, position: UInt64, head: UInt64, running: Bool) {
        self.codeVersion = codeVersion
        self.position = position
        lag = head - min(head, position)
        self.running = running
    }
}

extension Logbook {
    /// Every read model's checkpoint and lag behind the log's head, in events (read in one
    /// snapshot) and in seconds (the age of the oldest event each has not folded: one log read
    /// per distinct checkpoint that lags). Cheap: no digest is computed.
    public func projectionStatus() async throws -> [ReadModelStatus] {
        let upgrading = control.snapshot.upgrading
        let statuses = try readModels.environment.read { txn in
            let head = try host.headPosition(in: txn)
            return try ReadModelKind.allCases.map { kind in
                let checkpoint = try readModels.checkpoint(kind, txn)
                let upgrade = try readModels.checkpoint(kind, .next, txn).map { next in
                    ReadModelUpgrade(codeVersion: next.codeVersion, position: next.position, head: head, running: upgrading.contains(kind))
                }
                return ReadModelStatus(
                    projection: kind, codeVersion: checkpoint?.codeVersion ?? kind.codeVersion, position: checkpoint?.position ?? 0,
                    head: head, rebuilding: checkpoint?.rebuilding ?? true, upgrade: upgrade)
            }
        }
        var ages: [UInt64: Double] = [:]
        for status in statuses where status.lag > 0 && ages[status.position] == nil {
            ages[status.position] = try await secondsWaiting(after: Position(status.position))
        }
        return statuses.map { status in
            ReadModelStatus(
                projection: status.projection, codeVersion: status.codeVersion, position: status.position, head: status.head,
                rebuilding: status.rebuilding, lagSeconds: ages[status.position] ?? 0, upgrade: status.upgrade)
        }
    }

    /// Seconds since the event after `position` was recorded, by the Logbook's clock (0 if
    /// there is none): how long a reader that stands at `position` has kept it waiting.
    public func secondsWaiting(after position: Position) async throws -> Double {
        guard let waiting = try await log.event(at: position.next) else { return 0 }
        let micros = configuration.clock.now().microsecondsSinceEpoch - waiting.recordedAt.microsecondsSinceEpoch
        return Double(max(0, micros)) / 1_000_000
    }
}

extension Logbook {
    /// Returns once every live read model has folded `position`: at once for the embedded
    /// Logbook, whose read models fold inside the log's own commits; a Logbook following a log
    /// written by others waits up to ``LogbookConfiguration/readYourWritesTimeout`` and then
    /// throws ``LogbookError/Code/notCaughtUp``. Ask before a query that must see a write made
    /// elsewhere (its answer's position).
    public func catchUp(to position: Position) async throws {
        try await host.waitUntilFolded(position.rawValue)
    }
}
