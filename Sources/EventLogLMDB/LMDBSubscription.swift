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
    private var buffer: [SubscriptionElement] = []
    private var index = 0
    private let resolver: NameResolver

    init(store: LMDBEventStore, after position: UInt64, filter: EventFilter) {
        self.store = store
        self.nextPosition = position + 1
        self.filter = filter
        self.resolver = NameResolver(databases: store.databases, dense: true)
    }

    mutating func nextBatch(limit: Int) async throws -> [SubscriptionElement]? {
        guard let first = try await next() else { return nil }
        let end = min(buffer.count, index + limit - 1)
        defer { index = end }
        return [first] + buffer[index..<end]
    }

    mutating func next() async throws -> SubscriptionElement? {
        while true {
            if index < buffer.count {
                defer { index += 1 }
                return buffer[index]
            }
            buffer.removeAll(keepingCapacity: true)
            index = 0
            try Task.checkCancellation()
            do { try store.ensureOpen() } catch { return nil }
            let chunk = store.configuration.subscriptionChunkSize
            let from = nextPosition
            let filter = self.filter
            let page = try store.withReader(resolver: resolver) { reader in
                try reader.readAll(from: from, direction: .forward, limit: chunk, scanLimit: chunk * 16, filter: filter)
            }
            if let scanned = page.scannedThrough {
                for event in page.events { buffer.append(.event(event)) }
                if page.events.last?.position != scanned { buffer.append(.scanned(through: scanned)) }
                nextPosition = scanned.rawValue + 1
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
