public import EventLog
import Foundation
import LMDB
import LogbookStorage

/// The digest of one read model at one position.
public struct ReadModelDigest: Sendable, Hashable, Codable {
    public var projection: ReadModelKind
    public var position: UInt64
    /// SHA-256 of the read model's canonical bytes, in hex.
    public var sha256: String
    /// True while a rebuild owns the projection (its digest is of a partial state), while its
    /// live tables are another code version's that an upgrade replaces, or while an erasure's
    /// build replaces them (they still hold the erased users).
    public var rebuilding: Bool
}

/// What `verify` found for one read model.
public struct VerificationResult: Sendable, Hashable, Codable {
    public let projection: ReadModelKind
    public let position: UInt64
    public let live: String
    public let rebuilt: String
    /// The rebuilt digest equals the live one.
    public let matches: Bool

    public init(projection: ReadModelKind, position: UInt64, live: String, rebuilt: String) {
        self.projection = projection
        self.position = position
        self.live = live
        self.rebuilt = rebuilt
        matches = live == rebuilt
    }
}

/// A past moment to answer a query as of.
public enum AsOf: Sendable, Hashable {
    /// Everything up to and including this position.
    case position(Position)
    /// Everything recorded at or before this time.
    case time(Timestamp)
}

extension Logbook {
    /// Rebuilds read models from the log, from scratch, in chunks of
    /// ``LogbookConfiguration/rebuildChunkSize`` events with one checkpoint per chunk. Appends go
    /// on meanwhile; the rebuild catches up with them and puts the read models back into inline
    /// folding. Cancelling the task stops it after the current chunk; calling ``resumeRebuild``
    /// (or reopening) continues from the last chunk. Returns the new digests.
    @discardableResult
    public func rebuild(
        _ kinds: Set<ReadModelKind> = Set(ReadModelKind.allCases),
        progress: @Sendable (RebuildProgress) -> Void = { _ in }
    ) async throws -> [ReadModelDigest] {
        try await rebuild(kinds, fresh: true, progress: progress)
        return try digests().filter { kinds.contains($0.projection) }
    }

    /// Continues rebuilds that were interrupted (cancelled, or cut off by a crash).
    public func resumeRebuild(progress: @Sendable (RebuildProgress) -> Void = { _ in }) async throws {
        let unfinished = try readModels.environment.read { txn in
            try Set(ReadModelKind.allCases.filter { try readModels.checkpoint($0, txn)?.rebuilding == true })
        }
        if !unfinished.isEmpty { try await rebuild(unfinished, fresh: false, progress: progress) }
    }

    /// Rebuilds `kinds`, from scratch if `fresh`, else from their last chunks. A rebuild of one of
    /// them that is running already (or an erasure's build beside them) makes this one fail as a
    /// conflict.
    func rebuild(_ kinds: Set<ReadModelKind>, fresh: Bool, progress: (RebuildProgress) -> Void) async throws {
        var begun = control.beginRebuild(kinds)
        var attempts = 0
        var stopped: Set<ReadModelKind> = []
        // The read models those upgrades built besides these go on, from their last chunk.
        defer { startUpgrades(stopped.subtracting(kinds)) }
        while !begun, fresh {
            if attempts < 100, !control.snapshot.upgrading.isDisjoint(with: kinds) {
                // An upgrade of these read models builds what this rebuild makes anyway: stop it
                // (again, should another start in between).
                stopped.formUnion(await upgrades.stop(overlapping: kinds))
                attempts += 1
            } else {
                break
            }
            begun = control.beginRebuild(kinds)
        }
        guard begun else {
            throw LogbookError.conflict(stream: "read models", reason: "a rebuild of \(kinds.sorted().map(\.rawValue)) is already running")
        }
        var live = false
        defer { control.endRebuild(kinds, live: live) }
        let replayer = Replayer(log: log, chunkSize: configuration.rebuildChunkSize, payloads: payloads)
        if fresh { try readModels.environment.write { txn in try readModels.clearNext(kinds, txn) } }
        try replayer.prepare(kinds, in: readModels, fresh: fresh)
        // The catalog's revisions are numbered again as the places read model is rebuilt.
        if kinds.contains(.places) { catalogIndex.reset() }
        let head = try await log.headPosition().rawValue
        let folded = try await replayer.fold(kinds, into: readModels, through: head, progress: progress)
        let final = try await host.finishRebuild(kinds, control: control)
        live = true
        forgetAnswers()
        progress(RebuildProgress(projections: kinds.sorted(), position: final, head: max(head, final),
                                 eventsFolded: Int(final - min(folded, final)), finished: true))
    }

