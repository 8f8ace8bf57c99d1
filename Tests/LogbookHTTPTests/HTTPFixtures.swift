import EventLog
import EventLogPostgres
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

/// The secret every test server signs tokens with.
let testSecret = "test-secret-that-is-at-least-32-bytes-long!"

/// A Logbook served through Hummingbird's in-process test client, on a real LMDB store in a
/// temporary directory, with a stepping clock (today is 2026-11-18 UTC).
struct TestServer: Sendable {
    let logbook: Logbook
    let client: any TestClientProtocol
    let keys: TokenKeys

    func token(_ user: String, admin: Bool = false) async throws -> String {
        try await keys.token(user: user, admin: admin)
    }

    /// Sends a request as `user` (nil: no Authorization header) and returns the response.
    @discardableResult
    func call(
        _ method: HTTPRequest.Method, _ uri: String, as user: String? = nil, admin: Bool = false, body: String? = nil,
        headers extra: [String: String] = [:]
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        if let user { headers[.authorization] = "Bearer \(try await token(user, admin: admin))" }
        if body != nil { headers[.contentType] = "application/json" }
        for (name, value) in extra { headers[HTTPField.Name(name)!] = value }
        return checked(try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }),
                       method, uri)
    }

    /// `response`, after holding it to Schemas/openapi.json (documented status, content type and
    /// body schema): every answer the HTTP tests receive goes through here.
    func checked(_ response: TestResponse, _ method: HTTPRequest.Method, _ uri: String) -> TestResponse {
        let violations = APIContract.shared.withLock {
            $0.violations(method: method.rawValue, uri: uri, status: Int(response.status.code), contentType: response.headers[.contentType],
                          body: Data(response.body.readableBytesView))
        }
        for violation in violations { Issue.record("\(violation)") }
        return response
    }

    /// The log's head position now.
    func head() async throws -> UInt64 { try await logbook.log.headPosition().rawValue }
}

/// Runs `body` against a fresh server; `configure` adjusts the HTTP configuration.
func withServer(
    _ configure: (inout HTTPConfiguration) -> Void = { _ in },
    logbook configureLogbook: (inout LogbookConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (TestServer) async throws -> Void
) async throws {
    try await withLogbook({ $0.clock = SteppingClock(); configureLogbook(&$0) }) { logbook, _ in
        var configuration = HTTPConfiguration(jwtSecret: testSecret)
        configure(&configuration)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let router = try await LogbookServer.router(logbook: logbook, configuration: configuration, metrics: LogbookMetrics(), logger: logger)
        let keys = await TokenKeys(secret: testSecret)
        try await Application(router: router, logger: logger).test(.router) { client in
            try await body(TestServer(logbook: logbook, client: client, keys: keys))
        }
    }
}

/// Which log a test server writes: the embedded LMDB store, or a fresh PostgreSQL database
/// followed by read models in a temporary directory (one of several servers sharing it).
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case embedded, postgres
    var testDescription: String { rawValue }
}

/// Runs `body` against a fresh server on `backend`.
func withServer(
    on backend: Backend, logbook configureLogbook: @escaping @Sendable (inout LogbookConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (TestServer) async throws -> Void
) async throws {
    switch backend {
    case .embedded:
        try await withServer(logbook: configureLogbook, body)
    case .postgres:
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { directory in
            try await serveFollowing(url, readModels: directory + "/read-models", configure: configureLogbook, body)
        }
    }
}

/// Serves a Logbook following the PostgreSQL log at `url`, with its read models at `readModels`
/// (opened for the call, closed after it).
@discardableResult
func serveFollowing<R: Sendable>(
    _ url: String, readModels: String, configure: (inout LogbookConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (TestServer) async throws -> R
) async throws -> R {
    var configuration = LogbookConfiguration()
    configuration.clock = SteppingClock()
    configuration.queryWork.burst = .seconds(3_600)
    configure(&configuration)
    var logConfiguration = PostgresLogConfiguration()
    logConfiguration.clock = configuration.clock
    logConfiguration.operationTimeout = .seconds(60)
    let log = try await PostgresEventStore.connect(try PostgresURL(url), configuration: logConfiguration)
    let logbook = try await Logbook.open(following: log, readModelsAt: readModels, configuration: configuration)
    do {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let router = try await LogbookServer.router(logbook: logbook, configuration: HTTPConfiguration(jwtSecret: testSecret), metrics: LogbookMetrics(), logger: logger)
        let keys = await TokenKeys(secret: testSecret)
        let result = try await Application(router: router, logger: logger).test(.router) { client in
            try await body(TestServer(logbook: logbook, client: client, keys: keys))
        }
        await logbook.close()
        return result
    } catch {
        await logbook.close()
        throw error
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The body as a JSON object (empty if it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// The body as a JSON array (empty if it is not one).
    var array: [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
    }
}

/// A registered user with a Berlin profile (the tests' standard user).
func register(_ server: TestServer, _ user: String, timeZone: String = "Europe/Berlin") async throws {
    let response = try await server.call(.post, "/users/\(user)", as: user, body: #"{"displayName":"\#(user)","timeZone":"\#(timeZone)","weekStart":"monday","units":"metric"}"#)
    precondition(response.status == .created, "registering \(user) failed: \(response.text)")
}
