/// Why a backup could not be made, or a backup was refused for restore. Nothing is left
/// behind: a failed backup removes what it wrote, a refused restore writes nothing.
public enum BackupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Backups copy an embedded Logbook (log and read models in one LMDB environment).
    case notEmbedded
    /// The destination of a backup, or of a restore, exists and is not an empty directory.
    case destinationNotEmpty(path: String)
    /// The backup directory has no manifest: it is not a backup, or one that did not finish.
    case noManifest(path: String)
    /// The manifest is not one this build can read.
    case unreadableManifest(path: String, reason: String)
    /// A file the manifest lists is missing.
    case missingFile(name: String)
    /// A file's size differs from the manifest's (truncated or grown).
    case sizeMismatch(name: String, expected: Int, actual: Int)
    /// A file's SHA-256 differs from the manifest's (bytes changed).
    case checksumMismatch(name: String, expected: String, actual: String)
    /// The restored store does not stand where the manifest says.
    case restoredStateDiffers(what: String, expected: String, actual: String)
    /// Read models rebuilt from the restored log differ from the restored ones.
    case verificationFailed(projections: [String])
    /// A rows file of a shared log's backup cannot be read at row `row` (0: its first line).
    case unreadableRows(file: String, row: Int, reason: String)
    /// The backup is of another kind of store than the restore is for (`embedded` or `postgres`).
    case wrongSource(backup: String, restore: String)
    /// A restored log failed its verification after it committed, and removing it failed too
    /// (something appended to it meanwhile): it is left in place, unverified.
    case restoredButNotRemoved(reason: String, cleanup: String)

    public var description: String {
        switch self {
        case .notEmbedded:
            "this Logbook's log is neither embedded nor one that reads snapshots (PostgreSQL): it cannot be backed up this way"
        case .destinationNotEmpty(let path): "\(path) exists and is not an empty directory"
        case .noManifest(let path):
            "\(path) holds no \(BackupManifest.fileName): not a backup, or a backup that did not finish (the manifest is written last)"
        case .unreadableManifest(let path, let reason): "the manifest in \(path) cannot be read: \(reason)"
        case .missingFile(let name): "the backup lacks \(name), which its manifest lists"
        case .sizeMismatch(let name, let expected, let actual):
            "\(name) is \(actual) bytes, the manifest says \(expected): the backup is truncated or damaged"
        case .checksumMismatch(let name, let expected, let actual):
            "\(name) has SHA-256 \(actual), the manifest says \(expected): the backup is damaged"
        case .restoredStateDiffers(let what, let expected, let actual):
            "the restored store's \(what) is \(actual), the manifest says \(expected)"
        case .verificationFailed(let projections):
            "read models rebuilt from the restored log differ from the restored ones: \(projections.joined(separator: ", "))"
        case .unreadableRows(let file, let row, let reason):
            "\(file) cannot be read at row \(row): \(reason)"
        case .restoredButNotRemoved(let reason, let cleanup):
            "the restored log failed its verification (\(reason)) and could not be removed (\(cleanup)): it is in place, unverified; "
                + "empty the target and restore again, with no server following it meanwhile"
        case .wrongSource(let backup, let restore):
            "the backup is of \(backup == "postgres" ? "a log in PostgreSQL" : "an embedded Logbook"); "
                + "restore it with \(backup == "postgres" ? "--to-postgres" : "--path")\(restore == backup ? "" : ", not as \(restore)")"
        }
    }
}
