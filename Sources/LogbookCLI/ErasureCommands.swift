import ArgumentParser
import EventLogLMDB
import Foundation
import Logbook

/// `logbook erase --user U`: forgets a user (the Privacy article) in a store no server is writing, then
/// rewrites its data file compacted, so no freed page keeps a byte of the user's read models. With
/// `--postgres`, in the shared log, beside running servers (each removes the user from its read
/// models when it hears of it, and compacts their file when it next opens).
struct EraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Erase a user: append user.erased, destroy their key, remove them from the read models, compact the store.")

    @OptionGroup var store: StoreOptions

    @Option(help: "The user to forget.")
    var user: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        let result = try await store.withLogbook(readOnly: false, existing: true) { logbook in try await logbook.erase(user: user) }
        guard store.postgresURL == nil else {
            if json { return print(try Output.jsonText(result)) }
            return print(result.alreadyApplied ? "\(user) was erased already; nothing written"
                : "erased \(user): user.erased at position \(result.lastPosition), key destroyed in the shared log; every server removes them from its read models")
        }
        let (before, after) = try LMDBEventStore.compact(path: store.path)
        if json { return print(try Output.jsonText(result)) }
        if result.alreadyApplied {
            print("\(user) was erased already; nothing written")
        } else {
            print("erased \(user): user.erased at position \(result.lastPosition), key destroyed, removed from the read models")
        }
        print("store compacted: \(before >> 20) MiB → \(after >> 20) MiB")
    }
}

/// `logbook encrypt-existing --path OLD --to NEW`: rewrites a store whose payloads are plaintext
/// (made before payloads were encrypted) or in an earlier encrypted format (`chacha20-poly1305/v1`,
/// `xchacha20-poly1305/v2`, read with its keys) into a new store in the current format, each user's payloads sealed under
/// a new key of their own, through the export → import path (ids, times, metadata and positions
/// kept; erased users stay erased), then compares every read model's digest: they must be
/// unchanged. The old store is left as it was: remove it once the new one serves.
struct EncryptExistingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt-existing",
        abstract: "Rewrite a plaintext, chacha20-poly1305/v1 or xchacha20-poly1305/v2 store into a new one in the current encrypted format (digests compared).")

    @OptionGroup var store: StoreOptions

    @Option(help: "The new store's directory: it must not hold a Logbook yet.")
    var to: String

    @Flag(help: "Print the digests as JSON.")
    var json = false

    func run() async throws {
        guard store.postgresURL == nil else {
            throw CLIError("encrypt-existing rewrites an embedded store; a log in PostgreSQL is sealed from its start, or moved into a new one with `logbook export` and `logbook import --postgres`")
        }
        guard !FileManager.default.fileExists(atPath: to + "/data.mdb") else {
            throw CLIError("\(to) already holds a Logbook; encrypt into a new directory")
        }
        let results = try await store.withLogbook(readOnly: true) { source in
            guard source.payloadFormat != .current else {
                throw CLIError("\(store.path) already keeps its payloads as \(source.payloadFormat.rawValue)")
            }
            let head = try await source.log.headPosition().rawValue
            var configuration = LogbookConfiguration()
            configuration.payloadEncryption = .current
            let target = try await Logbook.open(path: to, configuration: configuration)
            do {
                let bar = CountingProgress(total: head, enabled: !json, noun: "events rewritten")
                try await target.restore(from: source, through: head) { bar.update($0) }
                bar.finish()
                let before = try source.digests()
                let after = try target.digests()
                await target.close()
                return zip(before, after).map { VerificationResult(projection: $0.projection, position: $0.position, live: $0.sha256, rebuilt: $1.sha256) }
            } catch {
                await target.close()
                throw error
            }
        }
        try Output.print(results, json: json) { result in
            "\(result.matches ? "same    " : "DIFFERENT") \(result.projection.rawValue) at \(result.position): \(result.live.prefix(16))…"
        }
        guard results.allSatisfy(\.matches) else { throw ExitCode(2) }
        if !json { print("\(to) holds the store with payloads as \(PayloadFormat.current.rawValue); \(store.path) is unchanged") }
    }
}
