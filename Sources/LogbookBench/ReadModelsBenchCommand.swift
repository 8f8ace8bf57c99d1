import ArgumentParser
import Foundation
import LogBenchmarks
import Logbook

/// `logbook-bench projections`: rebuild, inline appends and queries over the generated data set.
struct ReadModelsBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections",
        abstract: "Benchmark rebuilds, inline projections and queries over the generated data set.")

    @OptionGroup var output: BenchOutput

    @Option(help: "Users in the generated data set (760 give about 5.1 million events).")
    var users = 760

    @Option(help: "Weeks of history per user.")
    var weeks = 12

    @Option(help: "Iterations per query measurement.")
    var queryIterations = 20_000

    @Option(help: "Events appended in the inline-versus-plain append measurement.")
    var appendEvents = 200_000

    @OptionGroup var store: BenchStore

    @Flag(name: .customLong("plaintext-payloads"), help: "Generate a store that keeps payloads in plaintext (default: encrypted per user, as a new store does).")
    var plaintextPayloads = false

    @Option(help: "The payload format of a generated store (plaintext, xchacha20-poly1305/v2, aes256-gcm/v3; default: a new store's). A kept data set keeps the format it was made in.")
    var payloadFormat: String?

    @Flag(help: .hidden)
    var rebuildOnly = false

    @Flag(help: .hidden)
    var appendOnly = false

    func validate() throws {
        guard users > 0, weeks > 0 else { throw ValidationError("--users and --weeks must be positive.") }
        if let payloadFormat {
            guard let format = PayloadFormat(rawValue: payloadFormat), format.seals else {
                throw ValidationError("--payload-format must be plaintext, xchacha20-poly1305/v2 or aes256-gcm/v3.")
            }
            guard !plaintextPayloads || format == .plaintext else { throw ValidationError("--plaintext-payloads and --payload-format disagree.") }
        }
        guard queryIterations > 0, appendEvents >= 1000 else {
            throw ValidationError("--query-iterations must be positive and --append-events at least 1000.")
        }
    }

    func run() async throws {
        output.warnIfDebug("projections")
        var benchmark = ReadModelsBenchmark()
        benchmark.users = users
        benchmark.weeks = weeks
        benchmark.queryIterations = queryIterations
        benchmark.appendEvents = appendEvents
        benchmark.directory = store.directory
        benchmark.keep = store.keep
        benchmark.payloadEncryption = plaintextPayloads ? .plaintext : payloadFormat.flatMap(PayloadFormat.init(rawValue:)) ?? .current
        benchmark.rebuildOnly = rebuildOnly
        benchmark.appendOnly = appendOnly
        benchmark.progress = output.progress
        let report = try await benchmark.run()
        output.print(report)
    }
}
