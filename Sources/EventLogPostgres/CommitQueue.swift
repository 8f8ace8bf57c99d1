import EventLog
import Synchronization

/// Group commit for a log in PostgreSQL: appends arriving together from many tasks of this
/// process share one call of `logbook.append` — one round trip, one transaction, one WAL flush.
///
/// Appends wait in arrival order; up to ``PostgresLogConfiguration/commitsInFlight`` drainers
/// each take as many as fit in one commit and send them. While one commit holds the head row,
/// the next is already on its way and waits in the database, so the round trip is hidden.
final class CommitQueue: Sendable {
    typealias Results = [Result<AppendResult, EventStoreError>]

    private struct Entry {
        let items: [AppendCall.Item]
        let events: Int
        let bytes: Int
        let continuation: CheckedContinuation<Results, any Error>
    }

    private struct State {
        var waiting: [Entry] = []
        var head = 0
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
                guard state.running < max(configuration.commitsInFlight, 1) else { return false }
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
        while let group = takeGroup() {
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
            if state.head > 1_024 && state.head * 2 > state.waiting.count {
                state.waiting.removeFirst(state.head)
                state.head = 0
            }
            return group
        }
    }
}
