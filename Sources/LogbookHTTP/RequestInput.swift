import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import Logbook
import LogbookInput

/// Reading what a request carries — body, path parameters, query parameters, headers — into
/// domain values, with a ``Problem`` naming the part that was wrong.
extension Request {
    /// The body, refused with 413 if it is larger than `limit` bytes (judged from
    /// `Content-Length` before reading when the client sent one).
    func bodyBytes(limit: Int) async throws -> ByteBuffer {
        if let length = headers[.contentLength].flatMap(Int.init), length > limit { throw Problem.tooLarge(limit) }
        do {
            return try await body.collect(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Problem.tooLarge(limit)
        }
    }

    /// The body's bytes (an empty body is `{}`).
    func jsonBody(limit: Int) async throws -> Data {
        let buffer = try await bodyBytes(limit: limit)
        return buffer.readableBytes == 0 ? Data("{}".utf8) : Data(buffer.readableBytesView)
    }

    /// The body as a JSON object (an empty body is `{}`).
    func jsonObject(limit: Int) async throws -> [String: Any] {
        try EventBody.object(try await jsonBody(limit: limit))
    }

    /// `Idempotency-Key`, as sent (checked by ``IdempotentRequest``).
    func idempotencyKey() -> String? {
        headers[HTTPField.Name("Idempotency-Key")!]
    }

    /// The body's bytes, kept in the request so handlers can read it again; refused with 413 if
    /// larger than `limit`.
    mutating func bufferBody(limit: Int) async throws -> [UInt8] {
        if let length = headers[.contentLength].flatMap(Int.init), length > limit { throw Problem.tooLarge(limit) }
        do {
            return Array(try await collectBody(upTo: limit).readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Problem.tooLarge(limit)
        }
    }

    /// `If-Match`: the stream version the client expects, as an entity tag (`"3"`) or a number.
    func expectedVersion() throws -> UInt64? {
        try headers[.ifMatch].map { (text) throws(InputError) in try QueryValues.expectedVersion(ifMatch: text) }
    }

    /// An optional query parameter.
    func query(_ name: String) -> String? {
        uri.queryParameters.get(name)
    }

    /// A query parameter parsed by `parse`, with a 400 naming it if it does not parse.
    func query<T>(_ name: String, _ what: String, _ parse: (String) -> T?) throws -> T? {
        guard let text = query(name) else { return nil }
        guard let value = parse(text) else { throw Problem.badRequest("\(name) must be \(what), not \"\(text)\"", field: name) }
        return value
    }

    /// A required query parameter parsed by `parse`.
    func requiredQuery<T>(_ name: String, _ what: String, _ parse: (String) -> T?) throws -> T {
        guard let value = try query(name, what, parse) else { throw Problem.badRequest("the query needs \(name) (\(what))", field: name) }
        return value
    }

    /// `asOf`: a log position (`123` or `position:123`) or an RFC 3339 time.
    func asOf() throws -> AsOf? {
        try query("asOf").map { (text) throws(InputError) in try QueryValues.asOf(text) }
    }

    /// The log position the answer must reflect: `minPosition` in the query or the
    /// `X-Logbook-Min-Position` header (a write's `X-Logbook-Position`, made on any server).
    func minPosition() throws -> Position? {
        // Both forms are checked when both are sent; the query's wins.
        var position: UInt64?
        for (field, given) in [("X-Logbook-Min-Position", headers[.logbookMinPosition]), ("minPosition", query("minPosition"))] {
            guard let text = given else { continue }
            guard let value = decimalPosition(text) else {
                throw Problem.badRequest("\(field) must be a log position (0 to 2^63 − 1), not \"\(text.prefix(40))\"", field: field)
            }
            position = value
        }
        return position.map { Position($0) }
    }

    /// A date query parameter (`yyyy-mm-dd`).
    func date(_ name: String) throws -> CivilDate? {
        try query(name, queryDay, queryDate)
    }

    /// `types`: comma-separated event types, each one the domain knows.
    func eventTypes() throws -> Set<EventType>? {
        try query("types").map { (text) throws(InputError) in try QueryValues.eventTypes(text) }
    }

    /// A page size between 1 and `maximum`.
    func limit(default value: Int, maximum: Int) throws -> Int {
        try query("limit", "a number from 1 to \(maximum)") { QueryValues.limit($0, maximum: maximum) } ?? value
    }
}

/// What a date in a query must be.
let queryDay = QueryValues.day

/// A date in a query (``QueryValues/date(_:)``).
func queryDate(_ text: String) -> CivilDate? { QueryValues.date(text) }

/// A log position, stream version or count written in a request (``QueryValues/decimalPosition(_:)``).
func decimalPosition(_ text: some StringProtocol) -> UInt64? { QueryValues.decimalPosition(text) }

extension LogbookRouteContext {
    /// A path parameter that the router guarantees, percent-decoded (the router matches the raw
    /// path); ids (`user`, `workoutId`, `placeId`) are checked as the domain checks them, so a
    /// malformed one is 400 on every route, reads included.
    func path(_ name: String) throws -> String {
        guard let raw = parameters.get(name) else { throw Problem.badRequest("the path needs \(name)", field: name) }
        return try QueryValues.pathValue(raw, name: name)
    }
}
