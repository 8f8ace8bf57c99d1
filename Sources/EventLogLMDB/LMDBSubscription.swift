import EventLog
/// What feeds a subscription to an ``LMDBEventStore``: catches up by reading the log in chunks (one short
/// read transaction each), then waits for the writer to publish a new head and reads again.
///
/// Because it always reads the log by position, there is no hand-over between a catch-up phase
/// and a live phase to get wrong: no gap, no duplicate, in commit order. A slow consumer only
/// falls behind; it never holds up the writer or buffers more than one chunk. Cancelling the
/// consuming task (or dropping the iterator) frees everything. The sequence ends when the store
/// closes.
struct LMDBSubscriptionSource: SubscriptionSource {
    let store: LMDBEventStore
    var nextPosition: UInt64
    let filter: EventFilter
    private var buffer = SubscriptionBuffer()
    private let resolver: NameResolver

    init(store: LMDBEventStore, after position: UInt64, filter: EventFilter) {
        self.store = store
        self.nextPosition = position + 1
        self.filter = filter
        self.resolver = NameResolver(databases: store.databases, dense: true)
    }

    mutating func nextBatch(limit: Int) async throws -> [SubscriptionElement]? {
        guard let first = try await next() else { return nil }
        return buffer.batch(startingWith: first, limit: limit)
    }

    mutating func next() async throws -> SubscriptionElement? {
        while true {
            if let element = buffer.next() { return element }
            try Task.checkCancellation()
            do { try store.ensureOpen() } catch { return nil }
            let chunk = store.configuration.subscriptionChunkSize
            let from = nextPosition
            let filter = self.filter
            let page = try store.withReader(resolver: resolver) { reader in
                try reader.readAll(from: from, direction: .forward, limit: chunk, scanLimit: chunk * 16, filter: filter)
            }
            if let next = buffer.load(page) {
                nextPosition = next.rawValue
                continue
            }
            if store.configuration.readOnly {
                try await Task.sleep(for: store.configuration.readOnlyPollInterval)
            } else if try await !store.watcher.wait(forHeadAfter: nextPosition - 1) {
                return nil
            }
        }
    }
}
