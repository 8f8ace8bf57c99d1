// The JSON schemas of the admin answers: read models' status, caches, storage, jobs (rebuild, verify, backup) and their results.
package import EventLog
package import Logbook

/// A SHA-256 digest in lower-case hex.
private func hexSHA256(_ description: String) -> JSONSchema {
    .string(description, pattern: "^[0-9a-f]{64}$")
}

extension ReadModelStatus: DocumentedSchema {
    /// The component's name in the API document, kept from before the type's rename (a client
    /// generated from the document keeps its type names).
    package static var schemaName: String { "ProjectionStatus" }

    package static var schema: JSONSchema {
        .object("Where one read model stands against the log", required: [
            "projection": .enumeration("The read model", ReadModelKind.self),
            "codeVersion": .integer("The read model's code version (a change makes it rebuild on open)", minimum: 1),
            "position": .count("The last log position folded into the read model (0 before the first event)"),
            "head": .count("The log's head when the status was read"),
            "lag": .count("Events in the log the read model has not folded yet"),
            "lagSeconds": .number(
                "Seconds since the oldest event the read model has not folded was recorded, by the Logbook's clock (0 when nothing waits)"),
            "rebuilding": .boolean("A rebuild is under way (or was interrupted and will resume)"),
        ], optional: [
            "upgrade": .reference(ReadModelUpgrade.self, "The next version an upgrade builds beside this one, absent when none is being built"),
        ])
    }
}

extension ReadModelUpgrade: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("How far the next version of a read model, built beside the live one, has come; it switches in once caught up", required: [
            "codeVersion": .integer("The code version being built", minimum: 1),
            "position": .count("The last log position folded into the next version"),
            "lag": .count("Events it has still to fold to reach the log's head"),
            "running": .boolean("A task builds it now (false: cut off; it resumes when the store opens again)"),
        ])
    }
}

extension CacheStatus: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One query cache's counters", required: [
            "name": .string("The cache: the family of queries it answers, e.g. stats, goals, places, activities, timeline, collectibles, records"),
            "entries": .count("Answers held"),
            "bytes": .count("Approximate bytes the answers hold"),
            "hits": .count("Queries answered from the cache"),
            "misses": .count("Queries not found in the cache"),
            "computed": .count("Answers computed (fewer than misses when identical queries shared one)"),
            "lastInvalidatingPosition": .count("The position of the last commit that removed entries from this cache (0: none yet)"),
        ])
    }
}

extension LogStorageInfo: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Sizes and counters of the log's storage; fields a backend has no notion of are left out", required: [
            "backend": .enumeration("Which backend stores the log", ["lmdb", "postgres"]),
            "headPosition": .count("The log's last position (0 when empty)"),
            "usedBytes": .count("Bytes in use: the map's extent for LMDB, the tables' size for a database server"),
            "databases": .array("Each table of the log (an LMDB database, a PostgreSQL table)", of: .reference(LogStorageInfo.DatabaseInfo.self)),
        ], optional: [
            "mapSize": .count("The size of LMDB's memory map, in bytes (LMDB only)"),
            "readersInUse": .count("LMDB reader slots in use (LMDB only)"),
            "maxReaders": .count("LMDB reader slots available (LMDB only)"),
        ])
    }
}

extension LogStorageInfo.DatabaseInfo: DocumentedSchema {
    package static var schemaName: String { "LogDatabaseInfo" }

    package static var schema: JSONSchema {
        .object("One table of the log (an LMDB database, a PostgreSQL table)", required: [
            "name": .string("The table's name"),
            "entries": .count("Entries (rows) it holds"),
            "bytes": .count("Bytes it uses"),
        ])
    }
}

extension AdminJob: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One administrative job (a rebuild, a verification, a backup) and how it stands", required: [
            "id": .string(
                "The job's id, a lower-case UUID", format: "uuid",
                pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"),
            "kind": .enumeration("What the job does", AdminJob.Kind.self),
            "state": .enumeration("Where the job is in its life", AdminJob.State.self),
            "projections": .array("The read models it works on, in order", of: .enumeration("A read model", ReadModelKind.self)),
            "startedAt": .dateTime("When the job started, by the Logbook's clock"),
        ], optional: [
            "progress": .reference(RebuildProgress.self, "The last progress report of a rebuild or verification (absent before the first)"),
            "backupProgress": .reference(BackupProgress.self, "The last progress report of a backup (absent before the first)"),
            "finishedAt": .dateTime("When the job ended (absent while it runs)"),
            "digests": .array("A finished rebuild's new digests of the rebuilt read models", of: .reference(ReadModelDigest.self)),
            "verification": .array("A finished verification's result per read model", of: .reference(VerificationResult.self)),
            "backup": .reference(FinishedBackup.self, "A finished backup's directory and manifest"),
            "error": .string("Why the job failed"),
        ])
    }
}

