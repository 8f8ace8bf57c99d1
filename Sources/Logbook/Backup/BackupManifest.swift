public import EventLog

/// What a backup holds and how to know it is sound: written as `manifest.json`, last, into the
/// backup's directory, so a backup without one is partial. Restore checks every file against
/// its size and SHA-256, and the restored store against the head and digests recorded here.
public struct BackupManifest: Sendable, Hashable, Codable {
    /// The manifest layout this build writes and reads.
    public static let currentFormat = 1
    /// The name of the manifest file in a backup directory.
    public static let fileName = "manifest.json"

    /// The manifest layout (``currentFormat`` when written by this build).
    public var format: Int
    /// The version of Logbook that made the backup.
    public var logbookVersion: String
    /// When the backup was made, by the Logbook's clock.
    public var createdAt: Timestamp
    /// The last log position in the copy: every event up to it is in the backup.
    public var head: UInt64
    /// Each read model in the copy: its checkpoint, code version and digest.
    public var readModels: [BackupReadModel]
    /// The copied files, each with its size and checksum.
    public var files: [BackupFile]
    /// Bytes the source environment's map used when the copy began (the copy is compacted); for
    /// a log in PostgreSQL, the bytes of the rows files.
    public var sourceBytes: Int
    /// What was backed up: `postgres` for a log in PostgreSQL (rows files), absent for an
    /// embedded Logbook (LMDB environments).
    public var source: String?
    /// What the rows of a log in PostgreSQL hold (absent for an embedded Logbook).
    public var rows: BackupRows?

    /// The entry for `name`, if the backup holds such a file.
    public func file(named name: String) -> BackupFile? { files.first { $0.name == name } }
}

/// The rows of a log in PostgreSQL a backup holds: counts, and a digest of every row (events'
/// positions, stream versions and checksums; checkpoints; kept answers) that the restored log
/// must have before it commits.
public struct BackupRows: Sendable, Hashable, Codable {
    public var events: UInt64
    public var checkpoints: Int
    public var keptAnswers: Int
    /// SHA-256 of the events' positions, stream versions and checksums, the checkpoints and the
    /// kept answers, in hex (the log computes it, in the snapshot and again in the load's
    /// transaction).
    public var rowsDigest: String
    /// Users' key rows (absent in backups of logs from before keys were kept in PostgreSQL).
    public var userKeys: Int?
    /// How the log keeps payloads (absent: plaintext, from before it was recorded).
    public var payloads: String?
}

/// One read model as it stood in a backup.
public struct BackupReadModel: Sendable, Hashable, Codable {
    public var projection: ReadModelKind
    public var codeVersion: Int
    /// Its checkpoint: the last position folded.
    public var position: UInt64
    /// SHA-256 of its canonical bytes, in hex (as ``Logbook/digests()`` reports it).
    public var sha256: String
}

/// One file of a backup.
public struct BackupFile: Sendable, Hashable, Codable {
    /// The file's name inside the backup directory.
    public var name: String
    public var bytes: Int
    /// SHA-256 of the file's bytes, in hex.
    public var sha256: String
    /// What it holds.
    public var holds: String
}

/// How far a backup has come: bytes copied of the file being copied.
public struct BackupProgress: Sendable, Hashable, Codable {
    /// The file being copied.
    public var file: String
    public var bytesCopied: Int
    /// The bytes the source uses (the compacted copy ends at or below it).
    public var sourceBytes: Int
}

/// What a restore checked and found.
public struct RestoreCheck: Sendable, Hashable, Codable {
    /// Where the store was restored to.
    public var path: String
    /// The restored log's head, equal to the manifest's.
    public var head: UInt64
    /// Files checked against their size and checksum.
    public var filesChecked: [String]
    /// Each read model rebuilt from the restored log and compared with the restored one (and
    /// with the manifest's digest).
    public var verification: [VerificationResult]
}
