import ArgumentParser

/// `logbook bench`: benchmarks that print JSON.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark and print its results as JSON (build with -c release).",
        subcommands: [LogBenchCommand.self, ProjectionsBenchCommand.self, ImportBenchCommand.self, WireBenchCommand.self])
}
