public import EventLog

/// Where one read model stands against the log: its checkpoint, code version and lag.
public struct ProjectionStatus: Sendable, Hashable, Codable {
    public let projection: ProjectionKind
    public let codeVersion: Int
    /// The last position folded into the read model (0 before the first event).
    public let position: UInt64
    /// The log's head when the status was read.
    public let head: UInt64
    /// Events in the log the read model has not folded yet.
    public let lag: UInt64
    /// A rebuild is under way (or was interrupted and will resume).
    public let rebuilding: Bool

    /// The status of `projection` at `position` against the log's `head`.
    public init(projection: ProjectionKind, codeVersion: Int, position: UInt64, head: UInt64, rebuilding: Bool) {
        self.projection = projection
        self.codeVersion = codeVersion
        self.position = position
        self.head = head
        self.lag = head - min(head, position)
        self.rebuilding = rebuilding
    }
}

extension Logbook {
    /// Every read model's checkpoint and lag behind the log's head, read in one snapshot
    /// (cheap: no digest is computed).
    public func projectionStatus() throws -> [ProjectionStatus] {
        try readModels.environment.read { txn in
            let head = try host.headPosition(in: txn)
            return try ProjectionKind.allCases.map { kind in
                let checkpoint = try readModels.checkpoint(kind, txn)
                return ProjectionStatus(
                    projection: kind, codeVersion: checkpoint?.codeVersion ?? kind.codeVersion, position: checkpoint?.position ?? 0,
                    head: head, rebuilding: checkpoint?.rebuilding ?? true)
            }
        }
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
