import EventLog
import Foundation
import LogbookStorage

extension Logbook {
    /// A page of `user`'s timeline: rows from the log's subject index, described with the
    /// context the timeline read model kept. Rows the timeline has not folded yet (a read model
    /// following the log from elsewhere) are left for a later page. At most `limit` entries; a page
    /// whose filter matches rarely may hold fewer and still carry a cursor (it stops after
    /// examining 5,000 events).
    func timelinePage(
        user: String, filter: TimelineFilter, limit: Int, cursor: String?, through end: UInt64?
    ) async throws -> TimelinePage {
        try await payloads.prepare([user], creating: false)
        // An erased user has no timeline: every event of theirs reads as erased.
        if try isErased(user) { return TimelinePage(entries: [], nextCursor: nil) }
        var start: UInt64
        if let cursor {
            guard let position = UInt64(cursor) else { throw LogbookError.invalidArgument(name: "cursor", reason: "not a timeline cursor") }
            start = filter.newestFirst ? (position == 0 ? 0 : position - 1) : position + 1
        } else {
            start = filter.newestFirst ? (end ?? .max) : 1
        }
        let folded = try readModels.environment.read { txn in try readModels.checkpoint(.timeline, txn)?.position ?? 0 }
        let bound = min(end ?? .max, folded)
        start = min(start, bound)
        var scan = TimelineScan(limit: limit, bound: bound)
        var admitted = false
        while !scan.isDone {
            let page = try await log.readSubject(
                user, from: Position(start), direction: filter.newestFirst ? .backward : .forward, limit: min(256, max(limit * 2, 32)))
            if page.isEmpty || start == 0 {
                scan.exhausted = true
                break
            }
            // Filtering and opening a page is the user's work: on the query threads, the first
            // page judged against the user's budget, the later ones charged.
            let before = scan
            scan = try await queryWork.run(user: user, continuing: admitted) {
                var scan = before
                try scan.take(page, filter: filter, payloads: self.payloads)
                return scan
            }
            admitted = true
            if scan.isDone { break }
            let last = page[page.count - 1].position.rawValue
            if filter.newestFirst {
                if last <= 1 { scan.exhausted = true; break }
                start = last - 1
            } else {
                start = last + 1
            }
        }
        let (rows, exhausted, lastExamined) = (scan.rows, scan.exhausted, scan.lastExamined)
        let found = rows
        let entries = try await queryWork.run(user: user, continuing: admitted) {
            try self.read { projections, txn in
                try found.map { event, domainEvent in try projections.timelineEntry(user: user, event: event, domainEvent, txn) }
            }
        }
        return TimelinePage(entries: entries, nextCursor: exhausted ? nil : lastExamined.map(String.init))
    }
}

/// Where a timeline page's scan of the user's events stands: the rows found so far, how many
/// events were examined (at most 5,000 a page), and whether the log has no more to read.
struct TimelineScan: Sendable {
    let limit: Int
    /// The last log position the timeline read model folded (or the as-of end): rows past it wait.
    let bound: UInt64
    var rows: [(RecordedEvent, DomainEvent)] = []
    var examined = 0
    var lastExamined: UInt64?
    var exhausted = false

    init(limit: Int, bound: UInt64) {
        self.limit = limit
        self.bound = bound
    }

    /// Whether the page is full, the log ran out or the examination limit was reached.
    var isDone: Bool { exhausted || rows.count >= limit || examined >= 5_000 }

    /// Examines `page`'s events in order until done: those of the filter's types and instants are
    /// opened and decoded (an erased user's are skipped).
    mutating func take(_ page: [RecordedEvent], filter: TimelineFilter, payloads: PayloadKeys) throws {
        for event in page {
            if event.position.rawValue > bound {
                exhausted = true
                return
            }
            examined += 1
            lastExamined = event.position.rawValue
            guard let type = EventType(rawValue: event.type) else { continue }
            if let types = filter.types, !types.contains(type) { continue }
            if let from = filter.from, event.occurredAt.instant < from.instant { continue }
            if let to = filter.to, event.occurredAt.instant > to.instant { continue }
            let decoded = try payloads.open(event.envelope, event.payload.span) { (plaintext) throws(LogbookError) -> DomainEvent? in
                guard let plaintext else { return nil }
                do throws(DomainCodingError) {
                    return try BinaryEventCodec.decode(type, schemaVersion: event.schemaVersion, payload: plaintext)
                } catch {
                    throw .coding(error)
                }
            }
            guard let decoded else { continue }
            rows.append((event, decoded))
            if rows.count == limit { return }
        }
    }
}
