public import Foundation
import Glibc
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
    public static func freshDatabase() async throws -> String {
        let server = try await offThePool { try serverURL() }
        let name = "t_\(ProcessInfo.processInfo.processIdentifier)_\(counter.add(1, ordering: .relaxed).newValue)"
        try await psql(server, "CREATE DATABASE \(name)")
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
    public static func psql(_ url: String, _ sql: String) async throws -> String {
        try await offThePool { try run("/usr/bin/psql", [url, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql]) }
    }

    /// The whole database at `url` as `pg_dump` writes it (plain SQL; bytea columns in hex).
    public static func dump(_ url: String) async throws -> String {
        try await offThePool { try run("/usr/bin/pg_dump", [url]) }
    }

    /// Runs blocking work (a child process waited for) on a thread of its own: Swift's
    /// cooperative pool has one thread per core, and tests blocking them starve every other test.
    public static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
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

        /// A cluster of its own, started off the cooperative pool.
        public static func start() async throws -> Cluster { try await offThePool { try start() } }

        public func stop() throws { try run(repositoryRoot.appendingPathComponent("tools/postgres").path, ["stop", directory]) }
        /// Stops the cluster as a crash does (`pg_ctl stop -m immediate`): every backend quits at
        /// once, nothing is checkpointed, and the next start recovers from the WAL.
        public func crash() throws { try run(repositoryRoot.appendingPathComponent("tools/postgres").path, ["crash", directory]) }
        /// Starts the cluster again after ``crash()`` or ``stop()`` (recovering from the WAL after a crash).
        public func startAgain() throws { _ = try run(repositoryRoot.appendingPathComponent("tools/postgres").path, ["start", directory]) }
        /// Crashes the cluster, off the cooperative pool.
        public func crash() async throws { try await offThePool { try crash() } }
        /// Starts the cluster again, off the cooperative pool.
        public func startAgain() async throws { try await offThePool { try startAgain() } }
        public func restart() throws { try run(repositoryRoot.appendingPathComponent("tools/postgres").path, ["restart", directory]) }
        /// Stops the cluster, off the cooperative pool.
        public func stop() async throws { try await offThePool { try stop() } }
        /// Stops and starts the cluster again, off the cooperative pool.
        public func restart() async throws { try await offThePool { try restart() } }

        /// Stops the cluster and removes its files.
        public func remove() {
            try? stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Runs `executable` and waits for it with `waitpid` (Foundation's `Process.waitUntilExit`
    /// can miss the exit of a child that starts a daemon, as `pg_ctl start` does); its output
    /// goes through a temporary file.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-run-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw TestPostgresError(command: executable, output: "could not start: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED && WEXITSTATUS == 0
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw TestPostgresError(command: ([executable] + arguments).joined(separator: " "), output: output)
        }
        return output
    }
}

/// A PostgreSQL command of the test support failed.
public struct TestPostgresError: Error, CustomStringConvertible {
    public let command: String
    public let output: String
    public var description: String { "\(command) failed: \(output)" }
}
