public import Foundation
public import Hummingbird
public import NIOCore

/// Who is calling, from a verified bearer token: the user id (`sub`), whether the token
/// carries the administrator role, and when it expires.
public struct Identity: Sendable, Hashable {
    public var user: String
    public var isAdmin: Bool
    /// When the token stops being valid (nil: never, as in development mode); long-lived
    /// responses such as Server-Sent Events end then.
    public var expires: Date?

    /// The identity of `user`, an administrator or not, valid until `expires`.
    public init(user: String, isAdmin: Bool, expires: Date? = nil) {
        self.user = user
        self.isAdmin = isAdmin
        self.expires = expires
    }

    /// True if this is `user` — by the ids' bytes, as the log compares them, never by Unicode
    /// equivalence (the HostileInput article, in Logbook's documentation).
    public func isUser(_ other: String) -> Bool { user.utf8.elementsEqual(other.utf8) }

    /// Whose `Idempotency-Key`s these are (``IdempotentRequest/scope``): keys of different
    /// callers never meet.
    public var idempotencyScope: String { (isAdmin ? "admin:" : "user:") + user }
}

/// What Logbook's routes need of a request context: somewhere to keep the caller's identity.
/// A host application mounting the routes makes its own context conform (or uses
/// ``LogbookRequestContext``).
public protocol LogbookRouteContext: RequestContext {
    /// Set by the authenticator; nil before it ran.
    var identity: Identity? { get set }
}

/// The request context of Logbook's routes: Hummingbird's core storage, the caller's identity and
/// the address the request came from. A host application that mounts the routes uses this context
/// type (or wraps it; a context that is also a `RemoteAddressRequestContext` lets a server without
/// authentication refuse requests from other machines by their address, not their `Host` alone).
public struct LogbookRequestContext: LogbookRouteContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by the authenticator; nil before it ran (or when authentication is off).
    public var identity: Identity?
    /// The connection's peer (nil for a connection that has none, such as a test's).
    public let remoteAddress: SocketAddress?

    /// A context for one request, before authentication.
    public init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
        remoteAddress = source.channel.remoteAddress
    }
}
