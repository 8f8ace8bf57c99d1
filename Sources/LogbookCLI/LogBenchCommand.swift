import ArgumentParser

/// `logbook bench log`: the event log against raw LMDB.
struct LogBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "log", abstract: "Benchmark the event log against raw LMDB.")

    @Flag(help: "Print one JSON object on stdout.")
    var json = false

    func run() async throws {}
}
