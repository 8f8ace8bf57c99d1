import ArgumentParser
import EventLog
import EventLogLMDB
import EventLogPostgres
import Foundation
import Logbook

/// `logbook copy --from DIR --to-postgres URL`: moves an embedded log into PostgreSQL, keeping
/// positions, ids, times and bytes (so every read model rebuilds to the same digests), with each
/// user's key and each erased user's tombstone when the store encrypts payloads, then compares
/// the two logs event by event.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy an embedded Logbook's log into PostgreSQL (positions, ids and bytes kept; resumable; verified).")

    @Option(help: "Directory of the embedded Logbook to copy.")
    var from: String

    @Option(name: .customLong("to-postgres"), help: "The PostgreSQL log to copy into: empty, or holding a copy that stopped half way.")
    var toPostgres: String

    @Option(name: .customLong("chunk-size"), help: "Events per commit in PostgreSQL.")
    var chunkSize = 2_048

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard (1...65_536).contains(chunkSize) else { throw ValidationError("--chunk-size must be between 1 and 65536.") }
    }

    func run() async throws {
        guard FileManager.default.fileExists(atPath: from + "/data.mdb") else {
            throw CLIError("no Logbook at \(from) (expected \(from)/data.mdb)")
        }
        var readOnly = LogConfiguration()
        readOnly.readOnly = true
        let source = try LMDBEventStore(path: from, configuration: readOnly)
        let target: PostgresEventStore
        do {
            target = try await PostgresEventStore.connect(try PostgresURL(toPostgres))
        } catch {
            await source.close()
            throw error
        }
        let bar = CountingProgress(total: try await source.headPosition().rawValue, enabled: !json, noun: "events copied")
        var copy = LogCopy(from: source, to: target)
        copy.chunkSize = chunkSize
        let report: LogCopy.Report
        let keys: Int
        do {
            // The bytes are copied as they are: encrypted payloads go with their users' keys, first.
            keys = try await Logbook.copyKeys(ofStoreAt: from, to: target)
            report = try await copy.run { done, _ in bar.update(done.rawValue) }
        } catch {
            await target.close()
            await source.close()
            throw error
        }
        bar.finish()
        await target.close()
        await source.close()
        if json {
            print(try Output.jsonText(report))
        } else {
            print("copied \(report.copied) events (\(report.alreadyThere) were already there) and \(keys) users' keys; "
                + "head \(report.head); \(report.verified) compared equal")
        }
    }
}
