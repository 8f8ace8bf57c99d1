public import EventLog
import Crypto
import Foundation

extension Logbook {
    /// The `source` a manifest names for a backup of a log in PostgreSQL.
    static let postgresSource = "postgres"
    /// Events read from the snapshot per query (a page holds at most this many times the log's
    /// largest event).
    static let rowsPerPage = 512
    /// Bytes of events a restore inserts per statement, at most (one event alone may pass it).
    static let bytesPerInsert = 16 << 20

    /// Backs a shared log (PostgreSQL) up into `directory` (created, or an existing empty
    /// directory) while servers append to it: from one snapshot, every event through its head,
    /// every checkpoint, every kept answer and every user's key (or tombstone), each kind into a
    /// rows file of its own, hashed as written; then the read models folded from the log through
    /// that head (whose events no append can change), their payloads opened with the snapshot's
    /// keys, for their digests; then `manifest.json`, last. A backup that fails or
    /// is cancelled removes what it wrote.
    public static func backup(
        sharedLog log: any SnapshotLog, to directory: String, configuration: LogbookConfiguration = .init(),
        progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }
    ) async throws -> BackupManifest {
        let created = try BackupDirectory.prepare(directory)
        do {
            let createdAt = configuration.clock.now()
            let (head, files, rows, keys) = try await log.readSnapshot { reader in
                try await Self.writeRows(of: reader, into: directory, progress: progress)
            }
            try Task.checkCancellation()
            let kinds = Set(ReadModelKind.allCases)
            let format = try payloadFormat(rows.payloads)
            // The keys as the snapshot held them: a user erased since still folds as then.
            let payloads = format.isEncrypted ? try PayloadKeys(shared: SharedUserKeys(format: format, fixed: keys)) : .plaintext
            let digests = try await scratchDigests(
                of: log, payloads: payloads, kinds: kinds, through: head.rawValue, configuration: configuration, progress: { _ in })
            let readModels = kinds.sorted().map { kind in
                BackupReadModel(projection: kind, codeVersion: kind.codeVersion, position: head.rawValue, sha256: digests[kind] ?? "")
            }
            let manifest = BackupManifest(
                format: BackupManifest.currentFormat, logbookVersion: Self.version, createdAt: createdAt, head: head.rawValue,
                readModels: readModels, files: files, sourceBytes: files.reduce(0) { $0 + $1.bytes }, source: postgresSource, rows: rows)
            try BackupDirectory.writeManifest(manifest, in: directory)
            return manifest
        } catch {
            BackupDirectory.remove(directory, created: created)
            throw error
        }
    }

    /// Restores the backup of a shared log in `backup` into `log`, which must be empty, and
    /// proves it before it counts: the manifest is read and every file checked against its size
    /// and SHA-256 before anything is written; then, in one transaction, every row is inserted,
    /// the head set, and the count and digest of the rows read back must equal the manifest's
    /// (else the transaction rolls back); after it commits, every read model is folded from the
    /// restored log and must have the manifest's digest, or the restored rows are removed again.
    /// `target` names the log in the report (a URL without its password, say).
    public static func restore(
        backup: String, toSharedLog log: any SnapshotLog, target: String, configuration: LogbookConfiguration = .init()
    ) async throws -> RestoreCheck {
        let manifest = try BackupDirectory.readManifest(in: backup)
        guard manifest.source == postgresSource, let rows = manifest.rows else {
            throw BackupError.wrongSource(backup: manifest.source ?? "embedded", restore: postgresSource)
        }
        // A backup of a log from before keys were kept in PostgreSQL has no keys' file.
        let kinds = RowsFile.allCases.filter { $0 != .userKeys || rows.userKeys != nil }
        let format = try payloadFormat(rows.payloads)
        let files = try kinds.map { kind in
            guard let file = manifest.file(named: kind.rawValue) else {
                throw BackupError.unreadableManifest(path: backup, reason: "it lists no \(kind.rawValue)")
            }
            return file
        }
        try await BlockingWork.onThread {
            for file in files { try BackupDirectory.check(file, in: backup) }
        }
        let checked = Dictionary(uniqueKeysWithValues: zip(kinds, files))
        let head = Position(manifest.head)
        _ = try await log.loadIntoEmptyLog { loader in
            try await Self.loadRows(from: backup, checkedAgainst: checked, into: loader)
            try await loader.recordPayloadFormat(format.rawValue)
            let loaded = try await loader.finish(head: head)
            let expected = LoadedLog(
                head: head, events: rows.events, checkpoints: rows.checkpoints, keptAnswers: rows.keptAnswers, rowsDigest: rows.rowsDigest,
                userKeys: rows.userKeys ?? 0)
            guard loaded == expected else {
                throw BackupError.restoredStateDiffers(what: "rows", expected: "\(expected)", actual: "\(loaded)")
            }
            return loaded
        }
        do {
            let current = manifest.readModels.filter { $0.codeVersion == $0.projection.codeVersion }
            var payloads = PayloadKeys.plaintext
            if format.isEncrypted {
                guard let shared = log as? any SharedLog else { throw BackupError.wrongSource(backup: "encrypted \(postgresSource)", restore: "this log") }
                payloads = try PayloadKeys(shared: SharedUserKeys(log: shared, format: format))
            }
            let rebuilt = try await scratchDigests(
                of: log, payloads: payloads, kinds: Set(current.map(\.projection)), through: manifest.head, configuration: configuration,
                progress: { _ in })
            let verification = current.map { recorded in
                VerificationResult(projection: recorded.projection, position: manifest.head, live: recorded.sha256, rebuilt: rebuilt[recorded.projection] ?? "")
            }
            let failed = verification.filter { !$0.matches }.map(\.projection.rawValue)
            guard failed.isEmpty else { throw BackupError.verificationFailed(projections: failed) }
            return RestoreCheck(path: target, head: manifest.head, filesChecked: files.map(\.name), verification: verification)
        } catch {
            do {
                try await log.discardLoadedLog(head: head)
            } catch let discard {
                throw BackupError.restoredButNotRemoved(reason: "\(error)", cleanup: "\(discard)")
            }
            throw error
        }
    }

    /// How a backup's log keeps payloads (absent: plaintext, from before it was recorded).
    private static func payloadFormat(_ recorded: String?) throws -> PayloadFormat {
        guard let recorded else { return .plaintext }
        guard let format = PayloadFormat(rawValue: recorded) else {
            throw BackupError.unreadableManifest(path: "manifest.json", reason: "payloads are kept as \"\(recorded)\", which this build does not know")
        }
        return format
    }

    /// Writes the snapshot's rows into the backup's rows files; answers its head, the files'
    /// entries, what the rows hold and the users' keys.
    private static func writeRows(
        of reader: any LogSnapshotReader, into directory: String, progress: @Sendable (BackupProgress) -> Void
    ) async throws -> (Position, [BackupFile], BackupRows, [UserKeyRow]) {
        var events = try RowsFileWriter(.events, in: directory)
        var after = Position.start
        while after < reader.head {
            try Task.checkCancellation()
            let page = try await reader.events(after: after, limit: rowsPerPage)
            guard let last = page.last else { break }
            for event in page { try events.write(event) }
            after = last.position
            progress(BackupProgress(file: RowsFile.events.rawValue, bytesCopied: Int(after.rawValue), sourceBytes: Int(reader.head.rawValue)))
        }
        guard after == reader.head, events.rows == Int(reader.head.rawValue) else {
            throw BackupError.restoredStateDiffers(what: "snapshot", expected: "events 1 through \(reader.head)", actual: "\(events.rows) events")
        }
        var checkpoints = try RowsFileWriter(.checkpoints, in: directory)
        var name = ""
        while true {
            try Task.checkCancellation()
            let page = try await reader.checkpoints(after: name, limit: rowsPerPage)
            guard let last = page.last else { break }
            for checkpoint in page { try checkpoints.write(checkpoint) }
            name = last.name
        }
        var answers = try RowsFileWriter(.keptAnswers, in: directory)
        var key: [UInt8] = []
        while true {
            try Task.checkCancellation()
            let page = try await reader.keptAnswers(after: key, limit: 64)
            guard let last = page.last else { break }
            for answer in page { try answers.write(answer) }
            key = last.key
        }
        var keyRows = try RowsFileWriter(.userKeys, in: directory)
        var keys: [UserKeyRow] = []
        var user = ""
        while true {
            try Task.checkCancellation()
            let page = try await reader.userKeys(after: user, limit: rowsPerPage)
            guard let last = page.last else { break }
            for key in page { try keyRows.write(key) }
            keys += page
            user = last.user
        }
        let rows = BackupRows(
            events: UInt64(events.rows), checkpoints: checkpoints.rows, keptAnswers: answers.rows, rowsDigest: try await reader.rowsDigest(),
            userKeys: keyRows.rows, payloads: try await reader.payloadFormat() ?? PayloadFormat.plaintext.rawValue)
        let files = [try await events.finish(), try await checkpoints.finish(), try await answers.finish(), try await keyRows.finish()]
        return (reader.head, files, rows, keys)
    }

    /// Reads the rows files and inserts their rows through `loader`, at most ``bytesPerInsert``
    /// of events at a time; each file, as read, must have the size and SHA-256 in `checked`.
    private static func loadRows(
        from backup: String, checkedAgainst checked: [RowsFile: BackupFile], into loader: any LogLoader
    ) async throws {
        var events = try RowsFileReader(.events, in: backup)
        defer { events.close() }
        var page: [RecordedEvent] = []
        var pageBytes = 0
        while let event = try events.nextEvent() {
            page.append(event)
            pageBytes += event.payload.count + event.metadata.count
            if page.count == rowsPerPage * 4 || pageBytes >= bytesPerInsert {
                try await loader.insert(page)
                page.removeAll(keepingCapacity: true)
                pageBytes = 0
            }
        }
        try await loader.insert(page)
        try events.checkAtEnd(against: checked[.events]!)
        var checkpoints = try RowsFileReader(.checkpoints, in: backup)
        defer { checkpoints.close() }
        var stored: [Checkpoint] = []
        while let checkpoint = try checkpoints.nextCheckpoint() { stored.append(checkpoint) }
        try await loader.insert(stored)
        try checkpoints.checkAtEnd(against: checked[.checkpoints]!)
        var answers = try RowsFileReader(.keptAnswers, in: backup)
        defer { answers.close() }
        while let answer = try answers.nextAnswer() { try await loader.insert([answer]) }
        try answers.checkAtEnd(against: checked[.keptAnswers]!)
        guard let keysFile = checked[.userKeys] else { return }
        var keys = try RowsFileReader(.userKeys, in: backup)
        defer { keys.close() }
        var keyPage: [UserKeyRow] = []
        while let key = try keys.nextUserKey() {
            keyPage.append(key)
            if keyPage.count == rowsPerPage * 4 {
                try await loader.insert(keyPage)
                keyPage.removeAll(keepingCapacity: true)
            }
        }
        try await loader.insert(keyPage)
        try keys.checkAtEnd(against: keysFile)
    }
}
