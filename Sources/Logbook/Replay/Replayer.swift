import BinaryCoding
import EventLog
import LMDB
import LogbookStorage

/// How far a rebuild has come, for progress bars.
public struct RebuildProgress: Sendable, Hashable, Codable {
    public var projections: [ReadModelKind]
    /// The last position folded.
    public var position: UInt64
    /// The head of the log when the rebuild started (it may grow meanwhile).
    public var head: UInt64
    public var eventsFolded: Int
    public var finished: Bool
}

/// Rebuilding read models from the log: in chunks (one checkpoint per chunk), cancellable and
/// resumable, into the live store (then catching up inside a write transaction and going live)
/// or into a scratch store (for `verify`).
struct Replayer: Sendable {
    let log: any EventStore
    let chunkSize: Int
    /// Opens payloads (an erased user's events decode to nothing).
    let payloads: PayloadKeys

    /// Folds events after each projection's checkpoint up to `end` into `store` (its live tables,
    /// or the next ones an upgrade in the background builds), one write
    /// transaction and one checkpoint per chunk of ``chunkSize`` events, each written while the
    /// next chunk folds (``ChunkWrites``); returns the last position folded, written. The log is read and decoded in slices of positions, up to ``slicesAhead`` of them
    /// ahead in child tasks while the current slice folds, so neither core waits for the other;
    /// slices are folded in position order whatever order they finish in, each into the read
    /// models' groups side by side (``FoldGroup``). `end` is at most the
    /// log's head (every position through it committed): each slice counts as read through its
    /// last position. All of it runs on ``ReplayThreads``, off the pool that serves requests.
    func fold(
        _ kinds: Set<ReadModelKind>, into store: ReadModelStore, _ build: ReadModelStore.Build = .live, through end: UInt64,
        progress: (RebuildProgress) -> Void
    ) async throws -> UInt64 {
        try await withTaskExecutorPreference(ReplayThreads.shared) {
            try await foldOnReplayThreads(kinds, into: store, build, through: end, progress: progress)
        }
    }

    private func foldOnReplayThreads(
        _ kinds: Set<ReadModelKind>, into store: ReadModelStore, _ build: ReadModelStore.Build, through end: UInt64,
        progress: (RebuildProgress) -> Void
    ) async throws -> UInt64 {
        var checkpoints: [ReadModelKind: UInt64] = [:]
        // No switch of these kinds can happen meanwhile: the caller owns them (ReadModelControl).
        let slots = try store.environment.read { txn in
            for kind in kinds { checkpoints[kind] = try store.checkpoint(kind, build, txn)?.position ?? 0 }
            return try store.slots(txn)
        }
        let start = checkpoints.values.min() ?? end
        guard start < end else { return start }
        let groups = FoldGroup.split(kinds).map { group in
            FoldGroup(kinds: group, projections: store.projectionSet(slots, next: build == .next ? kinds : [], active: group))
        }
        var folded = 0
        var position = start
        var sinceCheckpoint = 0
        var writes = ChunkWrites()
        let ordered = kinds.sorted()
        let slice = UInt64(max(1, min(chunkSize, 8_192)))
        let log = self.log
        let payloads = self.payloads
        do {
            try await withThrowingTaskGroup(of: DecodedSlice.self) { group in
                // The next slice to hand to a child task starts after `nextStart`.
                var nextStart = start
                func decodeNext() {
                    let after = nextStart
                    let through = min(after + slice, end)
                    group.addTask { try await Self.decode(log, payloads, after: after, through: through) }
                    nextStart = through
                }
                for _ in 0...Self.slicesAhead where nextStart < end { decodeNext() }
                var decodedAhead: [UInt64: DecodedSlice] = [:]
                while position < end {
                    try Task.checkCancellation()
                    while decodedAhead[position] == nil {
                        guard let decoded = try await group.next() else { throw LogbookError.storage("a rebuild lost the slice after position \(position)") }
                        decodedAhead[decoded.after] = decoded
                    }
                    let decoded = decodedAhead.removeValue(forKey: position)!
                    if nextStart < end { decodeNext() }
                    let parts = decoded.parts
                    let count = decoded.count
                    let last = decoded.through
                    guard let first = decoded.first else {
                        position = last
                        continue
                    }
                    let behindAll = checkpoints.values.allSatisfy { $0 < first.position }
                    try await Self.foldSideBySide(groups, parts, after: checkpoints, behindAll: behindAll, in: store)
                    sinceCheckpoint += count
                    position = last
                    if sinceCheckpoint >= chunkSize || last >= end {
                        try await checkpoint(groups, kinds, at: last, &checkpoints, store, build, &writes)
                        sinceCheckpoint = 0
                        progress(RebuildProgress(projections: ordered, position: position, head: end, eventsFolded: folded + count, finished: false))
                    }
                    folded += count
                }
            }
            // Also when the last slices held nothing to fold: the checkpoint must say they were read.
            if sinceCheckpoint > 0 || checkpoints.values.contains(where: { $0 < position }) {
                try await checkpoint(groups, kinds, at: position, &checkpoints, store, build, &writes)
            }
            try await writes.settle(groups)
        } catch {
            await writes.abandon()
            for group in groups { group.withProjections { $0.dropCache() } }
            throw error
        }
        return position
    }

