import ArgumentParser
import Foundation
import Logbook

/// `logbook backup --to DIR`: an online, consistent, compacted copy of the store with a
/// manifest (head, digests, checksums), made beside a running server (the store is opened
/// read-only; the copy reads one snapshot while the server appends).
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back the store up while it serves: a compacted copy of the log and read models, with a manifest of digests and checksums.")

    @OptionGroup var store: StoreOptions

    @Option(help: "The backup's directory: new, or empty.")
    var to: String

    @Flag(help: "Print the manifest as JSON.")
    var json = false

    func run() async throws {
        let progress = ByteProgress(enabled: !json)
        let manifest = try await store.withLogbook(readOnly: true) { logbook in
            try await logbook.backup(to: to) { progress.update($0) }
        }
        progress.finish()
        if json { return print(try Output.jsonText(manifest)) }
        print("backed up \(store.path) to \(to): head \(manifest.head)")
        for file in manifest.files {
            print("  \(file.name): \(file.bytes) bytes, sha256 \(file.sha256.prefix(16))…  (\(file.holds))")
        }
        for model in manifest.readModels {
            print("  \(model.projection.rawValue) v\(model.codeVersion) at \(model.position): \(model.sha256.prefix(16))…")
        }
    }
}

/// `logbook restore --from DIR --path NEW`: checks a backup against its manifest, restores it
/// into a new store, and verifies it before it appears at `--path`.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a new store: checksums checked, head and digests compared with the manifest, verify run; a damaged backup is refused.")

    @Option(help: "The backup's directory (made by `logbook backup` or POST /admin/backup).")
    var from: String

    @Option(help: "Where to restore it: a directory that does not exist yet, or is empty.")
    var path: String

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let check = try await Logbook.restore(backup: from, to: path)
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
