import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import JWTKit
import Logbook
import LogbookInput

/// `POST /console/sessions`: the console's sign-in link (``ConsoleSignIn``) exchanged for a
/// short-lived administrator's token. Open, like the console's files: the code is the credential.
/// A code that does not verify, has expired or was exchanged before — here or on any server
/// sharing the log — is refused with 401, and nothing else about it is said.
struct ConsoleSessionRoutes<Context: LogbookRouteContext> {
    let logbook: Logbook
    /// The server's keys; nil without authentication (the console then needs no sign-in).
    let keys: TokenKeys?
    let configuration: HTTPConfiguration
    let catalog: RouteCatalog

    func register(on group: RouteGroup<Context>) {
        group.route(.post, "console/sessions",
                    "Exchange the one-time code of a console sign-in link (logbook console-url) for a short-lived administrator's token: "
                        + "a code lasts 2 minutes and is exchanged once, on whichever server sharing the log it reaches",
                    body: "requests/console.session.schema.json", statuses: [201, 400, 401, 409, 413, 503],
                    responses: [201: .reference(ConsoleSession.self, "Signed in: the token to send as Bearer, until it expires")],
                    catalog: catalog) { request, _ in
            try await exchange(request)
        }
    }

    private func exchange(_ request: Request) async throws -> Response {
        let code = try Self.code(try await request.jsonObject(limit: 8_192))
        guard let keys else {
            throw Problem(.conflict, type: "/problems/conflict", title: "Conflict",
                          detail: "this server runs without authentication: the console needs no sign-in")
        }
        // Spent codes are kept as long as answers to keyed requests: they must outlast every code,
        // with ten minutes to spare for servers whose clocks disagree (each judges expiry by its own).
        guard logbook.configuration.idempotencyKeyRetention >= .seconds(ConsoleSignIn.codeLifetime + 600) else {
            throw Problem(.conflict, type: "/problems/conflict", title: "Conflict",
                          detail: "this server keeps spent sign-in codes (idempotencyKeyRetention) for less than a code lasts; sign in with a token")
        }
        let claims: ConsoleCodeClaims
        do {
            claims = try await keys.verifyConsoleCode(code)
        } catch let problem as Problem {
            throw problem
        } catch let error as JWTError where error.errorType == .claimVerificationFailure {
            throw Problem.unauthorized("the sign-in code has expired (a code lasts 2 minutes); run logbook console-url for a new link")
        } catch {
            throw Problem.unauthorized("the sign-in code does not verify: it is not one of this server's")
        }
        if let reason = IdRule.violation(claims.sub.value) { throw Problem.unauthorized("the sign-in code's subject is not a user id: it \(reason)") }
        if let audience = configuration.jwtAudience, !(claims.aud?.value.contains { $0.utf8.elementsEqual(audience.utf8) } ?? false) {
            throw Problem.unauthorized("the sign-in code is not for this server's audience")
        }
        if let issuer = configuration.jwtIssuer, !(claims.iss.map { $0.value.utf8.elementsEqual(issuer.utf8) } ?? false) {
            throw Problem.unauthorized("the sign-in code is not from this server's issuer")
        }
        guard (16...128).contains(claims.jti.value.utf8.count), try await logbook.spendOnce(claims.jti.value, scope: ConsoleSignIn.scope) else {
            throw Problem.unauthorized("the sign-in code was used already: a link signs in once; run logbook console-url for a new one")
        }
        let lifetime = min(max(claims.session, 1), ConsoleSignIn.maxSessionLifetime)
        let expires = Date().addingTimeInterval(TimeInterval(lifetime))
        let token = try await keys.token(
            user: claims.sub.value, admin: true, lifetime: TimeInterval(lifetime), adminRole: configuration.adminRole,
            audience: configuration.jwtAudience, issuer: configuration.jwtIssuer)
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        return try JSONOutput.response(
            ConsoleSession(token: token, user: claims.sub.value, expiresAt: Timestamp(expires).rfc3339), status: .created, headers: headers)
    }

    /// The body's `code` (`Schemas/requests/console.session.schema.json`).
    static func code(_ body: [String: Any]) throws(InputError) -> String {
        if let unknown = body.keys.filter({ $0 != "code" }).sorted().first { throw InputError("unknown field \"\(unknown)\"", field: unknown) }
        guard let code = body["code"] as? String, (16...2_048).contains(code.utf8.count) else {
            throw InputError("code is required: the sign-in code of the link, 16 to 2048 characters", field: "code")
        }
        return code
    }
}

/// The answer of `POST /console/sessions`.
struct ConsoleSession: Encodable, DocumentedSchema {
    var token: String
    var user: String
    var expiresAt: String

    static var schema: JSONSchema {
        .object("A console session: an administrator's bearer token the page keeps in its tab", required: [
            "token": .string("The bearer token (a JWT): send it as Authorization: Bearer"),
            "user": .string("The administrator it names (its sub)"),
            "expiresAt": .dateTime("When the token stops being valid"),
        ])
    }
}
