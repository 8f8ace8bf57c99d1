import ChildProcesses
import DemoData
public import EventLog
public import Foundation
public import Logbook
import LogbookTesting

/// Opens a Logbook in a fresh temporary directory, runs `body`, closes it and removes the
/// directory, even if `body` throws.
public func withLogbook<R>(
    _ configure: (inout LogbookConfiguration) -> Void = { _ in },
    _ body: (Logbook, String) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { path in
        var configuration = LogbookConfiguration()
        configuration.log.durability = .relaxed
        // Tests ask many uncached queries of one user on a loaded machine in a debug build: the
        // CPU budget is not what they test (the tests of the budget set their own).
        configuration.queryWork.burst = .seconds(3_600)
        configure(&configuration)
        let logbook = try await Logbook.open(path: path + "/logbook", configuration: configuration)
        do {
            let result = try await body(logbook, path + "/logbook")
            await logbook.close()
            return result
        } catch {
            await logbook.close()
            throw error
        }
    }
}

/// ``withLogbook(_:_:)`` with `users` generated users' `weeks` weeks of history in it
/// (`DemoDataGenerator` from `seed`), configured by `configure`.
public func withGeneratedLogbook<R>(
    seed: UInt64, users: Int, weeks: Int, configure: (inout LogbookConfiguration) -> Void = { _ in },
    _ body: (Logbook) async throws -> R
) async throws -> R {
    try await withLogbook(configure) { logbook, _ in
        var generator = DemoDataGenerator(seed: seed, users: users)
        generator.weeks = weeks
        _ = try await generator.run(on: logbook)
        return try await body(logbook)
    }
}

/// A timestamp from its RFC 3339 text (for tests, where the text is known to be valid).
public func at(_ text: String) -> Timestamp {
    do { return try Timestamp(parsing: text) } catch { preconditionFailure("bad test timestamp \(text): \(error)") }
}

/// A date from `yyyy-mm-dd` (for tests).
public func day(_ text: String) -> CivilDate {
    guard let date = CivilDate(parsing: text) else { preconditionFailure("bad test date \(text)") }
    return date
}

/// A command context judged at `now`, recording at `now` too.
public func when(_ now: String, id: UUID? = nil) -> CommandContext {
    CommandContext(now: at(now), eventId: id, recordAtNow: true)
}

/// Runs the built `logbook` binary to completion with extra environment variables; returns its
/// exit status and its standard output (with standard error too if `includeErrors`). Waits on a
/// thread of its own: a child that runs for a minute must not hold one of the cooperative pool's
/// few threads (every other test would stall with it).
public func runLogbook(_ arguments: [String], environment: [String: String] = [:], includeErrors: Bool = false) async throws -> (Int32, String) {
    try await runProgram(logbookExecutable, arguments, environment: environment, includeErrors: includeErrors)
}

/// Runs `executable` to completion as ``runLogbook(_:environment:includeErrors:)`` runs
/// `logbook` (off the cooperative pool), in `directory` if given.
public func runProgram(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:], includeErrors: Bool = false, in directory: String? = nil
) async throws -> (Int32, String) {
    try await TestPostgres.offThePool {
        try runBlocking(executable, arguments, environment: environment, includeErrors: includeErrors, directory: directory)
    }
}

private func runBlocking(
    _ executable: URL, _ arguments: [String], environment: [String: String], includeErrors: Bool, directory: String?
) throws -> (Int32, String) {
    let child = try ChildProcess(
        executable.path, arguments, environment: ChildProcess.currentEnvironment().merging(environment) { $1 }, directory: directory,
        errors: includeErrors)
    let output = child.readToEnd()
    return (child.wait().status, String(decoding: output, as: UTF8.self))
}
