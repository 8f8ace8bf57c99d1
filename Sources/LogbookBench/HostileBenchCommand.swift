import ArgumentParser
import Foundation
import LogBenchmarks

/// `logbook-bench hostile`: one user's worst requests against another user's reads.
struct HostileBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile",
        abstract: "Benchmark whether one user's worst requests, route by route, slow another user's reads (victim p99 against its quiet p99).")

    @OptionGroup var output: BenchOutput

    @Option(help: "Places in the catalog.")
    var places = 10_000

    @Option(help: "Events in the attacker's history.")
    var attackerEvents = 1_000_000

    @Option(help: "Seconds each phase runs.")
    var seconds = 4.0

    @Option(help: "Attacker requests in flight at once.")
    var attackers = 8

    @Option(help: "Only these attacks (comma-separated names, as the report names them).")
    var only: String?

    @OptionGroup var store: BenchStore

    func validate() throws {
        guard places >= 1, attackerEvents >= 1, seconds > 0, attackers >= 1 else {
            throw ValidationError("--places, --attacker-events, --seconds and --attackers must be positive.")
        }
    }

    func run() async throws {
        output.warnIfDebug("hostile")
        var benchmark = HostileBenchmark()
        benchmark.places = places
        benchmark.attackerEvents = attackerEvents
        benchmark.phaseSeconds = seconds
        benchmark.attackers = attackers
        benchmark.only = only.map { Set($0.split(separator: ",").map(String.init)) }
        benchmark.directory = store.directory
        benchmark.keep = store.keep
        benchmark.progress = output.progress
        let report = try await benchmark.run()
        output.print(report)
    }
}
