import ArgumentParser
import Foundation
import LogBenchmarks

/// `logbook-bench webhooks`: delivery of a backlog against a plain HTTP client's loop, and the
/// lag of live events.
struct WebhookBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks",
        abstract: "Benchmark webhook delivery (a backlog, against plain POSTs of the same batches; then the lag of live appends).")

    @OptionGroup var output: BenchOutput

    @Option(help: "Events in the backlog.")
    var events = 20_000

    @Option(help: "Live events appended once the webhook has caught up.")
    var liveEvents = 2_000

    func validate() throws {
        guard events > 0, liveEvents > 0 else { throw ValidationError("--events and --live-events must be positive.") }
    }

    func run() async throws {
        output.warnIfDebug("webhooks")
        var benchmark = WebhookBenchmark()
        benchmark.events = events
        benchmark.liveEvents = liveEvents
        benchmark.progress = output.progress
        let report = try await benchmark.run()
        output.print(report)
    }
}
