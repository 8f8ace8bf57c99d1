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
}
