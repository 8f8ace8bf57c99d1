import Crypto
import EventLog
import Foundation

/// The backup directory's own chores: making sure it starts empty, writing and reading the
/// manifest durably, and removing a backup that failed.
enum BackupDirectory {
    /// True if nothing is at `path`, or an empty directory.
    static func isAbsentOrEmpty(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return true }
        return isDirectory.boolValue && ((try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty ?? false)
    }

    /// Creates `path` unless it is an empty directory already; returns whether it was created.
    static func prepare(_ path: String) throws -> Bool {
        guard isAbsentOrEmpty(path) else { throw BackupError.destinationNotEmpty(path: path) }
        if FileManager.default.fileExists(atPath: path) { return false }
        try PrivateFiles.createDirectory(atPath: path)
        return true
    }

    /// Removes what a failed backup wrote: the directory if it made it, else its contents.
    static func remove(_ path: String, created: Bool) {
        if created {
            try? FileManager.default.removeItem(atPath: path)
        } else {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                try? FileManager.default.removeItem(atPath: path + "/" + name)
            }
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }()

    /// Writes the manifest under a temporary name, makes it durable, then renames it into place.
    static func writeManifest(_ manifest: BackupManifest, in directory: String) throws {
        let final = directory + "/" + BackupManifest.fileName
        let temporary = final + ".partial"
        var data = try encoder.encode(manifest)
        data.append(0x0A)
        guard PrivateFiles.createFile(atPath: temporary) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        try FileManager.default.moveItem(atPath: temporary, toPath: final)
        let directoryHandle = try FileHandle(forReadingFrom: URL(fileURLWithPath: directory))
        try? directoryHandle.synchronize()
        try? directoryHandle.close()
    }

    /// Checks `file` in the backup at `directory` against the manifest's size and SHA-256,
    /// reading it through once.
    static func check(_ file: BackupFile, in directory: String) throws {
        let path = directory + "/" + file.name
        guard let input = FileHandle(forReadingAtPath: path) else { throw BackupError.missingFile(name: file.name) }
        defer { try? input.close() }
        var hasher = SHA256()
        var total = 0
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            total += chunk.count
        }
        guard total == file.bytes else { throw BackupError.sizeMismatch(name: file.name, expected: file.bytes, actual: total) }
        let digest = hasher.finalize().hex
        guard digest == file.sha256 else { throw BackupError.checksumMismatch(name: file.name, expected: file.sha256, actual: digest) }
    }

    /// The manifest of the backup in `directory`.
    static func readManifest(in directory: String) throws -> BackupManifest {
        let path = directory + "/" + BackupManifest.fileName
        guard let data = FileManager.default.contents(atPath: path) else { throw BackupError.noManifest(path: directory) }
        let manifest: BackupManifest
        do {
            manifest = try JSONDecoder().decode(BackupManifest.self, from: data)
        } catch {
            throw BackupError.unreadableManifest(path: directory, reason: "\(error)")
        }
        guard manifest.format == BackupManifest.currentFormat else {
            throw BackupError.unreadableManifest(
                path: directory, reason: "format \(manifest.format); this build reads format \(BackupManifest.currentFormat)")
        }
        return manifest
    }
}
