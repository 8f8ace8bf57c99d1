public import Foundation
import Synchronization

/// A real PostgreSQL for the tests: a throwaway cluster started by `tools/postgres` on a unix
/// socket in a temporary directory (or the one `LOGBOOK_TEST_POSTGRES_URL` names, as `tools/test`
/// does), with a fresh database per test. Never skipped: if PostgreSQL cannot start, the tests fail.
public enum TestPostgres {
    /// The repository's root, where `tools/postgres` lives.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    private static let shared = Mutex<String?>(nil)
    private static let counter = Atomic<Int>(0)
    private static let ownCluster = Mutex<Cluster?>(nil)

    /// The URL of the test process's cluster (started on first use, stopped when the process exits).
    public static func serverURL() throws -> String {
        try shared.withLock { url in
            if let url { return url }
            if let given = ProcessInfo.processInfo.environment["LOGBOOK_TEST_POSTGRES_URL"], !given.isEmpty {
                url = given
                return given
            }
            let cluster = try Cluster.start()
            ownCluster.withLock { $0 = cluster }
            atexit { TestPostgres.ownCluster.withLock { $0?.remove() } }
            url = cluster.url
            return cluster.url
        }
    }

    /// A new, empty database on the shared cluster: its URL.
    public static func freshDatabase() throws -> String {
        let server = try serverURL()
        let name = "t_\(ProcessInfo.processInfo.processIdentifier)_\(counter.add(1, ordering: .relaxed).newValue)"
        try psql(server, "CREATE DATABASE \(name)")
        return url(server, database: name)
    }

    /// `url` with its database replaced by `database`.
    public static func url(_ url: String, database: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.path = "/" + database
        return components.string ?? url
    }

    /// Runs one SQL command with `psql`; throws with psql's message if it fails.
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        try run("/usr/bin/psql", [url, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql])
    }

    /// A cluster of its own in a temporary directory, for tests that stop or restart PostgreSQL.
    public struct Cluster: Sendable {
        public let directory: String
        public let url: String

        public static func start() throws -> Cluster {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-pg-\(UUID().uuidString.prefix(8))").path
            let url = try run(repositoryRoot.appendingPathComponent("tools/postgres").path, ["start", directory])
            return Cluster(directory: directory, url: url.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        public func stop() throws { try run(repositoryRoot.appendingPathComponent("tools/postgres").path, ["stop", directory]) }
        public func restart() throws { try run(repositoryRoot.appendingPathComponent("tools/postgres").path, ["restart", directory]) }

        /// Stops the cluster and removes its files.
        public func remove() {
            try? stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestPostgresError(command: ([executable] + arguments).joined(separator: " "), output: String(decoding: err + out, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A PostgreSQL command of the test support failed.
public struct TestPostgresError: Error, CustomStringConvertible {
    public let command: String
    public let output: String
    public var description: String { "\(command) failed: \(output)" }
}
