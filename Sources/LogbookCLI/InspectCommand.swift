import ArgumentParser
import EventLog
import Foundation
import Logbook
import LogbookHTTP

/// `logbook inspect`: what is in the store — events, size on disk, map use, readers, each
/// projection's checkpoint and lag — and optionally the last events of the log or of a stream.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the log's size, map use, readers, projection checkpoints and lag, and recent events.")

    @OptionGroup var store: StoreOptions

    @Option(help: "Also print the last N events (of --stream, or of the whole log).")
    var events = 0

    @Option(help: "The stream whose events to print.")
    var stream: String?

    @Flag(help: "Print JSON.")
    var json = false

    struct Report: Encodable {
        var path: String
        var fileBytes: Int
        var storage: LogStorageInfo
        var projections: [ReadModelStatus]
        var events: [String]?
    }

    func validate() throws {
        guard (0...10_000).contains(events) else { throw ValidationError("--events must be between 0 and 10000.") }
    }

    func run() async throws {
        let report = try await store.withLogbook(readOnly: true) { logbook in
            let info = try await logbook.log.storageInfo()
            let attributes = try FileManager.default.attributesOfItem(atPath: store.path + "/data.mdb")
            var recent: [String]?
            if events > 0 {
                let found: [RecordedEvent]
                if let stream {
                    found = try await logbook.log.readStream(stream, from: UInt64.max, direction: .backward, limit: events)
                } else {
                    found = try await logbook.log.readAll(from: Position(UInt64.max), direction: .backward, limit: events, filter: .all).events
                }
                try await logbook.loadKeys(opening: found)
                recent = try found.reversed().map { try WireEvent($0, of: logbook).jsonLine }
            }
            return Report(
                path: store.path, fileBytes: (attributes[.size] as? Int) ?? 0, storage: info,
                projections: try await logbook.projectionStatus(), events: recent)
        }
        if json { return print(try Output.jsonText(report)) }
        if let mapSize = report.storage.mapSize {
            print("""
            \(report.path): \(report.storage.headPosition) events, file \(megabytes(report.fileBytes)), \
            map \(megabytes(report.storage.usedBytes)) used of \(megabytes(mapSize)), \
            readers \(report.storage.readersInUse ?? 0)/\(report.storage.maxReaders ?? 0)
            """)
        } else {
            print("\(report.storage.backend) log: \(report.storage.headPosition) events, \(megabytes(report.storage.usedBytes)) in its tables; read models in \(report.path)")
        }
        print("databases:")
        for database in report.storage.databases {
            print("  \(database.name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(String(database.entries).leftPadded(10)) entries  \(megabytes(database.bytes).leftPadded(10))")
        }
        print("projections:")
        for projection in report.projections {
            print("  \(projection.projection.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) v\(projection.codeVersion)  at \(projection.position)  lag \(projection.lag) (\(projection.lagSeconds) s)\(projection.rebuilding ? "  (rebuilding)" : "")\(projection.upgrade.map { "  (upgrading to v\($0.codeVersion), at \($0.position))" } ?? "")")
        }
        for line in report.events ?? [] { print(line) }
    }

    private func megabytes(_ bytes: Int) -> String {
        "\(bytes / 1_048_576).\(bytes % 1_048_576 * 10 / 1_048_576) MiB"
    }
}

/// `logbook token`: mints a bearer token for a user (or an administrator) with the server's secret.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a bearer token (HS256 JWT) for a user, signed with $LOGBOOK_JWT_SECRET or --jwt-secret-file.")

    @Option(help: "The user id (the token's sub).")
    var user: String

    @Flag(help: "Give the token the administrator role.")
    var admin = false

    @Option(help: "Lifetime in seconds.")
    var lifetime = 86_400

    @OptionGroup var tokens: TokenSecretOptions

    func validate() throws {
        guard try tokens.secret() != nil else {
            throw ValidationError("set LOGBOOK_JWT_SECRET or --jwt-secret-file to the server's secret.")
        }
        guard lifetime > 0 else { throw ValidationError("--lifetime must be positive.") }
        if let reason = IdRule.violation(user) { throw ValidationError("--user \(reason).") }
    }

    func run() async throws {
        guard let secret = try tokens.secret() else { throw ValidationError("the secret is gone") }
        let keys = await TokenKeys(secret: secret)
        print(try await keys.token(user: user, admin: admin, lifetime: TimeInterval(lifetime), audience: tokens.audience, issuer: tokens.issuer))
    }
}
