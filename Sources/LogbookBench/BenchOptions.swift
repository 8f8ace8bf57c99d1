import ArgumentParser
import Foundation
import LogBenchmarks

/// How every benchmark reports: a table (or, with `--json`, one JSON object) on standard output,
/// and its progress on standard error, so standard output holds only the report.
struct BenchOutput: ParsableArguments {
    @Flag(help: "Print one JSON object on stdout (progress goes to stderr).")
    var json = false

    /// Warns, in a debug build, that `subcommand`'s numbers are not a release build's.
    func warnIfDebug(_ subcommand: String) {
        #if DEBUG
        FileHandle.standardError.write(Data("warning: a debug build; benchmark with `swift run -c release logbook-bench \(subcommand)`\n".utf8))
        #endif
    }

    /// Writes a benchmark's progress line to standard error.
    var progress: @Sendable (String) -> Void { { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) } }

    /// Prints `report` as asked.
    func print(_ report: BenchmarkReport) { Swift.print(json ? report.json : report.table) }
}

/// Where a benchmark builds its data, and whether it keeps them for the next run.
struct BenchStore: ParsableArguments {
    @Option(help: "Directory for the benchmark's data (default: a fresh temporary directory, removed after).")
    var directory: String?

    @Flag(help: "Keep the directory afterwards, and reuse a data set already built there.")
    var keep = false
}