extension RebuildProgress: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("How far a rebuild (or a verification's rebuild) has come", required: [
            "projections": .array("The read models being rebuilt, in order", of: .enumeration("A read model", ReadModelKind.self)),
            "position": .count("The last log position folded"),
            "head": .count("The log's head when the rebuild started (it may grow meanwhile)"),
            "eventsFolded": .count("Events folded so far"),
            "finished": .boolean("The rebuild has caught up with the log"),
        ])
    }
}

extension BackupProgress: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("How far a backup has come: bytes copied of the file being copied", required: [
            "file": .string("The file being copied, e.g. data.mdb"),
            "bytesCopied": .count("Bytes of it copied so far"),
            "sourceBytes": .count("Bytes the source uses (the compacted copy ends at or below it)"),
        ])
    }
}

extension ReadModelDigest: DocumentedSchema {
    /// The component's name in the API document, kept from before the type's rename.
    package static var schemaName: String { "ProjectionDigest" }

    package static var schema: JSONSchema {
        .object("The digest of one read model at one position", required: [
            "projection": .enumeration("The read model", ReadModelKind.self),
            "position": .count("Its checkpoint: the last log position folded"),
            "sha256": hexSHA256("SHA-256 of the read model's canonical bytes, in hex"),
            "rebuilding": .boolean("A rebuild owns the read model (the digest is of a partial state)"),
        ])
    }
}

extension VerificationResult: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("What a verification found for one read model", required: [
            "projection": .enumeration("The read model", ReadModelKind.self),
            "position": .count("The log position both digests are at"),
            "live": hexSHA256("SHA-256 of the live read model's canonical bytes, in hex"),
            "rebuilt": hexSHA256("SHA-256 of the read model rebuilt from the log into a scratch store, in hex"),
            "matches": .boolean("The rebuilt digest equals the live one"),
        ])
    }
}

extension FinishedBackup: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Where a finished backup went, and what it holds", required: [
            "directory": .string("The backup's directory on the server"),
            "manifest": .reference(BackupManifest.self, "The backup's manifest (its manifest.json)"),
        ])
    }
}

extension BackupManifest: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("What a backup holds and how to know it is sound", required: [
            "format": .integer("The manifest layout", minimum: 1),
            "logbookVersion": .string("The version of Logbook that made the backup"),
            "createdAt": .dateTime("When the backup was made, by the Logbook's clock"),
            "head": .count("The last log position in the copy: every event up to it is in the backup"),
            "readModels": .array("Each read model in the copy", of: .reference(BackupReadModel.self)),
            "files": .array("The copied files", of: .reference(BackupFile.self)),
            "sourceBytes": .count("Bytes the source environment's map used when the copy began (the copy is compacted); for a log in PostgreSQL, the rows files' bytes"),
        ], optional: [
            "source": .string("postgres for a backup of a log in PostgreSQL (rows files); absent for an embedded Logbook"),
            "rows": .reference(BackupRows.self, "What the rows of a log in PostgreSQL hold (absent for an embedded Logbook)"),
        ])
    }
}

extension BackupRows: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The rows of a log in PostgreSQL a backup holds", required: [
            "events": .count("Events, positions 1 through the head"),
            "checkpoints": .count("Checkpoints (webhooks' records among them)"),
            "keptAnswers": .count("Answers to Idempotency-Key requests"),
            "rowsDigest": hexSHA256("SHA-256 of the events' positions, stream versions and checksums, the checkpoints and the kept answers, in hex"),
        ])
    }
}

extension BackupReadModel: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One read model as it stood in a backup", required: [
            "projection": .enumeration("The read model", ReadModelKind.self),
            "codeVersion": .integer("Its code version", minimum: 1),
            "position": .count("Its checkpoint: the last log position folded"),
            "sha256": hexSHA256("SHA-256 of its canonical bytes, in hex"),
        ])
    }
}

extension BackupFile: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One file of a backup", required: [
            "name": .string("The file's name inside the backup directory, e.g. data.mdb"),
            "bytes": .count("The file's size, in bytes"),
            "sha256": hexSHA256("SHA-256 of the file's bytes, in hex"),
            "holds": .string("What the file holds, for people"),
        ])
    }
}

extension VerifyReport: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("What a verification found: every read model rebuilt from the log and compared with the live one", required: [
            "allMatch": .boolean("Every rebuilt digest equals the live one"),
            "projections": .array("The result per read model", of: .reference(VerificationResult.self)),
        ])
    }
}
