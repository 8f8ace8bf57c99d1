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
