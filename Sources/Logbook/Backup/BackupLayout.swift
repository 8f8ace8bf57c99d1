import EventLog
import Crypto
import Foundation
import LMDB

/// The files a backup holds and where each lives in a store: the log's environment (log and
/// read models) and the idempotency answers' environment, each copied as one compacted
/// `data.mdb` under a name of its own.
struct BackupLayout: Sendable, Hashable {
    /// The file's name in the backup directory.
    let name: String
    /// The environment's directory, relative to the store's.
    let directory: String
    /// What it holds, for the manifest's reader.
    let holds: String

    static let log = BackupLayout(name: "data.mdb", directory: "", holds: "the log and every read model (LMDB, compacted)")
    static let requestKeys = BackupLayout(
        name: "request-keys.mdb", directory: "request-keys", holds: "answers to Idempotency-Key requests (LMDB, compacted)")
    static let keys = BackupLayout(
        name: "keys.mdb", directory: "keys",
        holds: "each user's payload key (LMDB, compacted): a file of its own, to keep apart from the rest and age out")
    static let all = [log, requestKeys, keys]

    static func named(_ name: String) -> BackupLayout? { all.first { $0.name == name } }

    /// Where the file goes in a store at `store`.
    func storeFile(in store: String) -> String {
        directory.isEmpty ? store + "/data.mdb" : store + "/" + directory + "/data.mdb"
    }

    /// Copies `environment` (a consistent, compacted snapshot) into the backup directory,
    /// hashing the bytes as they pass; `cancelled` is asked between chunks.
    func copy(
        _ environment: Environment, into backup: String, sourceBytes: Int, cancelled: @escaping @Sendable () -> Bool,
        progress: @Sendable (BackupProgress) -> Void
    ) throws -> BackupFile {
        var hasher = SHA256()
        var copied = 0
        progress(BackupProgress(file: name, bytesCopied: 0, sourceBytes: sourceBytes))
        let bytes = try environment.copy(toFile: backup + "/" + name, compact: true) { chunk in
            if cancelled() { throw CancellationError() }
            hasher.update(data: chunk.copiedBytes())
            copied += chunk.count
            progress(BackupProgress(file: name, bytesCopied: copied, sourceBytes: sourceBytes))
        }
        return BackupFile(name: name, bytes: bytes, sha256: hasher.finalize().hex, holds: holds)
    }

    /// Copies this file from the backup into a store being restored at `store`, checking its
    /// size first and its SHA-256 as it passes; the copy is made durable.
    func restore(_ file: BackupFile, from backup: String, into store: String) throws {
        let source = backup + "/" + name
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: source) else { throw BackupError.missingFile(name: name) }
        let size = (attributes[.size] as? Int) ?? -1
        guard size == file.bytes else { throw BackupError.sizeMismatch(name: name, expected: file.bytes, actual: size) }
        let target = storeFile(in: store)
        try PrivateFiles.createDirectory(atPath: (target as NSString).deletingLastPathComponent)
        // Every restored file holds user data: its owner's alone, as the store keeps it.
        guard PrivateFiles.createFile(atPath: target) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target])
        }
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: source))
        defer { try? input.close() }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: target))
        defer { try? output.close() }
        var hasher = SHA256()
        var total = 0
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            try output.write(contentsOf: chunk)
            total += chunk.count
        }
        guard total == file.bytes else { throw BackupError.sizeMismatch(name: name, expected: file.bytes, actual: total) }
        let digest = hasher.finalize().hex
        guard digest == file.sha256 else { throw BackupError.checksumMismatch(name: name, expected: file.sha256, actual: digest) }
        try output.synchronize()
    }
}
