import ArgumentParser
import Foundation
import LogBenchmarks

/// `logbook-bench wire`: export, parse and import of the JSON wire form against Python's `json`.
struct WireBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wire",
        abstract: "Benchmark the JSON wire form (export, parse, import) against python3's json over the same lines.")

    @Flag(help: "Print one JSON object on stdout (progress goes to stderr).")
    var json = false

    @Option(help: "Users in the generated data set (80 gives about 535,000 events).")
    var users = 80

    @Option(help: "Weeks of history per user.")
    var weeks = 12

    @Option(help: "Directory for the benchmark's data (default: a fresh temporary directory, removed after).")
    var directory: String?

    func validate() throws {
        guard users > 0, weeks > 0 else { throw ValidationError("--users and --weeks must be positive.") }
    }

    func run() async throws {
        #if DEBUG
        FileHandle.standardError.write(Data("warning: a debug build; benchmark with `swift run -c release logbook-bench wire`\n".utf8))
        #endif
        var benchmark = WireBenchmark()
        benchmark.users = users
        benchmark.weeks = weeks
        benchmark.directory = directory
        benchmark.progress = { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }
        let report = try await benchmark.run()
        print(json ? report.json : report.table)
    }
}
