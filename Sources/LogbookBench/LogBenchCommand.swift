import ArgumentParser
import Foundation
import LogBenchmarks
import Logbook

/// `logbook-bench log`: the event log against raw LMDB.
struct LogBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Benchmark the event log against raw LMDB measured in the same run.")

    @OptionGroup var output: BenchOutput

    @Option(help: "Events in the workload.")
    var events = 1_000_000

    @Option(help: "Durable single-event appends by one writer.")
    var durableSingle = 1_000

    @Option(help: "Durable single-event appends shared by the concurrent writers.")
    var durableConcurrent = 20_000

    @Option(name: .customLong("backup-mb"), help: "Size of the store the backup phase backs up and restores, in MB (0: skip it).")
    var backupMegabytes = 1_024

    @Option(help: "Batches of appends in flight at once (1: each batch waits for the previous commit).")
    var pipelineDepth = 2

    @Option(help: "Directory for the benchmark's logs (default: a fresh temporary directory, removed after).")
    var directory: String?

    @Option(help: "lmdb (the embedded log against raw LMDB) or postgres (the log in PostgreSQL against a raw INSERT).")
    var backend = "lmdb"

    @Option(help: "With --backend postgres: a server (URL of a database the role can connect to); the benchmark makes a database of its own there and drops it after. Never defaults to $LOGBOOK_POSTGRES_URL (default: $LOGBOOK_BENCH_POSTGRES_URL).")
    var postgres: String?

    @Option(help: "The payload format the encryption phase seals with (xchacha20-poly1305/v2 or aes256-gcm/v3; default: a new store's).")
    var payloadFormat: String?

    @Flag(help: .hidden)
    var appendOnly = false

    @Flag(help: .hidden)
    var durableOnly = false

    @Option(help: .hidden)
    var scanOnly: Int?

    func validate() throws {
        guard backend == "lmdb" || backend == "postgres" else { throw ValidationError("--backend must be lmdb or postgres.") }
        guard events >= 10_000 else { throw ValidationError("--events must be at least 10000 (one batch).") }
        if let payloadFormat {
            guard let format = PayloadFormat(rawValue: payloadFormat), format.isEncrypted, format.seals else {
                throw ValidationError("--payload-format must be xchacha20-poly1305/v2 or aes256-gcm/v3.")
            }
        }
        guard backupMegabytes >= 0 else { throw ValidationError("--backup-mb must not be negative.") }
        guard pipelineDepth >= 1 else { throw ValidationError("--pipeline-depth must be at least 1.") }
        guard durableSingle > 0, durableConcurrent >= 64 else {
            throw ValidationError("--durable-single must be positive and --durable-concurrent at least 64.")
        }
    }

    func run() async throws {
        output.warnIfDebug("log")
        if backend == "postgres" {
            // Never the serving variable: a benchmark must not be one typo away from a production log.
            guard let url = postgres ?? ProcessInfo.processInfo.environment["LOGBOOK_BENCH_POSTGRES_URL"], !url.isEmpty else {
                throw ValidationError("--backend postgres needs --postgres URL (or $LOGBOOK_BENCH_POSTGRES_URL): a server where the role may CREATE DATABASE; tools/postgres starts one")
            }
            var benchmark = PostgresLogBenchmark(url: url)
            benchmark.events = events
            benchmark.durableSingleAppends = durableSingle
            benchmark.durableConcurrentAppends = durableConcurrent
            // A tenth of the log (20,000 of the standard 200,000), in calls of 1,000.
            benchmark.conditionedEvents = min(20_000, max(events / 10, 1_000))
            benchmark.progress = output.progress
            let report = try await benchmark.run()
            output.print(report)
            return
        }
        var benchmark = LogBenchmark()
        benchmark.events = events
        benchmark.durableSingleAppends = durableSingle
        benchmark.durableConcurrentAppends = durableConcurrent
        benchmark.directory = directory
        benchmark.backupMegabytes = backupMegabytes
        benchmark.pipelineDepth = pipelineDepth
        benchmark.payloadFormat = payloadFormat.flatMap(PayloadFormat.init(rawValue:)) ?? .current
        benchmark.appendOnly = appendOnly
        benchmark.scanOnly = scanOnly
        benchmark.durableOnly = durableOnly
        benchmark.progress = output.progress
        let report = try await benchmark.run()
        output.print(report)
    }
}