    /// Folds a slice's events into every group, the first on this task and each other on a child
    /// task of its own, and returns when all of them have.
    private static func foldSideBySide(
        _ groups: [FoldGroup], _ parts: [[FoldEvent]], after checkpoints: [ReadModelKind: UInt64], behindAll: Bool, in store: ReadModelStore
    ) async throws {
        guard groups.count > 1 else {
            try groups.first?.fold(parts, after: checkpoints, behindAll: behindAll, in: store)
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { side in
            for group in groups.dropFirst() {
                side.addTask { try group.fold(parts, after: checkpoints, behindAll: behindAll, in: store) }
            }
            try groups[0].fold(parts, after: checkpoints, behindAll: behindAll, in: store)
            try await side.waitForAll()
        }
    }

    /// How many slices are decoded ahead of the one folding, besides the next one.
    static let slicesAhead = 3

    /// Hands what the chunk changed off to be written, with the checkpoints moved, in one write
    /// transaction on a task of its own (``ChunkWrites``); the cache is forgotten once it holds
    /// too many records, after the write.
    private func checkpoint(
        _ groups: [FoldGroup], _ kinds: Set<ReadModelKind>, at position: UInt64,
        _ checkpoints: inout [ReadModelKind: UInt64], _ store: ReadModelStore, _ build: ReadModelStore.Build, _ writes: inout ChunkWrites
    ) async throws {
        let moving = kinds.filter { checkpoints[$0, default: 0] < position }.sorted()
        try await writes.handOff(groups, moving: moving, to: position, in: store, build)
        for kind in moving { checkpoints[kind] = position }
        let cached = groups.reduce(0) { total, group in total + group.withProjections { $0.cachedCount } }
        if cached > 300_000 {
            try await writes.settle(groups)
            for group in groups { group.withProjections { $0.dropCache() } }
        }
    }

    /// The decoded events of the positions after `after` through `through`, in log order: the
    /// parts one after another, as they were decoded side by side (kept apart, not copied into one
    /// array, which would retain and release every event's fields once more).
    struct DecodedSlice: Sendable {
        var after: UInt64
        var through: UInt64
        var parts: [[FoldEvent]]

        /// How many events the slice holds.
        var count: Int { parts.reduce(0) { $0 + $1.count } }
        /// Its first event (nil: none).
        var first: FoldEvent? { parts.first { !$0.isEmpty }?.first }
    }

    /// Reads and decodes the events after `position` through `end`.
    private static func decode(_ log: any EventStore, _ payloads: PayloadKeys, after position: UInt64, through end: UInt64) async throws -> DecodedSlice {
        if payloads.encrypts { return try await openInHalves(log, payloads, after: position, through: end) }
        var events: [FoldEvent] = []
        events.reserveCapacity(Int(end - position))
        try await log.scan(after: Position(position), through: Position(end), filter: .all, chunkSize: Int(end - position)) { envelope, _, payload in
            if let fold = try FoldEvent.decode(envelope, payload: payload, payloads) { events.append(fold) }
            return true
        }
        return DecodedSlice(after: position, through: end, parts: [events])
    }

    /// The same for a store whose payloads are encrypted, where opening them costs more than
    /// everything else an event takes: the slice is read first, then opened and decoded in two
    /// parts side by side (the fold of the previous slice shares the cores with them), and put
    /// back in log order.
    private static func openInHalves(
        _ log: any EventStore, _ payloads: PayloadKeys, after position: UInt64, through end: UInt64
    ) async throws -> DecodedSlice {
        let stretch = try await SealedStretch.read(log, after: position, through: end) { EventType(rawValue: $0.type) != nil }
        try await payloads.prepare(opening: stretch.envelopes)
        let opened = try await stretch.opened(with: payloads, parts: 2, start: { count in
            var events: [FoldEvent] = []
            events.reserveCapacity(count)
            return events
        }) { (events, envelope, plaintext) throws(LogbookError) in
            if let event = try FoldEvent.decode(envelope, plaintext: plaintext) { events.append(event) }
        }
        return DecodedSlice(after: position, through: end, parts: opened)
    }

    /// Prepares `kinds` for a rebuild of their live tables or their next ones: empties them (from
    /// scratch) or keeps their checkpoints (resuming), and marks them as rebuilding.
    func prepare(_ kinds: Set<ReadModelKind>, in store: ReadModelStore, _ build: ReadModelStore.Build = .live, fresh: Bool) throws {
        try store.environment.write { txn in
            for kind in kinds {
                let current = try store.checkpoint(kind, build, txn)
                let resumable = !fresh && current?.rebuilding == true && current?.codeVersion == kind.codeVersion
                let stale = current.map { $0.codeVersion != kind.codeVersion } ?? false
                if resumable { continue }
                if fresh || stale || current == nil {
                    try store.clear(kind, build, txn)
                    try store.setCheckpoint(kind, build, .init(position: 0, codeVersion: kind.codeVersion, rebuilding: true), txn)
                } else if let current {
                    // Catching up a live projection that fell behind: keep its tables and position.
                    try store.setCheckpoint(kind, build, .init(position: current.position, codeVersion: kind.codeVersion, rebuilding: true), txn)
                }
            }
        }
    }
}
