public import Foundation
public import PostgresNIO
import NIOSSL

/// A PostgreSQL connection URL, `postgres://user:password@host:port/database?sslmode=…`, turned
/// into a `PostgresClient.Configuration`.
///
/// - A unix socket: `postgres://user@/database?host=/var/run/postgresql` (the directory holding
///   `.s.PGSQL.<port>`, as libpq's `host` parameter) or a percent-encoded path as the host.
/// - The password comes from the URL or, if it has none, from the `PGPASSWORD` environment variable.
/// - `sslmode`: `disable` (the default on a unix socket), `prefer` (the default over TCP) or
///   `require`; `verify-full` and `verify-ca` require TLS and verify the server's certificate.
public struct PostgresURL: Sendable, CustomStringConvertible {
    public private(set) var configuration: PostgresClient.Configuration
    /// The URL without its password, for logs.
    public private(set) var description: String
    /// The database it names.
    public var database: String { configuration.database ?? "" }

    /// Parses `text`; throws ``PostgresURLError`` naming what is wrong.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresURLError(url: text, reason: "expected postgres://user:password@host:port/database")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let username = components.user.flatMap { $0.removingPercentEncoding } ?? query["user"] ?? environment["PGUSER"] ?? "postgres"
        let password = components.password.flatMap { $0.removingPercentEncoding } ?? query["password"] ?? environment["PGPASSWORD"]
        var database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = database.removingPercentEncoding ?? database
        if database.isEmpty { database = query["dbname"] ?? username }
        let port = components.port ?? query["port"].flatMap(Int.init) ?? 5432
        let host = (components.host.flatMap { $0.removingPercentEncoding }).flatMap { $0.isEmpty ? nil : $0 } ?? query["host"] ?? ""
        let sslmode = query["sslmode"]
        if host.hasPrefix("/") {
            if let sslmode, sslmode != "disable", sslmode != "prefer", sslmode != "allow" {
                throw PostgresURLError(url: text, reason: "sslmode=\(sslmode) on a unix socket")
            }
            configuration = PostgresClient.Configuration(
                unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        } else {
            guard !host.isEmpty else { throw PostgresURLError(url: text, reason: "no host (use host=/socket/directory for a unix socket)") }
            let tls: PostgresClient.Configuration.TLS
            switch sslmode ?? "prefer" {
            case "disable": tls = .disable
            case "allow", "prefer":
                var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
                tlsConfiguration.certificateVerification = .none
                tls = .prefer(tlsConfiguration)
            case "require":
                var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
                tlsConfiguration.certificateVerification = .none
                tls = .require(tlsConfiguration)
            case "verify-ca", "verify-full":
                tls = .require(TLSConfiguration.makeClientConfiguration())
            case let other:
                throw PostgresURLError(url: text, reason: "unknown sslmode \"\(other)\" (use disable, prefer, require, verify-ca or verify-full)")
            }
            configuration = PostgresClient.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
        var shown = components
        if shown.password != nil { shown.password = "***" }
        description = shown.string ?? "postgres://"
    }

    /// The same server and credentials, naming database `name` instead.
    public func naming(database name: String) -> PostgresURL {
        var copy = self
        copy.configuration.database = name
        if var shown = URLComponents(string: description) {
            shown.path = "/" + name
            copy.description = shown.string ?? description
        }
        return copy
    }
}

/// A PostgreSQL URL that cannot be used, and why.
public struct PostgresURLError: Error, Sendable, Hashable, CustomStringConvertible {
    public let url: String
    public let reason: String
    public var description: String { "invalid PostgreSQL URL: \(reason)" }
}
