import ArgumentParser
import EventLog
import Foundation
import Logbook

/// `logbook replay`: replays the log up to a position or a time into a fresh Logbook (a scratch
/// one by default), folding every read model as it goes, and prints the digests there. With
/// `--into` the replayed Logbook stays, to query or serve as it stood then.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay the log up to --to POSITION or --as-of TIME into a fresh Logbook and print its read-model digests.")

    @OptionGroup var store: StoreOptions

    @Option(help: "Replay events up to and including this position.")
    var to: UInt64?

    @Option(name: .customLong("as-of"), help: "Replay events recorded at or before this RFC 3339 time.")
    var asOf: String?

    @Option(help: "Directory of the replayed Logbook (must not hold one yet; default: a scratch directory, removed after).")
    var into: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard (to == nil) != (asOf == nil) else { throw ValidationError("give exactly one of --to POSITION and --as-of TIME.") }
        if let asOf {
            do { _ = try Timestamp(parsing: asOf) } catch { throw ValidationError("--as-of must be an RFC 3339 time: \(error)") }
        }
        if let into, FileManager.default.fileExists(atPath: into + "/data.mdb") {
            throw ValidationError("\(into) already holds a Logbook; replay into an empty directory.")
        }
    }

    func run() async throws {
        let target = try into ?? PrivateFiles.temporaryDirectory(prefix: "logbook-replay-")
        defer { if into == nil { try? FileManager.default.removeItem(atPath: target) } }
        try PrivateFiles.createDirectory(atPath: target)
        let digests = try await store.withLogbook(readOnly: true) { source in
            let end: UInt64
            if let to {
                end = min(to, try await source.log.headPosition().rawValue)
            } else {
                end = try await source.position(asOf: try Timestamp(parsing: asOf!)).rawValue
            }
            var configuration = LogbookConfiguration()
            configuration.log.durability = into == nil ? .noSync : .durable
            let replica = try await Logbook.open(path: target, configuration: configuration)
            do {
                let bar = CountingProgress(total: end, enabled: !json, noun: "events replayed")
                try await replica.restore(from: source, through: end) { bar.update($0) }
                bar.finish()
                let digests = try replica.digests()
                await replica.close()
                return digests
            } catch {
                await replica.close()
                throw error
            }
        }
        try Output.print(digests, json: json) { digest in
            "\(digest.projection.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(digest.sha256)  at \(digest.position)"
        }
        if let into, !json { print("replayed Logbook kept in \(into)") }
    }
}
