/// Where a client's bearer token comes from: the app's sign-in, which knows how to get a new token
/// when the server refuses the one it has (expired, or its key rotated).
///
/// The client asks for ``currentToken()`` before each request. After a `401`, it asks once for
/// ``refreshedToken(replacing:)`` and, given a different token, sends the same request again with it;
/// a second `401` is the answer the app gets.
public protocol AccessTokenProvider: Sendable {
    /// The token to send with the next request.
    func currentToken() async throws -> String

    /// A new token in place of `rejected`, which the server just refused; `nil` when there is none
    /// (the refusal then stands). A provider that signs in again does it here, once for any number
    /// of requests refused together if it shares the work.
    func refreshedToken(replacing rejected: String) async throws -> String?
}

/// A token that never changes: a service's long-lived token, or a test's. A refusal stands.
public struct FixedAccessToken: AccessTokenProvider {
    /// The token every request carries.
    public let token: String

    /// Sends `token` with every request.
    public init(_ token: String) { self.token = token }

    public func currentToken() async throws -> String { token }

    public func refreshedToken(replacing rejected: String) async throws -> String? { nil }
}
