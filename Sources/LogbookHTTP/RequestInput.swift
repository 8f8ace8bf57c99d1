import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import Logbook

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
        guard var text = headers[.ifMatch]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if text.hasPrefix("W/") { text.removeFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        guard let version = decimalPosition(text) else {
            throw Problem.badRequest("If-Match must be a stream version such as \"3\"", field: "If-Match")
        }
        return version
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
        guard let text = query("asOf") else { return nil }
        let digits = text.hasPrefix("position:") ? String(text.dropFirst(9)) : text
        if let position = decimalPosition(digits) { return .position(Position(position)) }
        do {
            return .time(try Timestamp(parsing: text))
        } catch {
            throw Problem.badRequest("asOf must be a log position or an RFC 3339 time, not \"\(text)\"", field: "asOf")
        }
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
        guard let text = query("types") else { return nil }
        var types = Set<EventType>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let type = EventType(rawValue: String(name)) else { throw Problem.badRequest("unknown event type \"\(name)\"", field: "types") }
            types.insert(type)
        }
        return types
    }

    /// A page size between 1 and `maximum`.
    func limit(default value: Int, maximum: Int) throws -> Int {
        try query("limit", "a number from 1 to \(maximum)") { Int($0).flatMap { (1...maximum).contains($0) ? $0 : nil } } ?? value
    }
}

/// What a date in a query must be.
let queryDay = "a date (yyyy-mm-dd) of the years 0002 to 9998"

/// A date in a query: `yyyy-mm-dd`, a real day, in the years 0002 to 9998 so that the weeks and
/// windows answered around it stay within the years 0001 to 9999 that dates are written in.
func queryDate(_ text: String) -> CivilDate? {
    guard let date = CivilDate(parsing: text), (2...9998).contains(date.year) else { return nil }
    return date
}

/// A log position, stream version or count written in a request: 1 to 19 ASCII digits, at
/// most 2^63 − 1 (what every backend stores; PostgreSQL's bigint), no sign, no spaces.
func decimalPosition(_ text: some StringProtocol) -> UInt64? {
    guard (1...19).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
          let value = UInt64(text), value <= UInt64(Int64.max) else { return nil }
    return value
}

extension LogbookRouteContext {
    /// A path parameter that the router guarantees, percent-decoded (the router matches the raw
    /// path); ids (`user`, `workoutId`, `placeId`) are checked as the domain checks them, so a
    /// malformed one is 400 on every route, reads included.
    func path(_ name: String) throws -> String {
        guard let raw = parameters.get(name) else { throw Problem.badRequest("the path needs \(name)", field: name) }
        // Most ids hold no escape: decode only those that do (this runs on every request).
        guard let value = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding : raw else {
            throw Problem.badRequest("\(name) is not valid percent-encoded UTF-8", field: name)
        }
        if ["user", "workoutId", "placeId"].contains(name) {
            if let reason = IdRule.violation(value) { throw Problem.badRequest("invalid \(name): \(reason)", field: name) }
        }
        return value
    }
}
