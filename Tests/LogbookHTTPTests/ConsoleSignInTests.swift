import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import Logbook
@testable import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Testing

/// The console's sign-in link carries a one-time code, never a bearer token: exchanged once,
/// within 2 minutes, on whichever server sharing the log it reaches, for a short-lived token.
@Suite("Console sign-in links", .serialized)
struct ConsoleSignInTests {
    /// Exchanges `code` on `server`.
    static func exchange(_ server: TestServer, _ code: String) async throws -> TestResponse {
        try await server.call(.post, "/console/sessions", body: #"{"code":"\#(code)"}"#)
    }

    /// `GET /admin/projections` with `token` as the bearer token.
    static func status(_ server: TestServer, bearer token: String) async throws -> HTTPResponse.Status {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        return try await server.client.execute(uri: "/admin/projections", method: .get, headers: headers, body: nil).status
    }

    @Test("the link logbook console-url prints holds no bearer token; its code signs in once, for a short-lived token")
    func linkSignsInOnce() async throws {
        try await withServer { server in
            // The link is made once the server runs: a code lasts 2 minutes, even on a loaded machine.
            let made = ContinuousClock.now
            let (status, output) = try await runLogbook(["console-url", "--url", "http://127.0.0.1:9", "--lifetime", "600"],
                                                        environment: ["LOGBOOK_JWT_SECRET": testSecret], includeErrors: true)
            try #require(status == 0, "\(output)")
            let link = output.trimmingCharacters(in: .whitespacesAndNewlines)
            let fragment = try #require(link.split(separator: "#", maxSplits: 1).last.map(String.init), "\(link)")
            let (name, value) = (fragment.prefix { $0 != "=" }, String(fragment.drop { $0 != "=" }.dropFirst()))
            #expect(link.hasPrefix("http://127.0.0.1:9/console/#") && name == "code", "\(link)")
            // What the link carries opens nothing by itself: it is no bearer token.
            #expect(try await Self.status(server, bearer: value) == .unauthorized)
            let signedIn = try await Self.exchange(server, value)
            #expect(signedIn.status == .created, "\(signedIn.text)")
            #expect(signedIn.headers[.cacheControl] == "no-store")
            let token = try #require(signedIn.json["token"] as? String)
            #expect(signedIn.json["user"] as? String == "operator")
            #expect(try await Self.status(server, bearer: token) == .ok)
            let claims = try await server.keys.verify(token)
            #expect(claims.role == "admin" && claims.exp.value.timeIntervalSinceNow <= 600 && claims.exp.value.timeIntervalSinceNow > 500)
            // A second exchange of the same code fails, and gives no token.
            let again = try await Self.exchange(server, value)
            // Near or past the code's 2 minutes (a loaded machine), it may be refused as expired first.
            let late = ContinuousClock.now - made >= .seconds(115)
            #expect(again.status == .unauthorized && (again.text.contains("used already") || (late && again.text.contains("expired")))
                && !again.text.contains("token\":"), "\(again.text)")
        }
    }

    @Test("codes that expired, do not verify, are bearer tokens, or come from another secret are refused; sessions last an hour at most")
    func badCodes() async throws {
        try await withServer { server in
            let admin = try await server.keys.token(user: "operator", admin: true)
            #expect(try await Self.exchange(server, admin).status == .unauthorized, "a bearer token is no code")
            let code = try await server.keys.consoleCode(user: "operator", sessionLifetime: 60)
            #expect(try await Self.status(server, bearer: code) == .unauthorized, "a code is no bearer token")
            let other = try await TokenKeys(secret: "Zm9yZWlnbi1zZWNyZXQtb2YtYW5vdGhlci1zZXJ2ZXItMTIzNA")
                .consoleCode(user: "operator", sessionLifetime: 60)
            let foreign = try await Self.exchange(server, other)
            #expect(foreign.status == .unauthorized && foreign.text.contains("does not verify"), "\(foreign.text)")
            func handMade(expires: Date, session: Int) async throws -> String {
                try await server.keys.codeKeys.sign(ConsoleCodeClaims(
                    sub: SubjectClaim(value: "operator"), exp: ExpirationClaim(value: expires),
                    jti: IDClaim(value: UUID().uuidString), session: session, aud: nil, iss: nil))
            }
            let expired = try await Self.exchange(server, try await handMade(expires: Date().addingTimeInterval(-1), session: 60))
            #expect(expired.status == .unauthorized && expired.text.contains("expired"), "\(expired.text)")
            let long = try await Self.exchange(server, try await handMade(expires: Date().addingTimeInterval(60), session: 86_400))
            let token = try #require(long.json["token"] as? String, "\(long.text)")
            #expect(try await server.keys.verify(token).exp.value.timeIntervalSinceNow <= 3_600)
            for body in [#"{}"#, #"{"code":"short"}"#, #"{"code":"\#(code)","extra":1}"#] {
                #expect(try await server.call(.post, "/console/sessions", body: body).status == .badRequest, "\(body)")
            }
            // Still unspent: the refusals above spent nothing.
            #expect(try await Self.exchange(server, code).status == .created)
        }
    }

    @Test("on servers sharing a PostgreSQL log, a code exchanged on one is refused on the other")
    func oneExchangeAcrossServers() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { directory in
            try await serveFollowing(url, readModels: directory + "/a") { first in
                try await serveFollowing(url, readModels: directory + "/b") { second in
                    let code = try await first.keys.consoleCode(user: "operator", sessionLifetime: 60)
                    let signedIn = try await Self.exchange(first, code)
                    #expect(signedIn.status == .created, "\(signedIn.text)")
                    let elsewhere = try await Self.exchange(second, code)
                    #expect(elsewhere.status == .unauthorized && elsewhere.text.contains("used already"), "\(elsewhere.text)")
                    // Raced on both at once: one of them signs in.
                    let raced = try await second.keys.consoleCode(user: "operator", sessionLifetime: 60)
                    async let onFirst = Self.exchange(first, raced)
                    async let onSecond = Self.exchange(second, raced)
                    let statuses = try await [onFirst.status, onSecond.status]
                    #expect(statuses.filter { $0 == .created }.count == 1 && statuses.contains(.unauthorized), "\(statuses)")
                }
            }
        }
    }
}
