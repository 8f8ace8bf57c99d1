package import Foundation
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
    /// the stream's version as the entity tag.
    static func response(_ result: CommandResult) throws -> Response {
        var headers = HTTPFields()
        headers[.eTag] = "\"\(result.streamVersion)\""
        return try response(result, status: result.alreadyApplied ? .ok : .created, headers: headers)
    }
}
