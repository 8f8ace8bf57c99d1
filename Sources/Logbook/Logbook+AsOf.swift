import EventLog
import LogbookDomain
import Synchronization

extension Logbook {
    /// Events folded per step of an as-of fold (one page of the user's timeline or the catalog).
    static let asOfPage = 4_096

    /// Every read model of one user (and the catalog) as of `position`, folded in memory from the
    /// user's timeline and the catalog stream, merged in log order: live state is not touched.
    ///
    /// Costs the user's events and the catalog's up to `position` (read a page at a time, never
    /// all held at once) and the read models they fold into; the folding runs on the query
    /// threads as the user's uncached work (``QueryWorkLimits``).
    ///
    /// A fold holds the user's read models in memory, so a user has one fold at a time and the
    /// server folds for at most as many users at once as it has query threads: past either, the
    /// query is refused as busy at once, never queued. The budget is judged before the first page;
    /// a fold once admitted runs to its end (each page charged to the user's budget).
    func projections(user: String, asOf position: UInt64) async throws -> ReadModelSet {
        let pass = try asOfFolds.enter(user, limit: configuration.queryWork.threads)
        defer { asOfFolds.leave(pass) }
        return try await fold(user: user, asOf: position)
    }

    private func fold(user: String, asOf position: UInt64) async throws -> ReadModelSet {
        try await payloads.prepare([user], creating: false)
        let folded = AsOfFold()
        var subject = PagedSource { [log] next in
            try await log.readSubject(user, from: Position(next), direction: .forward, limit: Self.asOfPage)
        }
        var catalog = PagedSource { [log] next in
            try await log.readStream(DomainEvent.catalogStream, from: next, direction: .forward, limit: Self.asOfPage)
        } resume: { $0.streamVersion + 1 }
        catalog.next = 0
        var continuing = false
        while true {
            var batch: [RecordedEvent] = []
            while batch.count < Self.asOfPage {
                try await subject.fill(through: position)
                try await catalog.fill(through: position)
                switch (subject.peek, catalog.peek) {
                case (nil, nil): break
                case (let a?, let b?): batch.append(a.position < b.position ? subject.take() : catalog.take()); continue
                case (_?, nil): batch.append(subject.take()); continue
                case (nil, _?): batch.append(catalog.take()); continue
                }
                break
            }
            if batch.isEmpty { return folded.projections }
            let (events, payloads) = (batch, self.payloads)
            try await queryWork.run(user: user, continuing: continuing) {
                var memo = payloads.keyMemo(events: events.count)
                for event in events {
                    if let fold = try FoldEvent.decode(event.envelope, payload: event.payload.span, payloads, remembering: &memo) {
                        try folded.projections.apply(fold, nil)
                    }
                }
            }
            continuing = true
        }
    }
}

/// The read models an as-of fold builds: handed from one query-thread step to the next, never
/// touched by two at once (each step is awaited before the next starts).
private final class AsOfFold: @unchecked Sendable {
    var projections = ReadModelSet.inMemory()
}

/// The events of one source of an as-of fold (the user's timeline, or the catalog stream), a page
/// at a time, up to a position.
private struct PagedSource {
    let read: @Sendable (UInt64) async throws -> [RecordedEvent]
    /// Where the next page starts, from the last event read (its position + 1 by default).
    let resume: @Sendable (RecordedEvent) -> UInt64
    var next: UInt64 = 1
    var page: [RecordedEvent] = []
    var index = 0
    var done = false

    init(_ read: @escaping @Sendable (UInt64) async throws -> [RecordedEvent], resume: @escaping @Sendable (RecordedEvent) -> UInt64 = { $0.position.rawValue + 1 }) {
        self.read = read
        self.resume = resume
    }

    /// Reads the next page if this one is used up and the source is not, up to `position`.
    mutating func fill(through position: UInt64) async throws {
        guard index == page.count, !done else { return }
        let read = try await self.read(next)
        index = 0
        page = read.filter { $0.position.rawValue <= position }
        if let last = read.last { next = resume(last) }
        if read.isEmpty || page.count < read.count { done = true }
    }

    var peek: RecordedEvent? { index < page.count ? page[index] : nil }

    mutating func take() -> RecordedEvent {
        defer { index += 1 }
        return page[index]
    }
}

/// The as-of folds running, by user: at most a given number of users at once.
final class AsOfFolds: Sendable {
    private let running = Mutex<[BytewiseString: Int]>([:])

    /// Admits a fold for `user`, or refuses it as busy.
    func enter(_ user: String, limit: Int) throws -> BytewiseString {
        let key = BytewiseString(user)
        let refusal = running.withLock { running -> String? in
            if running[key] != nil { return "the user's earlier as-of query is still being folded (one at a time)" }
            if running.count >= limit { return "the server is folding as-of queries for as many users as it allows" }
            running[key] = 1
            return nil
        }
        if let refusal { throw LogbookError.busy(user: user, retryAfter: 1, reason: refusal) }
        return key
    }

    /// Ends the fold `enter` admitted.
    func leave(_ key: BytewiseString) {
        _ = running.withLock { $0.removeValue(forKey: key) }
    }
}
