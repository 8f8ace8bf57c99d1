import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Logging
import NIOCore
import Testing

/// A host application's own request context: Logbook only needs somewhere to keep the identity.
struct HostContext: LogbookRouteContext {
    var coreContext: CoreRequestContextStorage
    var identity: Identity?
    var tenant = "acme"

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

/// Logbook's routes mounted under a prefix of another application, beside its own routes.
@Suite("Embedding")
struct EmbeddingTests {
    @Test("the routes work under /api/logbook beside the host's routes, which stay outside Logbook's auth")
    func mountedUnderPrefix() async throws {
        try await withLogbook({ $0.clock = SteppingClock() }) { logbook, _ in
            let router = Router(context: HostContext.self)
            router.get("hello") { _, context in "hello from \(context.tenant)" }
            let routes = try await LogbookRoutes<HostContext>(logbook: logbook, configuration: HTTPConfiguration(jwtSecret: testSecret))
            routes.register(on: router.group("api/logbook"))
            let token = try await TokenKeys(secret: testSecret).token(user: "ana")
            try await Application(router: router).test(.router) { client in
                let hello = try await client.execute(uri: "/hello", method: .get)
                #expect(String(buffer: hello.body) == "hello from acme")
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(token)"
                var writing = headers
                writing[.contentType] = "application/json"
                let registered = try await client.execute(
                    uri: "/api/logbook/users/ana", method: .post, headers: writing,
                    body: ByteBuffer(string: #"{"displayName":"Ana","timeZone":"Asia/Tokyo","weekStart":"sunday","units":"metric"}"#))
                #expect(registered.status == .created)
                let profile = try await client.execute(uri: "/api/logbook/users/ana/profile", method: .get, headers: headers)
                #expect(String(buffer: profile.body).contains("Asia/Tokyo"))
                #expect(try await client.execute(uri: "/api/logbook/users/ana/profile", method: .get).status == .unauthorized)
                #expect(try await client.execute(uri: "/api/logbook/health", method: .get).status == .ok)
                #expect(try await client.execute(uri: "/users/ana/profile", method: .get, headers: headers).status == .notFound)
            }
        }
    }
}
