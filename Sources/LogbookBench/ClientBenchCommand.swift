import ArgumentParser
import Foundation
import LogBenchmarks

/// `logbook-bench client`: LogbookClient's cached reads and command journal against their baselines.
struct ClientBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Benchmark LogbookClient: uncached, revalidated and current reads; commands journaled (against write+fsync) and drained (against sending directly).")

    @OptionGroup var output: BenchOutput

    @Option(help: "Reads measured of each kind.")
    var reads = 400

    @Option(help: "Commands journaled, then drained.")
    var commands = 1_000

    @Option(help: "Directory for the benchmark's data (default: a fresh temporary directory, removed after).")
    var directory: String?

    func validate() throws {
        guard reads > 0, commands > 0, commands <= 20_000 else { throw ValidationError("--reads must be positive, --commands from 1 to 20,000.") }
    }

    func run() async throws {
        output.warnIfDebug("client")
        var benchmark = ClientBenchmark()
        benchmark.reads = reads
        benchmark.commands = commands
        benchmark.directory = directory
        benchmark.progress = output.progress
        output.print(try await benchmark.run())
    }
}
