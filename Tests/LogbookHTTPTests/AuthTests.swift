import Crypto
import Foundation
import HTTPTypes
import JWTKit
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Logging
import Testing

/// Bearer tokens: who may reach what, and every way a token can be bad.
@Suite("HTTP authentication and isolation")
struct AuthTests {
    @Test("missing, malformed, expired and wrongly signed tokens get 401")
    func badTokens() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let expired = try await server.keys.token(user: "ana", lifetime: -60)
            let otherKeys = await TokenKeys(secret: "another-secret-that-is-at-least-32-bytes")
            let forged = try await otherKeys.token(user: "ana", admin: true)
            let cases: [(String?, String)] = [
                (nil, "required"), ("Basic YW5hOnB3", "Bearer"), ("Bearer not.a.jwt", "malformed"), ("Bearer \(expired)", "expired"),
                ("Bearer \(forged)", "signature"),
            ]
            for (header, words) in cases {
                var headers = HTTPFields()
                if let header { headers[.authorization] = header }
                let response = server.checked(try await server.client.execute(uri: "/users/ana/profile", method: .get, headers: headers), .get, "/users/ana/profile")
                #expect(response.status == .unauthorized, "\(header ?? "none")")
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
                #expect(String(buffer: response.body).contains(words), "\(String(buffer: response.body))")
            }
        }
    }

    @Test("a user reaches only their own data; admin routes need the admin role")
    func isolation() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await register(server, "bob")
            let head = try await server.head()
            #expect(try await server.call(.get, "/users/bob/profile", as: "ana").status == .forbidden)
            #expect(try await server.call(.get, "/users/bob/timeline", as: "ana").status == .forbidden)
            #expect(try await server.call(.get, "/users/bob/events", as: "ana").status == .forbidden)
            #expect(try await server.call(.put, "/users/bob/goals/2026-11-20", as: "ana", body: #"{"steps":1000}"#).status == .forbidden)
            #expect(try await server.call(.post, "/users/carl", as: "ana", body: #"{"displayName":"C","timeZone":"UTC"}"#).status == .forbidden)
            #expect(try await server.head() == head)
            for (method, uri) in [(HTTPRequest.Method.get, "/admin/projections"), (.post, "/admin/rebuild"), (.post, "/admin/verify"), (.get, "/admin/caches"),
                                  (.get, "/admin/storage"), (.get, "/log"), (.get, "/log/subscribe")] {
                #expect(try await server.call(method, uri, as: "ana").status == .forbidden, "\(uri)")
            }
            #expect(try await server.call(.get, "/users/bob/profile", as: "op", admin: true).status == .ok)
        }
    }

    @Test("every route on one user's data refuses another user's token with 403, writing nothing, whatever its query or body")
    func everyUserRouteChecksAccess() async throws {
        let (routes, _) = try await OpenAPITests.registered()
        let onOneUser = routes.filter { $0.path == "users/{user}" || $0.path.hasPrefix("users/{user}/") }
        #expect(onOneUser.count >= 30)
        try await withServer { server in
            try await register(server, "ana")
            try await register(server, "bob")
            let head = try await server.head()
            for route in onOneUser {
                var uri = "/" + route.path
                for name in OpenAPIDocument.pathParameters(route.path) {
                    uri = uri.replacingOccurrences(of: "{\(name)}", with: name == "user" ? "bob" : name == "date" ? "2026-11-20" : "x1")
                }
                // A query parameter the route does not take, and an empty body: access is checked first.
                let answer = try await server.call(HTTPRequest.Method(rawValue: route.method)!, uri + "?notAParameter=1", as: "ana", body: "{}")
                #expect(answer.status == .forbidden, "\(route.method) \(uri): \(answer.status)")
                let detail = answer.json["detail"] as? String ?? ""
                #expect(!detail.contains("bob") && !detail.contains("ana"), "\(route.method) \(uri): \(detail)")
            }
            #expect(try await server.head() == head)
        }
    }

    @Test("without a secret the routes refuse to start unless development mode is explicit; then every caller is an admin")
    func developmentMode() async throws {
        try await withLogbook { logbook, _ in
            await #expect(throws: LogbookError.self) {
                _ = try await LogbookRoutes<LogbookRequestContext>(logbook: logbook, configuration: HTTPConfiguration())
            }
            await #expect(throws: LogbookError.self) {
                _ = try await LogbookRoutes<LogbookRequestContext>(logbook: logbook, configuration: HTTPConfiguration(jwtSecret: "short"))
            }
        }
        try await withServer({ $0.jwtSecret = nil; $0.allowUnauthenticated = true }) { server in
            let registered = try await server.call(.post, "/users/ana", body: #"{"displayName":"Ana","timeZone":"UTC","weekStart":"monday","units":"metric"}"#)
            #expect(registered.status == .created, "\(registered.text)")
            #expect(try await server.call(.get, "/admin/projections").status == .ok)
        }
    }

    /// A token made by hand: `header` and `claims` as given, signed HS256 with `secret`.
    static func handMade(header: String, claims: String, secret: String = testSecret) -> String {
        func encoded(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let signed = encoded(Data(header.utf8)) + "." + encoded(Data(claims.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(signed.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return signed + "." + encoded(Data(mac))
    }

    @Test("a token whose header names another algorithm, a key id or anything but alg and typ is refused before its signature is checked")
    func headerIsJudgedFirst() async throws {
        try await withServer { server in
            let claims = #"{"sub":"op","role":"admin","exp":\#(Int(Date().timeIntervalSince1970) + 3600)}"#
            func status(_ header: String) async throws -> (HTTPResponse.Status, String) {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(Self.handMade(header: header, claims: claims))"
                let response = server.checked(try await server.client.execute(uri: "/admin/projections", method: .get, headers: headers), .get, "/admin/projections")
                return (response.status, String(buffer: response.body))
            }
            // The same token with the header the server writes is accepted: only the header differs below.
            #expect(try await status(#"{"alg":"HS256","typ":"JWT"}"#).0 == .ok)
            #expect(try await status(#"{"alg":"HS256"}"#).0 == .ok)
            // A start of validity: passed is accepted, to come is refused (the header is right).
            let now = Int(Date().timeIntervalSince1970)
            for (nbf, accepted) in [(now - 60, true), (now + 3000, false)] {
                var headers = HTTPFields()
                let early = #"{"sub":"op","role":"admin","exp":\#(now + 3600),"nbf":\#(nbf)}"#
                headers[.authorization] = "Bearer \(Self.handMade(header: #"{"alg":"HS256","typ":"JWT"}"#, claims: early))"
                let response = server.checked(try await server.client.execute(uri: "/admin/projections", method: .get, headers: headers), .get, "/admin/projections")
                #expect((response.status == .ok) == accepted, "nbf \(nbf - now) s from now: \(response.status)")
            }
            for (header, words) in [
                (#"{"alg":"HS512","typ":"JWT"}"#, "HS512"), (#"{"alg":"none","typ":"JWT"}"#, "none"), (#"{"typ":"JWT"}"#, "no algorithm"),
                (#"{"alg":"HS256","typ":"JWT","kid":"elsewhere"}"#, "key id"), (#"{"alg":"HS256","kid":""}"#, "key id"),
                (#"{"alg":"HS256","typ":"JWT","crit":["exp"]}"#, "crit"), (#"{"alg":"HS256","jku":"https://evil.example/keys"}"#, "jku"),
                (#"{"alg":"HS256","typ":"JOSE+JSON"}"#, "typ"), ("not json", "base64url"),
            ] {
                let (code, body) = try await status(header)
                #expect(code == .unauthorized, "\(header): \(code)")
                #expect(body.contains(words), "\(header): \(body)")
            }
        }
    }

    @Test("secrets with repeats, runs or a short alphabet are refused, saying how to make one; random ones pass however they are written")
    func lowEntropySecrets() async throws {
        let weak = [
            String(repeating: "ab", count: 32), String(repeating: "0123456789abcdef", count: 4), String(repeating: "secret", count: 12),
            String(repeating: "a1b2c3d4", count: 8), "abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "0123456789",
            String(repeating: "01", count: 100), String(repeating: "x", count: 300), "short",
        ]
        for secret in weak {
            let weakness = TokenSecret.weakness(secret)
            #expect(weakness?.contains("openssl rand") == true, "\(secret): \(weakness ?? "accepted")")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let base64 = Data(bytes).base64EncodedString()
            for written in [bytes.map { String(format: "%02x", $0) }.joined(), base64,
                            base64.replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")] {
                #expect(TokenSecret.weakness(written) == nil, "\(written): \(TokenSecret.weakness(written) ?? "")")
            }
        }
        #expect(TokenSecret.weakness(testSecret) == nil)
        _ = try await withLogbook { logbook, _ in
            await #expect(throws: LogbookError.self) {
                _ = try await LogbookRoutes<LogbookRequestContext>(logbook: logbook, configuration: HTTPConfiguration(jwtSecret: String(repeating: "ab", count: 32)))
            }
        }
        let (status, output) = try await runLogbook(["token", "--user", "u-1"], environment: ["LOGBOOK_JWT_SECRET": String(repeating: "ab", count: 32)], includeErrors: true)
        #expect(status != 0 && output.contains("openssl rand"), "\(output)")
    }
}
