/// What a backend's ``SubscriptionSource`` has read but not yet delivered: the events of the last
/// page, then a progress marker if the filter skipped the page's end. Shared by the backends, whose
/// sources differ only in how they read a page and how they wait for the head to move.
package struct SubscriptionBuffer {
    private var elements: [SubscriptionElement] = []
    private var index = 0

    package init() {}

    /// The next element read and not yet delivered, if any.
    package mutating func next() -> SubscriptionElement? {
        guard index < elements.count else { return nil }
        defer { index += 1 }
        return elements[index]
    }

    /// `first` and up to `limit - 1` more elements already read.
    package mutating func batch(startingWith first: SubscriptionElement, limit: Int) -> [SubscriptionElement] {
        let end = min(elements.count, index + limit - 1)
        defer { index = end }
        return [first] + elements[index..<end]
    }

    /// Takes a page read from the log: its events, and `.scanned(through:)` when the read looked
    /// past its last event. Returns the position the next read starts from, or nil if the page
    /// scanned nothing (the reader has caught up).
    package mutating func load(_ page: LogPage) -> Position? {
        elements.removeAll(keepingCapacity: true)
        index = 0
        guard let scanned = page.scannedThrough else { return nil }
        for event in page.events { elements.append(.event(event)) }
        if page.events.last?.position != scanned { elements.append(.scanned(through: scanned)) }
        return scanned.next
    }
}
