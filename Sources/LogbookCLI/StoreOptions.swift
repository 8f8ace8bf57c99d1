import EventLogLMDB
import ArgumentParser
import EventLog
import Foundation
import Logbook

/// `--path` and how to open the Logbook there: read commands open it read-only (so they work
/// beside a running server), write commands take the writer's lock.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "Directory of the Logbook.")
    var path = "./data"

    /// Opens the Logbook (`configure` adjusts the configuration), runs `body`, and closes it
    /// whatever happens. Read models that need a rebuild on open report to `progress`.
    func withLogbook<R>(
        readOnly: Bool, configure: (inout LogbookConfiguration) -> Void = { _ in }, progress: ProgressBar? = nil,
        _ body: (Logbook) async throws -> R
    ) async throws -> R {
        if readOnly, !FileManager.default.fileExists(atPath: path + "/data.mdb") {
            throw CLIError("no Logbook at \(path) (expected \(path)/data.mdb); create one with `logbook demo` or `logbook import`")
        }
        var configuration = LogbookConfiguration()
        configure(&configuration)
        configuration.log.readOnly = readOnly
        let logbook = try await Logbook.open(path: path, configuration: configuration) { progress?.update($0) }
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
