import ArgumentParser
import EventLogPostgres
import Foundation
import Logbook

/// `logbook backup --to DIR`: an online, consistent, compacted copy of the store with a
/// manifest (head, digests, checksums), made beside a running server (the store is opened
/// read-only; the copy reads one snapshot while the server appends). With `--postgres URL`, the
/// rows of the log in PostgreSQL, read in one snapshot while servers append.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back the store up while it serves: a compacted copy of the log and read models (or, with --postgres, the log's rows from one snapshot), with a manifest of digests and checksums.")

    @OptionGroup var store: StoreOptions

    @Option(help: "The backup's directory: new, or empty.")
    var to: String

    @Flag(help: "Print the manifest as JSON.")
    var json = false

    func run() async throws {
        let progress = ByteProgress(enabled: !json)
        let manifest: BackupManifest
        let source: String
        if let url = store.postgresURL {
            let parsed = try PostgresURL(url)
            source = parsed.description
            // A backup only reads: pointed at a database without a log, it must not make one.
            var configuration = PostgresLogConfiguration()
            configuration.schema = .requireCurrent
            let log = try await PostgresEventStore.connect(parsed, configuration: configuration)
            do {
                manifest = try await Logbook.backup(sharedLog: log, to: to) { progress.update($0) }
                await log.close()
            } catch {
                await log.close()
                throw error
            }
        } else {
            source = store.path
            manifest = try await store.withLogbook(readOnly: true) { logbook in
                try await logbook.backup(to: to) { progress.update($0) }
            }
        }
        progress.finish()
        if json { return print(try Output.jsonText(manifest)) }
        print("backed up \(source) to \(to): head \(manifest.head)")
        for file in manifest.files {
            print("  \(file.name): \(file.bytes) bytes, sha256 \(file.sha256.prefix(16))…  (\(file.holds))")
        }
        for model in manifest.readModels {
            print("  \(model.projection.rawValue) v\(model.codeVersion) at \(model.position): \(model.sha256.prefix(16))…")
        }
    }
}

/// `logbook restore --from DIR --path NEW`: checks a backup against its manifest, restores it
/// into a new store, and verifies it before it appears at `--path`. `--to-postgres URL` restores
/// a backup of a log in PostgreSQL into an empty database, verified the same way.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a new store: checksums checked, head and digests compared with the manifest, verify run; a damaged backup is refused.")

    @Option(help: "The backup's directory (made by `logbook backup` or POST /admin/backup).")
    var from: String

    @Option(help: "Where to restore a backup of an embedded Logbook: a directory that does not exist yet, or is empty.")
    var path: String?

    @Option(name: .customLong("to-postgres"), help: "Where to restore a backup of a log in PostgreSQL: a database that holds no log yet.")
    var toPostgres: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard (path == nil) != (toPostgres == nil) else { throw ValidationError("give exactly one of --path and --to-postgres.") }
    }

    func run() async throws {
        let check: RestoreCheck
        if let toPostgres {
            let url = try PostgresURL(toPostgres)
            let log = try await PostgresEventStore.connect(url)
            do {
                check = try await Logbook.restore(backup: from, toSharedLog: log, target: url.description)
                await log.close()
            } catch {
                await log.close()
                throw error
            }
        } else {
            check = try await Logbook.restore(backup: from, to: path ?? "")
        }
        if json { return print(try Output.jsonText(check)) }
        print("restored \(from) to \(check.path): head \(check.head); checked \(check.filesChecked.joined(separator: ", "))")
        for result in check.verification {
            print("  ok \(result.projection.rawValue) at \(result.position): \(result.live.prefix(16))…")
        }
    }
}

/// A byte count on stderr while a backup copies (only on a terminal).
final class ByteProgress: Sendable {
    private let enabled: Bool

    init(enabled: Bool) { self.enabled = enabled && isatty(STDERR_FILENO) == 1 }

    func update(_ progress: BackupProgress) {
        guard enabled else { return }
        let text = "\r\(progress.file): \(progress.bytesCopied >> 20) MiB of at most \(progress.sourceBytes >> 20) MiB"
        FileHandle.standardError.write(Data(text.utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
