import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import Logbook
import LogbookInput

/// A page of the log read in one direction (`from`, `direction`, `limit`), by log position, or by
/// stream version for a stream's page.
struct LogPageQuery: RouteQuery {
    static let direction = QueryParameter<ReadingDirection>.choice(
        "direction", ReadingDirection.self, "Reading direction", "Reading direction (default forward)")
    static let from = QueryParameter<UInt64>.position(
        "from", "Start at this log position, inclusive (default: the first, or the last reading backward)")
    static let limit = QueryParameter<Int>.limit(maximum: 1000)
    static var parameters: [DocumentedQueryParameter] { [from.documented, direction.documented, limit.documented] }

    let direction: ReadDirection
    /// `from`, or where reading in ``direction`` starts.
    let from: UInt64
    let limit: Int

    init(_ request: Request) throws { try self.init(request, from: Self.from, first: 1) }

    init(_ request: Request, from parameter: QueryParameter<UInt64>, first: UInt64) throws {
        let direction = try Self.direction.value(in: request) ?? .forward
        self.direction = direction == .forward ? .forward : .backward
        from = try parameter.value(in: request) ?? (direction == .forward ? first : UInt64.max)
        limit = try Self.limit.value(in: request) ?? 100
    }
}

/// A stream's page: `from` is a stream version.
struct StreamPageQuery: RouteQuery {
    static let from = QueryParameter<UInt64>.position(
        "from", "Start at this stream version, inclusive (default: the first, or the last reading backward)", expected: "a stream version")
    static var parameters: [DocumentedQueryParameter] {
        [from.documented, LogPageQuery.direction.documented, LogPageQuery.limit.documented]
    }
    let page: LogPageQuery
    init(_ request: Request) throws { page = try LogPageQuery(request, from: Self.from, first: 0) }
}

/// The whole log's page: a page, filtered by event types and stream prefix.
struct WholeLogQuery: RouteQuery {
    static let prefix = QueryParameter<String>("prefix", .string("A stream id prefix"), "Only streams whose id starts with this",
                                               expected: "a stream id prefix", read: { $0 })
    static var parameters: [DocumentedQueryParameter] { LogPageQuery.parameters + [SharedQueryParameters.eventTypes.documented, prefix.documented] }
    let page: LogPageQuery
    let filter: EventFilter
    init(_ request: Request) throws {
        page = try LogPageQuery(request)
        filter = try Self.filter(request)
    }

    /// Event types and stream prefix.
    static func filter(_ request: Request) throws -> EventFilter {
        var filter = EventFilter()
        filter.eventTypes = try SharedQueryParameters.eventTypes.value(in: request).map { Set($0.map(\.rawValue)) }
        filter.streamPrefix = try prefix.value(in: request)
        return filter
    }
}

/// A subscription: where it resumes, what it sends, when it ends. `Last-Event-ID` (a header)
/// takes precedence over `after`.
struct SubscriptionQuery: RouteQuery {
    static let after = QueryParameter<UInt64>.position("after", "Start after this log position (Last-Event-ID takes precedence)")
    static let limit = QueryParameter<UInt64>(
        "limit", .integer("A number of events", minimum: 1, maximum: Int.max), "End the stream after this many events (default: never)",
        expected: "a positive number of events", read: { QueryValues.decimalPosition($0).flatMap { $0 > 0 ? $0 : nil } })
    static let linger = QueryParameter<Int>(
        "linger", .integer("Milliseconds", minimum: 1, maximum: 60_000),
        "End the stream once it has sent no event for this many milliseconds after its last one, or, if it has sent none, at its "
            + "first keep-alive: a long poll, for clients whose transport hands them a response only once it ends (default: never)",
        expected: "a number of milliseconds from 1 to 60000", read: { Int($0).flatMap { (1...60_000).contains($0) ? $0 : nil } })
    /// The whole log's subscription (administrators) also filters by stream prefix.
    static var parameters: [DocumentedQueryParameter] {
        [after.documented, SharedQueryParameters.eventTypes.documented, WholeLogQuery.prefix.documented, limit.documented, linger.documented]
    }
    let after: UInt64
    let filter: EventFilter
    let limit: UInt64?
    let linger: Duration?
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        if let lastId = request.headers[HTTPField.Name("Last-Event-ID")!] {
            guard let value = QueryValues.decimalPosition(lastId.trimmingCharacters(in: .whitespaces)) else {
                throw Problem.badRequest("Last-Event-ID must be a log position, not \"\(lastId)\"", field: "Last-Event-ID")
            }
            after = value
        } else {
            after = try Self.after.value(in: parameters) ?? 0
        }
        filter = try WholeLogQuery.filter(request)
        limit = try Self.limit.value(in: parameters)
        linger = try Self.linger.value(in: parameters).map { .milliseconds($0) }
    }
}

/// A user's own subscription: as ``SubscriptionQuery``, without a stream prefix.
struct UserSubscriptionQuery: RouteQuery {
    static var parameters: [DocumentedQueryParameter] {
        [SubscriptionQuery.after.documented, SharedQueryParameters.eventTypes.documented, SubscriptionQuery.limit.documented, SubscriptionQuery.linger.documented]
    }
    let subscription: SubscriptionQuery
    init(_ request: Request) throws { subscription = try SubscriptionQuery(request) }
}

/// The two directions of reading, as the query names them.
enum ReadingDirection: String, Sendable, CaseIterable {
    case forward, backward
}
