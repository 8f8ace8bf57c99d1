import EventLog

/// What feeds a subscription to a ``PostgresEventStore``: reads the table by position in pages,
/// and when it has caught up waits for the head to move (a `NOTIFY` from any server's commit,
/// this process's own commits, or the poll that covers lost notifications).
///
/// Reading by position from the last one delivered makes catch-up and live the same loop: no
/// gap, no duplicate, in commit order, whatever happens to notifications. A failed read (the
/// database restarting) ends the iteration with the error; the consumer subscribes again from its
/// checkpoint.
struct PostgresSubscriptionSource: SubscriptionSource {
    let store: PostgresEventStore
    let filter: EventFilter
    private var nextPosition: UInt64
    private var buffer = SubscriptionBuffer()

    init(store: PostgresEventStore, after position: Position, filter: EventFilter) {
        self.store = store
        self.filter = filter
        self.nextPosition = position.rawValue + 1
    }

    mutating func nextBatch(limit: Int) async throws -> [SubscriptionElement]? {
        guard let first = try await next() else { return nil }
        return buffer.batch(startingWith: first, limit: limit)
    }

    mutating func next() async throws -> SubscriptionElement? {
        while true {
            if let element = buffer.next() { return element }
            try Task.checkCancellation()
            let page: LogPage
            do {
                page = try await store.readAll(
                    from: Position(nextPosition), direction: .forward, limit: store.configuration.pageSize, filter: filter)
            } catch let error as EventStoreError where error.code == .closed {
                return nil
            }
            if let next = buffer.load(page) {
                nextPosition = next.rawValue
                // What a read saw committed is a head for every waiting subscription.
                store.watcher.publish(next.rawValue - 1)
                continue
            }
            guard try await store.watcher.wait(forHeadAfter: nextPosition - 1) else { return nil }
        }
    }
}
