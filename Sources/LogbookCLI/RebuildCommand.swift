import ArgumentParser
import Foundation
import Logbook

/// `logbook rebuild`: rebuilds read models from the log and prints their digests.
struct RebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Rebuild read models from the log and print their SHA-256 digests.")

    @OptionGroup var store: StoreOptions

    @Option(help: "Projections to rebuild (default: all): \(ReadModelKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var projection: [String] = []

    @Option(help: "Events per chunk (and per checkpoint).")
    var chunkSize = 65_536

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        for name in projection where ReadModelKind(rawValue: name) == nil {
            throw ValidationError("unknown projection \"\(name)\"; known: \(ReadModelKind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard chunkSize > 0 else { throw ValidationError("--chunk-size must be positive.") }
    }

    func run() async throws {
        let kinds = projection.isEmpty ? Set(ReadModelKind.allCases) : Set(projection.compactMap(ReadModelKind.init(rawValue:)))
        let digests = try await store.withLogbook(readOnly: false, existing: true, configure: { $0.rebuildChunkSize = chunkSize }) { logbook in
            let bar = ProgressBar(enabled: !json)
            defer { bar.finish() }
            return try await logbook.rebuild(kinds) { bar.update($0) }
        }
        try Output.print(digests, json: json) { digest in
            "\(digest.projection.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(digest.sha256)  at \(digest.position)"
        }
    }
}

/// `logbook verify`: rebuilds into a scratch environment and compares digests with the live store.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Rebuild every read model into a scratch store and compare digests with the live ones.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let results = try await store.withLogbook(readOnly: false, existing: true) { logbook in
            let bar = ProgressBar(enabled: !json)
            defer { bar.finish() }
            return try await logbook.verify { bar.update($0) }
        }
        try Output.print(results, json: json) { result in
            "\(result.matches ? "ok      " : "MISMATCH") \(result.projection.rawValue) at \(result.position): live \(result.live.prefix(16))… rebuilt \(result.rebuilt.prefix(16))…"
        }
        if !results.allSatisfy(\.matches) { throw ExitCode(2) }
    }
}
