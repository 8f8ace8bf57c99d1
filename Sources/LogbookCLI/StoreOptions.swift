import EventLogLMDB
import EventLogPostgres
import ArgumentParser
import EventLog
import Foundation
import Logbook

/// `--path` (and `--postgres`) and how to open the Logbook there: read commands open an embedded
/// one read-only (so they work beside a running server), write commands take the writer's lock.
/// With `--postgres` the log is the shared one in PostgreSQL and `--path` holds this process's
/// read models, which follow it.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "Directory of the Logbook (with --postgres: of this process's read models).")
    var path = "./data"

    @Option(name: .long, help: "The log in PostgreSQL, shared by several servers: postgres://user:password@host:port/db?sslmode=… (default: $LOGBOOK_POSTGRES_URL).")
    var postgres: String?

    /// The PostgreSQL URL from the option or the environment (an empty one counts as none).
    var postgresURL: String? {
        let url = postgres ?? ProcessInfo.processInfo.environment["LOGBOOK_POSTGRES_URL"]
        return url?.isEmpty == false ? url : nil
    }

    /// Opens the Logbook: embedded in `path`, or following the PostgreSQL log with its read models in `path`.
    func open(_ configuration: LogbookConfiguration, progress: ProgressBar? = nil) async throws -> Logbook {
        if let url = postgresURL {
            let log = try await PostgresEventStore.connect(try PostgresURL(url), configuration: PostgresLogConfiguration(configuration.log))
            return try await Logbook.open(following: log, readModelsAt: path, configuration: configuration) { progress?.update($0) }
        }
        return try await Logbook.open(path: path, configuration: configuration) { progress?.update($0) }
    }

    /// Opens the Logbook (`configure` adjusts the configuration), runs `body`, and closes it
    /// whatever happens. Read models that need a rebuild on open report to `progress`. A read, or
    /// a command on a store that must be there already (`existing`: a rebuild, a verify, an
    /// erasure), refuses a path that holds no Logbook instead of making an empty one there.
    func withLogbook<R>(
        readOnly: Bool, existing: Bool = false, configure: (inout LogbookConfiguration) -> Void = { _ in }, progress: ProgressBar? = nil,
        _ body: (Logbook) async throws -> R
    ) async throws -> R {
        if readOnly || existing, postgresURL == nil, !FileManager.default.fileExists(atPath: path + "/data.mdb") {
            throw CLIError("no Logbook at \(path) (expected \(path)/data.mdb); create one with `logbook demo` or `logbook import`")
        }
        var configuration = LogbookConfiguration()
        // A command that runs once has no old version to keep answering: it rebuilds first.
        configuration.upgradesInBackground = false
        configure(&configuration)
        // The read models of a process following PostgreSQL are its own: it writes them even for a read.
        configuration.log.readOnly = readOnly && postgresURL == nil
        let logbook = try await open(configuration, progress: progress)
        progress?.finish()
        do {
            let result = try await body(logbook)
            await logbook.close()
            return result
        } catch {
            await logbook.close()
            throw error
        }
    }
}

/// A failure the CLI explains in one sentence (exit code 1).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `--user`, `--as-of` and `--json`, shared by the read commands.
struct ReadOptions: ParsableArguments {
    @Option(help: "The user (e.g. u-1000 in the demo data set).")
    var user: String

    @Option(name: .customLong("as-of"), help: "Answer as of a log position (e.g. 1200) or an RFC 3339 time.")
    var asOf: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws { _ = try parsedAsOf() }

    func parsedAsOf() throws -> AsOf? {
        guard let asOf else { return nil }
        if let position = UInt64(asOf) { return .position(Position(position)) }
        do {
            return .time(try Timestamp(parsing: asOf))
        } catch {
            throw ValidationError("--as-of must be a log position or an RFC 3339 time: \(error)")
        }
    }
}

/// `--durability` on the command line.
enum DurabilityArgument: String, ExpressibleByArgument, CaseIterable {
    case durable, relaxed, nosync

    var value: LogDurability {
        switch self {
        case .durable: .durable
        case .relaxed: .relaxed
        case .nosync: .noSync
        }
    }
}

extension PostgresLogConfiguration {
    /// The PostgreSQL log's settings that correspond to the embedded log's (event size limit, clock).
    init(_ log: LogConfiguration) {
        self.init()
        maxEventBytes = log.maxEventBytes
        clock = log.clock
    }
}
