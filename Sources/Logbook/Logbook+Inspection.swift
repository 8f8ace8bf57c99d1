import EventLog

/// Where one read model stands against the log: its checkpoint, code version and lag.
public struct ProjectionStatus: Sendable, Hashable, Codable {
    public var projection: ProjectionKind
    public var codeVersion: Int
    /// The last position folded into the read model (0 before the first event).
    public var position: UInt64
    /// The log's head when the status was read.
    public var head: UInt64
    /// Events in the log the read model has not folded yet.
    public var lag: UInt64 { head - min(head, position) }
    /// A rebuild is under way (or was interrupted and will resume).
    public var rebuilding: Bool

    /// The status of `projection` at `position` against the log's `head`.
    public init(projection: ProjectionKind, codeVersion: Int, position: UInt64, head: UInt64, rebuilding: Bool) {
        self.projection = projection
        self.codeVersion = codeVersion
        self.position = position
        self.head = head
        self.rebuilding = rebuilding
    }

    private enum CodingKeys: String, CodingKey { case projection, codeVersion, position, head, lag, rebuilding }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            projection: try c.decode(ProjectionKind.self, forKey: .projection), codeVersion: try c.decode(Int.self, forKey: .codeVersion),
            position: try c.decode(UInt64.self, forKey: .position), head: try c.decode(UInt64.self, forKey: .head),
            rebuilding: try c.decode(Bool.self, forKey: .rebuilding))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(projection, forKey: .projection)
        try c.encode(codeVersion, forKey: .codeVersion)
        try c.encode(position, forKey: .position)
        try c.encode(head, forKey: .head)
        try c.encode(lag, forKey: .lag)
        try c.encode(rebuilding, forKey: .rebuilding)
    }
}

extension Logbook {
    /// Every read model's checkpoint and lag behind the log's head, read in one snapshot
    /// (cheap: no digest is computed).
    public func projectionStatus() throws -> [ProjectionStatus] {
        try readModels.environment.read { txn in
            let head = try log.headPosition(in: txn).rawValue
            return try ProjectionKind.allCases.map { kind in
                let checkpoint = try readModels.checkpoint(kind, txn)
                return ProjectionStatus(
                    projection: kind, codeVersion: checkpoint?.codeVersion ?? kind.codeVersion, position: checkpoint?.position ?? 0,
                    head: head, rebuilding: checkpoint?.rebuilding ?? true)
            }
        }
    }
}
