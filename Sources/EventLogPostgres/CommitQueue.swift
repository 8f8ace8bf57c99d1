import EventLog
import Synchronization

/// Group commit for a log in PostgreSQL: appends arriving together from many tasks of this
/// process share one call of `logbook.append` — one round trip, one transaction, one WAL flush.
///
/// Appends wait in arrival order; a drainer takes as many as fit in one commit and sends them,
/// after waiting briefly for the appenders the last commit answered (adaptive gathering). When
/// a backlog of bulk appends builds up, up to ``PostgresLogConfiguration/commitsInFlight``
/// drainers run: while one commit holds the head row, the next is already on its way.
final class CommitQueue: Sendable {
    typealias Results = [KeepingAppendResult]

    private struct Entry {
        let items: [AppendCall.Item]
        let events: Int
        let bytes: Int
        let continuation: CheckedContinuation<Results, any Error>
    }

    private struct State {
        var waiting: [Entry] = []
        var head = 0
        var waitingEvents = 0
        var running = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let configuration: PostgresLogConfiguration
    private let commit: @Sendable ([AppendCall.Item]) async throws -> Results

    /// A queue whose groups `commit` sends to the database.
    init(configuration: PostgresLogConfiguration, commit: @escaping @Sendable ([AppendCall.Item]) async throws -> Results) {
        self.configuration = configuration
        self.commit = commit
    }

    /// Appends `items` in a commit shared with whatever else is waiting; one result per item.
    func submit(_ items: [AppendCall.Item]) async throws -> Results {
        let events = items.reduce(0) { $0 + $1.request.events.count }
        let bytes = items.reduce(0) { total, item in
            total + item.request.events.reduce(0) { $0 + $1.payload.count + $1.metadata.count }
        }
        return try await withCheckedThrowingContinuation { continuation in
            let start: Bool? = state.withLock { state in
                if state.closed { return nil }
                state.waiting.append(Entry(items: items, events: events, bytes: bytes, continuation: continuation))
                state.waitingEvents += events
                // One commit on its way at a time, unless a backlog of bulk appends builds up: then
                // a second call overlaps its transfer with the first one's commit.
                let limit = state.waitingEvents >= configuration.pipelineBacklogEvents ? max(configuration.commitsInFlight, 1) : 1
                guard state.running < limit else { return false }
                state.running += 1
                return true
            }
            switch start {
            case nil: continuation.resume(throwing: EventStoreError.closed)
            case true?: Task { await self.drain() }
            case false?: break
            }
        }
    }

    /// Refuses new appends and returns once every queued one is committed (or failed).
    func close() async {
        state.withLock { $0.closed = true }
        while state.withLock({ $0.running > 0 || $0.head < $0.waiting.count }) {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    private func drain() async {
        // Adaptive gathering, as the LMDB writer does: expect as many appenders back as the last
        // commit answered, and wait up to half a commit's time (50 µs – 2 ms) for them, so
        // concurrent appenders share one commit instead of alternating small and large ones.
        var expected = 1
        var gather = Duration.microseconds(100)
        while true {
            let deadline = ContinuousClock.now + gather
            while waitingCount < expected, waitingCount > 0, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .microseconds(50))
            }
            guard let group = takeGroup() else { return }
            let started = ContinuousClock.now
            defer {
                expected = group.count
                gather = min(max((ContinuousClock.now - started) / 2, .microseconds(50)), .milliseconds(2))
            }
            do {
                let results = try await commit(group.flatMap(\.items))
                var offset = 0
                for entry in group {
                    entry.continuation.resume(returning: Array(results[offset..<offset + entry.items.count]))
                    offset += entry.items.count
                }
            } catch {
                for entry in group { entry.continuation.resume(throwing: error) }
            }
        }
    }

    /// Appends waiting to be taken.
    private var waitingCount: Int { state.withLock { $0.waiting.count - $0.head } }

    /// The next appends to commit together: at least one, then as many as fit the limits.
    private func takeGroup() -> [Entry]? {
        state.withLock { state in
            guard state.head < state.waiting.count else {
                state.waiting.removeAll(keepingCapacity: true)
                state.head = 0
                state.running -= 1
                return nil
            }
            var events = 0
            var bytes = 0
            var end = state.head
            while end < state.waiting.count {
                let entry = state.waiting[end]
                if end > state.head
                    && (events + entry.events > configuration.maxEventsPerCommit || bytes + entry.bytes > configuration.maxBytesPerCommit) {
                    break
                }
                events += entry.events
                bytes += entry.bytes
                end += 1
            }
            let group = Array(state.waiting[state.head..<end])
            state.head = end
            state.waitingEvents -= events
            if state.head > 1_024 && state.head * 2 > state.waiting.count {
                state.waiting.removeFirst(state.head)
                state.head = 0
            }
            return group
        }
    }
}
