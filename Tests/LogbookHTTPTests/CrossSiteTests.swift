import Foundation
import HTTPTypes
import Hummingbird
import Logbook
@testable import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Logging
import NIOCore
import Testing

/// What a page of another site can make a browser send — `text/plain` and form bodies without
/// asking, any `Host` through DNS rebinding — is refused: JSON bodies must be `application/json`
/// in every mode, and a server without authentication serves only this machine's own clients.
@Suite("Requests a page of another site can forge")
struct CrossSiteTests {
    static let registration = #"{"displayName":"Ana","timeZone":"UTC","weekStart":"monday","units":"metric"}"#

    static func withUnauthenticatedServer(_ body: @escaping @Sendable (TestServer) async throws -> Void) async throws {
        try await withServer({ $0.jwtSecret = nil; $0.allowUnauthenticated = true }, body)
    }

    @Test("a JSON body sent as text/plain, a form or without a Content-Type is refused with 415 naming it; nothing is written", arguments: [false, true])
    func jsonBodiesNeedJSON(unauthenticated: Bool) async throws {
        try await withServer({ if unauthenticated { $0.jwtSecret = nil; $0.allowUnauthenticated = true } }) { server in
            let admin = unauthenticated ? nil : "op"
            let head = try await server.head()
            for type in ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                for (method, uri, body) in [
                    (HTTPRequest.Method.post, "/users/ana", Self.registration), (.post, "/admin/webhooks", #"{"url":"https://evil.example/hook","secret":"0123456789abcdef0123456789abcdef"}"#),
                    (.post, "/catalog/places/import", #"{"placeId":"p1","name":"Cafe","category":"cafe","latitude":52.5,"longitude":13.4}"#),
                    (.post, "/users/ana/imports", "Activity Date,Activity Type\n"), (.post, "/users/ana/workouts/w1/pause", "{}"),
                ] {
                    let response = try await server.call(method, uri, as: admin, admin: true, body: body, headers: ["Content-Type": type])
                    #expect(response.status == .unsupportedMediaType, "\(type) \(uri): \(response.status) \(response.text)")
                    #expect(response.json["field"] as? String == "Content-Type", "\(uri): \(response.text)")
                }
            }
            var headers = HTTPFields()
            if let admin { headers[.authorization] = "Bearer \(try await server.token(admin, admin: true))" }
            let bare = try await server.client.execute(uri: "/users/ana", method: .post, headers: headers, body: ByteBuffer(string: Self.registration))
            #expect(bare.status == .unsupportedMediaType, "no Content-Type: \(bare.status)")
            #expect(try await server.head() == head)
            // application/json, with a charset or not, is read.
            let registered = try await server.call(.post, "/users/ana", as: admin, admin: true, body: Self.registration,
                                                   headers: ["Content-Type": "application/json; charset=utf-8"])
            #expect(registered.status == .created, "\(registered.text)")
        }
    }

    @Test("without authentication, a Host that is not a loopback name is refused (DNS rebinding); loopback ones are served")
    func loopbackHostsOnly() async throws {
        try await Self.withUnauthenticatedServer { server in
            for host in ["rebind.evil.example", "rebind.evil.example:8080", "192.168.1.20:8080", "127.0.0.1.evil.example", "localhost.evil.example", ""] {
                let response = try await server.call(.get, "/log", headers: ["Host": host])
                #expect(response.status == .forbidden, "Host \(host): \(response.status)")
                #expect(response.text.contains("Host"), "\(response.text)")
                #expect(try await server.call(.get, "/health", headers: ["Host": host]).status == .forbidden, "Host \(host)")
            }
            for host in ["localhost", "localhost:8080", "127.0.0.1:8080", "127.1.2.3", "[::1]:8080", "LOCALHOST"] {
                #expect(try await server.call(.get, "/log", headers: ["Host": host]).status == .ok, "Host \(host)")
            }
        }
    }

    @Test("without authentication, a request another site sent (Origin, Sec-Fetch-Site) is refused and writes nothing; the server's own origin is served")
    func foreignOriginsRefused() async throws {
        try await Self.withUnauthenticatedServer { server in
            let head = try await server.head()
            for headers in [["Origin": "https://evil.example"], ["Origin": "null"], ["Origin": "http://localhost:9999"], ["Origin": "http://localhost.evil.example"],
                            ["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"]] {
                let response = try await server.call(.post, "/users/ana", body: Self.registration, headers: headers)
                #expect(response.status == .forbidden, "\(headers): \(response.status) \(response.text)")
                let webhook = try await server.call(.post, "/admin/webhooks", body: #"{"url":"https://evil.example/hook","secret":"0123456789abcdef0123456789abcdef"}"#,
                                                    headers: headers)
                #expect(webhook.status == .forbidden, "\(headers): \(webhook.status)")
            }
            #expect(try await server.head() == head)
            // The console's own requests: same origin (the test client's authority is localhost).
            let own = try await server.call(.post, "/users/ana", body: Self.registration, headers: ["Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"])
            #expect(own.status == .created, "\(own.text)")
        }
    }

    @Test("with authentication, Host and Origin are the proxy's business: a token is what counts")
    func authenticatedServersIgnoreHost() async throws {
        try await withServer { server in
            let response = try await server.call(.get, "/admin/projections", as: "op", admin: true, headers: ["Host": "logbook.example.com", "Origin": "https://app.example.com"])
            #expect(response.status == .ok)
        }
    }

    @Test("the library's server refuses to listen beyond this machine without authentication, as the command line does")
    func libraryListensOnLoopbackOnly() async throws {
        try await withLogbook { logbook, _ in
            var configuration = HTTPConfiguration(allowUnauthenticated: true)
            configuration.weekClosingInterval = nil
            for host in ["0.0.0.0", "192.168.1.20", "::", "example.com"] {
                await #expect(throws: LogbookError.self, "\(host)") {
                    _ = try await LogbookServer.application(logbook: logbook, configuration: configuration, host: host, port: 0, logger: Logger(label: "test"))
                }
            }
            _ = try await LogbookServer.application(logbook: logbook, configuration: configuration, host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        }
    }

    @Test("without authentication, a request from another machine's address is refused whatever Host it names; this machine's are served")
    func peerAddress() throws {
        for local in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"] {
            #expect(DevelopmentModeGuard<LogbookRequestContext>.refusal(peer: try SocketAddress(ipAddress: local, port: 50_000)) == nil, "\(local)")
        }
        for remote in ["192.0.2.7", "10.0.0.1", "::ffff:192.0.2.7", "2001:db8::1", "0.0.0.0"] {
            let refusal = DevelopmentModeGuard<LogbookRequestContext>.refusal(peer: try SocketAddress(ipAddress: remote, port: 50_000))
            #expect(refusal?.contains("not from this machine") == true, "\(remote): \(refusal ?? "served")")
        }
        // A connection without an address (a test's, a Unix socket's) is judged by its Host alone.
        #expect(DevelopmentModeGuard<LogbookRequestContext>.refusal(peer: nil) == nil)
    }
}
