public import Foundation
import Synchronization
import Hummingbird
public import JWTKit
import Logbook

/// The claims of a Logbook bearer token: the user (`sub`), an expiry, an optional start of
/// validity (`nbf`), an optional role, and the optional audience (`aud`) and issuer (`iss`) a
/// server may be configured to require.
public struct TokenClaims: JWTPayload {
    public var sub: SubjectClaim
    public var exp: ExpirationClaim
    /// Not valid before this time, if given.
    public var nbf: NotBeforeClaim?
    public var role: String?
    public var aud: AudienceClaim?
    public var iss: IssuerClaim?

    /// Claims for `user`, valid until `expires`, with `role` (the administrator role, or none),
    /// and optionally an audience and an issuer.
    public init(user: String, expires: Date, role: String? = nil, audience: String? = nil, issuer: String? = nil) {
        sub = SubjectClaim(value: user)
        exp = ExpirationClaim(value: expires)
        self.role = role
        aud = audience.map { AudienceClaim(value: [$0]) }
        iss = issuer.map { IssuerClaim(value: $0) }
    }

    /// Refuses an expired token and one not valid yet (the signature is checked by the key collection).
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        try nbf?.verifyNotBefore()
    }
}

/// Signs and verifies bearer tokens with one HMAC-SHA256 secret. A token's header must name HS256
/// and nothing else (no other algorithm, no key id): ``TokenHeader`` judges it before the
/// signature is checked.
public struct TokenKeys: Sendable {
    let keys: JWTKeyCollection
    /// The key of console sign-in codes (``ConsoleSignIn``), derived from the secret.
    let codeKeys: JWTKeyCollection

    /// Keys from the server's HS256 secret.
    public init(secret: String) async {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.keys = keys
        let codeKeys = JWTKeyCollection()
        await codeKeys.add(hmac: HMACKey(key: ConsoleSignIn.codeKey(secret: secret)), digestAlgorithm: .sha256)
        self.codeKeys = codeKeys
    }

    /// A token for `user`, an administrator's if `admin`, valid for `lifetime` seconds, with an
    /// audience and an issuer when the server requires them.
    public func token(user: String, admin: Bool = false, lifetime: TimeInterval = 24 * 3600, adminRole: String = "admin",
                      audience: String? = nil, issuer: String? = nil) async throws -> String {
        try await keys.sign(TokenClaims(
            user: user, expires: Date().addingTimeInterval(lifetime), role: admin ? adminRole : nil, audience: audience, issuer: issuer))
    }

    /// The claims of `token` once its header names HS256 and nothing else (``TokenHeader``) and
    /// its signature and expiry verify.
    func verify(_ token: String) async throws -> TokenClaims {
        if let refusal = TokenHeader.refusal(token) { throw Problem.unauthorized(refusal) }
        return try await keys.verify(token, as: TokenClaims.self)
    }
}

/// Requires a valid bearer token and puts the caller's ``Identity`` in the context: missing,
/// malformed, expired or wrongly signed tokens get 401, as do tokens whose subject is not a valid
/// user id (``IdRule``: ids are compared as bytes, so a subject in another Unicode normal form
/// than the ids it might match is refused) or that lack the audience or issuer the server
/// requires. With authentication switched off (development only) every caller is an administrator.
struct AuthenticationMiddleware<Context: LogbookRouteContext>: RouterMiddleware {
    let keys: TokenKeys?
    let adminRole: String
    /// The `aud` a token must name, if any.
    let audience: String?
    /// The `iss` a token must carry, if any.
    let issuer: String?
    let verified = VerifiedTokens(capacity: 10_000)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        guard let keys else {
            context.identity = Identity(user: "*", isAdmin: true)
            return try await next(request, context)
        }
        guard let header = request.headers[.authorization] else { throw Problem.unauthorized("a bearer token is required") }
        guard HTTPWhitespace.hasPrefix(header, caseInsensitive: "bearer "), header.utf8.count > 7 else {
            throw Problem.unauthorized("the Authorization header must be \"Bearer <token>\"")
        }
        // The first seven bytes are ASCII (checked above): the token starts right after them.
        let token = String(HTTPWhitespace.trimmed(header[header.utf8.index(header.startIndex, offsetBy: 7)...]))
        if let identity = verified.identity(for: token, now: Date()) {
            context.identity = identity
            return try await next(request, context)
        }
        let claims: TokenClaims
        do {
            claims = try await keys.verify(token)
        } catch let problem as Problem {
            throw problem
        } catch let error as JWTError {
            switch error.errorType {
            case .claimVerificationFailure: throw Problem.unauthorized("the token has expired")
            case .signatureVerificationFailed: throw Problem.unauthorized("the token's signature does not verify")
            default: throw Problem.unauthorized("the token is malformed")
            }
        } catch {
            throw Problem.unauthorized("the token is malformed")
        }
        if let reason = IdRule.violation(claims.sub.value) { throw Problem.unauthorized("the token's subject is not a user id: it \(reason)") }
        if let audience, !(claims.aud?.value.contains { $0.utf8.elementsEqual(audience.utf8) } ?? false) {
            throw Problem.unauthorized("the token is not for this server's audience")
        }
        if let issuer, !(claims.iss.map { $0.value.utf8.elementsEqual(issuer.utf8) } ?? false) {
            throw Problem.unauthorized("the token is not from this server's issuer")
        }
        let identity = Identity(user: claims.sub.value, isAdmin: claims.role == adminRole, expires: claims.exp.value)
        verified.remember(token, identity: identity, expires: claims.exp.value)
        context.identity = identity
        return try await next(request, context)
    }
}

extension LogbookRouteContext {
    /// The caller may act for `user`: it is that user (the ids' bytes are equal), or an
    /// administrator. The refusal names no one: it does not say whose token it is, nor whether
    /// `user` exists.
    func requireAccess(to user: String) throws {
        guard let identity else { throw Problem.unauthorized("a bearer token is required") }
        guard identity.isAdmin || identity.isUser(user) else {
            throw Problem.forbidden("this token does not give access to another user's data")
        }
    }

    /// The caller is an administrator.
    func requireAdmin() throws {
        guard let identity else { throw Problem.unauthorized("a bearer token is required") }
        guard identity.isAdmin else { throw Problem.forbidden("this needs the administrator role") }
    }
}

/// Tokens already verified, with their identity and expiry, so a client sending the same token
/// again costs a dictionary look-up instead of an HMAC and a JSON parse. Bounded: when full it
/// starts over. An expired token is never answered from here.
final class VerifiedTokens: Sendable {
    private let capacity: Int
    private let entries = Mutex<[String: (identity: Identity, expires: Date)]>([:])

    init(capacity: Int) { self.capacity = capacity }

    func identity(for token: String, now: Date) -> Identity? {
        entries.withLock { entries in
            guard let entry = entries[token] else { return nil }
            guard entry.expires > now else {
                entries[token] = nil
                return nil
            }
            return entry.identity
        }
    }

    func remember(_ token: String, identity: Identity, expires: Date) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[token] = (identity, expires)
        }
    }
}
