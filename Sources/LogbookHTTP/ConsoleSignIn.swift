import Crypto
public import Foundation
public import JWTKit

/// The claims of a console sign-in code (`logbook console-url`): who signs in, until when the code
/// may be exchanged (at most ``ConsoleSignIn/codeLifetime``), its one-time id, how long the
/// session it is exchanged for lasts, and the audience and issuer the server requires.
public struct ConsoleCodeClaims: JWTPayload {
    public var sub: SubjectClaim
    public var exp: ExpirationClaim
    /// The code's id: spent by its first exchange, on every server sharing the log.
    public var jti: IDClaim
    /// How long the session token lasts, in seconds (the server caps it at ``ConsoleSignIn/maxSessionLifetime``).
    public var session: Int
    public var aud: AudienceClaim?
    public var iss: IssuerClaim?

    /// Refuses an expired code (the signature is checked by the key collection).
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// Signing in to the console without an ordinary token in the address bar: `logbook console-url`
/// prints a link whose fragment carries a one-time code, signed with a key derived from the token
/// secret (HKDF-SHA256), so a code is never a bearer token and a bearer token is never a code.
/// The page exchanges it at once (`POST /console/sessions`) for a short-lived administrator's
/// token that it keeps in the tab only. A code lasts ``codeLifetime``, and only its first exchange
/// succeeds, on whichever server sharing the log it reaches: its id is spent in the log's store
/// of kept answers (``Logbook/spendOnce(_:scope:)``).
public enum ConsoleSignIn {
    /// How long a code may wait for its exchange.
    public static let codeLifetime: TimeInterval = 120
    /// The longest session a code is exchanged for.
    public static let maxSessionLifetime = 3_600
    /// The `spendOnce` scope of codes' ids.
    static let scope = "console-code"

    /// The HMAC key of codes: derived from the token secret, never the secret itself.
    static func codeKey(secret: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)), salt: Data("logbook".utf8),
            info: Data("console sign-in code".utf8), outputByteCount: 32)
    }
}

extension TokenKeys {
    /// A one-time console sign-in code for the administrator `user`, exchangeable for
    /// ``ConsoleSignIn/codeLifetime`` seconds for a session of `sessionLifetime` seconds (1 to
    /// ``ConsoleSignIn/maxSessionLifetime``), naming the audience and issuer the server requires.
    public func consoleCode(user: String, sessionLifetime: Int, audience: String? = nil, issuer: String? = nil) async throws -> String {
        var generator = SystemRandomNumberGenerator()
        let jti = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let claims = ConsoleCodeClaims(
            sub: SubjectClaim(value: user), exp: ExpirationClaim(value: Date().addingTimeInterval(ConsoleSignIn.codeLifetime)),
            jti: IDClaim(value: jti), session: min(max(sessionLifetime, 1), ConsoleSignIn.maxSessionLifetime),
            aud: audience.map { AudienceClaim(value: [$0]) }, iss: issuer.map { IssuerClaim(value: $0) })
        return try await codeKeys.sign(claims)
    }

    /// The claims of `code` once its header names HS256 and nothing else and its signature (with
    /// the codes' key) and expiry verify.
    func verifyConsoleCode(_ code: String) async throws -> ConsoleCodeClaims {
        if let refusal = TokenHeader.refusal(code) { throw Problem.unauthorized(refusal.replacingOccurrences(of: "token", with: "sign-in code")) }
        return try await codeKeys.verify(code, as: ConsoleCodeClaims.self)
    }
}
