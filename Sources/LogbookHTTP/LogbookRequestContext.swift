public import Hummingbird

/// Who is calling, from a verified bearer token: the user id (`sub`) and whether the token
/// carries the administrator role.
public struct Identity: Sendable, Hashable {
    public var user: String
    public var isAdmin: Bool

    /// The identity of `user`, an administrator or not.
    public init(user: String, isAdmin: Bool) {
        self.user = user
        self.isAdmin = isAdmin
    }

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

/// The request context of Logbook's routes: Hummingbird's core storage plus the caller's identity.
/// A host application that mounts the routes uses this context type (or wraps it).
public struct LogbookRequestContext: LogbookRouteContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by the authenticator; nil before it ran (or when authentication is off).
    public var identity: Identity?

    /// A context for one request, before authentication.
    public init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
    }
}
