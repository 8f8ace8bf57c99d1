import ArgumentParser
import Foundation
import LogBenchmarks

/// `logbook-bench scale`: every query route's p99 as one user's history and the catalog grow.
struct ScaleBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "Benchmark whether reads, commands and rebuilds stay flat as one user's history and the catalog grow (p99 per route at each scale, and its growth).")

    @OptionGroup var output: BenchOutput

    @Option(help: "Scales to measure, comma-separated multiples of --base-events and --base-places.")
    var scales = "1,10,100"

    @Option(help: "Events of the measured user's history at scale 1.")
    var baseEvents = 9_000

    @Option(help: "Places in the catalog at scale 1.")
    var basePlaces = 1_000

    @Option(help: "Requests per route, uncached and cached, and commands, at each scale (measured in interleaved blocks across the scales).")
    var requests = 100

    @OptionGroup var store: BenchStore

    var parsedScales: [Int] { scales.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    func validate() throws {
        let parsed = parsedScales
        guard !parsed.isEmpty, parsed.count == scales.split(separator: ",").count, parsed.allSatisfy({ (1...10_000).contains($0) }) else {
            throw ValidationError("--scales must be whole numbers from 1 to 10000, comma-separated, such as 1,10,100.")
        }
        guard (100...10_000_000).contains(baseEvents), (1...10_000_000).contains(basePlaces), (1...100_000).contains(requests) else {
            throw ValidationError("--base-events must be 100 to 10000000, --base-places 1 to 10000000, --requests 1 to 100000.")
        }
    }

    func run() async throws {
        output.warnIfDebug("scale")
        var benchmark = ScaleBenchmark()
        benchmark.scales = parsedScales
        benchmark.baseEvents = baseEvents
        benchmark.basePlaces = basePlaces
        benchmark.requests = requests
        benchmark.directory = store.directory
        benchmark.keep = store.keep
        benchmark.progress = output.progress
        let report = try await benchmark.run()
        output.print(report)
    }
}
