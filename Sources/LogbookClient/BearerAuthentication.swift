public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Sends each request with the user's bearer token, and after a `401` once more with a refreshed one.
///
/// A request is sent again only when its body can be read twice (every body the typed calls make from
/// a value can; a stream handed in once cannot, and its `401` is returned as is). The server checks
/// the token before it reads a command, so a command refused with `401` wrote nothing and may be sent
/// again under the same Idempotency-Key.
public struct BearerAuthentication: ClientMiddleware {
    private let tokens: any AccessTokenProvider

    /// Takes each request's token from `tokens`.
    public init(tokens: any AccessTokenProvider) { self.tokens = tokens }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let token = try await tokens.currentToken()
        let answer = try await next(Self.request(request, bearing: token), body, baseURL)
        guard answer.0.status == .unauthorized, (body?.iterationBehavior ?? .multiple) == .multiple,
              let refreshed = try await tokens.refreshedToken(replacing: token), refreshed != token
        else { return answer }
        return try await next(Self.request(request, bearing: refreshed), body, baseURL)
    }

    private static func request(_ request: HTTPRequest, bearing token: String) -> HTTPRequest {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return request
    }
}
