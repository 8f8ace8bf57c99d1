/// A live read of the log: events after a position, catching up and then following new commits,
/// in order, with no gap and no duplicate (see ``EventStore/subscribe(after:filter:)``).
///
/// One type for every backend: each provides the ``SubscriptionSource`` that does the reading.
/// Iterate it from one task; cancelling that task (or dropping the iterator) ends it, and it
/// ends by itself when the store closes.
public struct EventSubscription: AsyncSequence, Sendable {
    public typealias Element = SubscriptionElement
    public typealias Failure = any Error

    private let makeSource: @Sendable () -> any SubscriptionSource

    /// A subscription whose iterators read through the sources `makeSource` gives.
    public init(_ makeSource: @escaping @Sendable () -> any SubscriptionSource) {
        self.makeSource = makeSource
    }

    public func makeAsyncIterator() -> Iterator { Iterator(source: makeSource()) }

    /// Delivers the subscription's elements; not shared between tasks.
    public struct Iterator: AsyncIteratorProtocol {
        var source: any SubscriptionSource

        public mutating func next() async throws -> SubscriptionElement? { try await source.next() }

        /// The next elements: waits for at least one, then takes up to `limit` of those already
        /// read without waiting again. Nil once the store has closed. For consumers that fold
        /// in batches (one transaction per batch) rather than element by element.
        public mutating func nextBatch(limit: Int) async throws -> [SubscriptionElement]? {
            try await source.nextBatch(limit: Swift.max(limit, 1))
        }
    }
}

/// What a backend implements to feed an ``EventSubscription``: the next element, waiting for new
/// commits when it has caught up, or nil once the store has closed.
public protocol SubscriptionSource {
    mutating func next() async throws -> SubscriptionElement?

    /// At least one element (waiting for it), then up to `limit` in all of those available
    /// without waiting; nil once the store has closed. The default takes one at a time.
    mutating func nextBatch(limit: Int) async throws -> [SubscriptionElement]?
}

extension SubscriptionSource {
    public mutating func nextBatch(limit: Int) async throws -> [SubscriptionElement]? {
        guard let first = try await next() else { return nil }
        return [first]
    }
}
