import ArgumentParser

/// `logbook-bench`: Logbook's benchmarks, each with its own baseline measured in the same run,
/// printing JSON. A program of its own, so the shipped `logbook` carries no benchmark code (nor
/// the C baseline it runs beside itself). Build it in release mode:
/// `swift build -c release --product logbook-bench`.
@main
struct LogbookBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook-bench",
        abstract: "Run a benchmark and print its results as JSON (build with -c release).",
        subcommands: [LogBenchCommand.self, ReadModelsBenchCommand.self, ImportBenchCommand.self, WireBenchCommand.self, WebhookBenchCommand.self,
                      HostileBenchCommand.self, ScaleBenchCommand.self, ClientBenchCommand.self])
}