    /// The digest of every read model, each at its checkpoint, in one consistent snapshot.
    public func digests() throws -> [ReadModelDigest] {
        // Looked at before the snapshot: an erasure that ends meanwhile switched in before it.
        let erasing = control.snapshot.erasing
        return try readModels.environment.read { txn in
            try readModels.checkpointsAndDigests(txn).map { kind, checkpoint, sha256 in
                // Tables another code version built (an upgrade replaces them) are no more comparable
                // with this code's rebuild than a partial state: verify skips both.
                ReadModelDigest(
                    projection: kind, position: checkpoint?.position ?? 0, sha256: sha256,
                    rebuilding: erasing || (checkpoint.map { $0.rebuilding || $0.codeVersion != kind.codeVersion } ?? true))
            }
        }
    }

    /// Rebuilds every read model into a scratch environment, up to the position the live ones
    /// stand at, and compares digests. Live state is not touched.
    public func verify(progress: @Sendable (RebuildProgress) -> Void = { _ in }) async throws -> [VerificationResult] {
        let live = try digests()
        var results: [VerificationResult] = []
        for group in Dictionary(grouping: live.filter { !$0.rebuilding }, by: \.position).sorted(by: { $0.key < $1.key }) {
            let rebuilt = try await Self.scratchDigests(
                of: log, payloads: payloads, kinds: Set(group.value.map(\.projection)), through: group.key, configuration: configuration,
                progress: progress)
            for digest in group.value {
                results.append(VerificationResult(
                    projection: digest.projection, position: digest.position, live: digest.sha256, rebuilt: rebuilt[digest.projection] ?? ""))
            }
        }
        return results.sorted { $0.projection < $1.projection }
    }

    /// Folds `kinds` from `log` through `position` into a scratch environment of their own, and
    /// answers their digests there; the environment is removed after.
    static func scratchDigests(
        of log: any EventStore, payloads: PayloadKeys, kinds: Set<ReadModelKind>, through position: UInt64,
        configuration: LogbookConfiguration, progress: @Sendable (RebuildProgress) -> Void
    ) async throws -> [ReadModelKind: String] {
        // The scratch read models hold user data (profiles, routes, notes) in plaintext: 0700/0600.
        let directory = try PrivateFiles.temporaryDirectory(prefix: "logbook-verify-")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = EnvironmentOptions()
        options.maxDatabases = configuration.log.maxDatabases
        options.initialMapSize = configuration.log.initialMapSize
        options.durability = .noSync
        let scratchEnvironment = try Environment(path: directory, options: options)
        defer { scratchEnvironment.close() }
        let scratch = try ReadModelStore(environment: scratchEnvironment)
        let replayer = Replayer(log: log, chunkSize: configuration.rebuildChunkSize, payloads: payloads)
        try replayer.prepare(kinds, in: scratch, fresh: true)
        _ = try await replayer.fold(kinds, into: scratch, through: position, progress: progress)
        return try scratchEnvironment.read { txn in
            var digests: [ReadModelKind: String] = [:]
            for kind in kinds { digests[kind] = try scratch.digest(kind, txn) }
            return digests
        }
    }

    /// The last position recorded at or before `time` (0 if none), assuming `recordedAt` grows
    /// with position as the log's clock makes it.
    public func position(asOf time: Timestamp) async throws -> Position {
        var low: UInt64 = 0
        var high = try await log.headPosition().rawValue
        while low < high {
            let middle = (low + high + 1) / 2
            guard let event = try await log.event(at: Position(middle)) else { break }
            if event.recordedAt.instant <= time.instant { low = middle } else { high = middle - 1 }
        }
        return Position(low)
    }

    /// The position an ``AsOf`` names.
    func position(_ asOf: AsOf) async throws -> UInt64 {
        switch asOf {
        case .position(let position): position.rawValue
        case .time(let time): try await position(asOf: time).rawValue
        }
    }
}
