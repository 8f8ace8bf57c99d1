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

    /// The body's bytes (an empty body is `{}`). A body must be sent as `application/json`
    /// (415 otherwise): a page of another site can send `text/plain` or a form without asking,
    /// but `application/json` only after the browser asked the server first (CORS), which this
    /// server never allows.
    func jsonBody(limit: Int) async throws -> Data {
        let buffer = try await bodyBytes(limit: limit)
        if buffer.readableBytes == 0 { return Data("{}".utf8) }
        guard MediaType.isJSON(headers[.contentType]) else { throw Problem.unsupportedMediaType(headers[.contentType], accepted: ["application/json"]) }
        return Data(buffer.readableBytesView)
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
}

extension LogbookRouteContext {
    /// A path parameter that the router guarantees, percent-decoded (the router matches the raw
    /// path); ids (`user`, `workoutId`, `placeId`) are checked as the domain checks them, so a
    /// malformed one is 400 on every route, reads included.
    func path(_ name: String) throws -> String {
        guard let raw = parameters.get(name) else { throw Problem.badRequest("the path needs \(name)", field: name) }
        return try QueryValues.pathValue(raw, name: name)
    }
}

/// The media type of a `Content-Type` value.
enum MediaType {
    /// The type and subtype, lowercased, without parameters (`application/json; charset=utf-8` is `application/json`).
    static func essence(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = HTTPWhitespace.trimmed(essence).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// True for `application/json` (with any parameters).
    static func isJSON(_ contentType: String?) -> Bool { essence(contentType) == "application/json" }
}
