package import Foundation
import HTTPTypes
import Hummingbird
import Logbook

/// Responses with JSON bodies: canonical (sorted keys), so the same answer is the same bytes.
package enum JSONOutput {
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        try response(bytes: encoder.encode(value), status: status, headers: headers)
    }

    static func response(bytes: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], contentType: String = "application/json") -> Response {
        var headers = headers
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The answer to a command: 201 with the result (200 when it had already been applied),
    /// the stream's version as the entity tag, and the log position of what it wrote in
    /// `X-Logbook-Position` (pass it as `minPosition` to read this write on another server).
    static func response(_ result: CommandResult) throws -> Response {
        try response(result, status: result.alreadyApplied ? .ok : .created, headers: commandHeaders(result))
    }

    /// The entity tag and the `X-Logbook-Position` of a command's answer.
    static func commandHeaders(_ result: CommandResult) -> HTTPFields {
        var headers = HTTPFields()
        headers[.eTag] = "\"\(result.streamVersion)\""
        if result.lastPosition > 0 { headers[.logbookPosition] = String(result.lastPosition) }
        return headers
    }
}

extension HTTPField.Name {
    /// The log position a write reached (on answers), for `minPosition` on later reads.
    static let logbookPosition = HTTPField.Name("X-Logbook-Position")!
    /// The log position a read must reflect (on requests): the header form of `minPosition`.
    static let logbookMinPosition = HTTPField.Name("X-Logbook-Min-Position")!
}
