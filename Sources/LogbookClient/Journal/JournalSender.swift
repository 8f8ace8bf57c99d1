import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends a journaled command to the server through the client's middlewares (the query cache,
/// which notes the command's position, and the bearer token) and its transport, the way the
/// typed call would have.
struct JournalSender: Sendable {
    let serverURL: URL
    let transport: any ClientTransport
    let middlewares: [any ClientMiddleware]

    /// What one try of a command came to.
    enum Outcome: Sendable {
        /// The server's answer, with up to `answerBytes` of its body.
        case answered(HTTPResponse, [UInt8])
        /// No answer: the transport's error, described.
        case failed(String)
    }

    func send(_ command: JournaledCommand, answerBytes: Int) async -> Outcome {
        var fields = HTTPFields()
        for header in command.headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        let request = HTTPRequest(method: HTTPRequest.Method(command.method) ?? .post, scheme: nil, authority: nil, path: command.path, headerFields: fields)
        let body = command.body.map { HTTPBody([UInt8]($0)) }
        let operation = command.operation
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { [transport] request, body, url in
            try await transport.send(request, body: body, baseURL: url, operationID: operation)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, body, url in try await middleware.intercept(request, body: body, baseURL: url, operationID: operation, next: inner) }
        }
        do {
            let (response, answer) = try await next(request, body, serverURL)
            var bytes: [UInt8] = []
            if let answer {
                for try await chunk in answer {
                    bytes += chunk.prefix(max(0, answerBytes - bytes.count))
                }
            }
            return .answered(response, bytes)
        } catch {
            return .failed("\(error)")
        }
    }
}
