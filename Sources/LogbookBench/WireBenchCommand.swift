import ArgumentParser
import Foundation
import LogBenchmarks

/// `logbook-bench wire`: export, parse and import of the JSON wire form against Python's `json`.
struct WireBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wire",
        abstract: "Benchmark the JSON wire form (export, parse, import) against python3's json over the same lines.")

    @OptionGroup var output: BenchOutput

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
        output.warnIfDebug("wire")
        var benchmark = WireBenchmark()
        benchmark.users = users
        benchmark.weeks = weeks
        benchmark.directory = directory
        benchmark.progress = output.progress
        let report = try await benchmark.run()
        output.print(report)
    }
}
