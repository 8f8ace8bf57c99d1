import Crypto
import DemoData
import EventLog
import EventLogPostgres
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Backup and verified restore of a log in PostgreSQL, on real databases: a backup taken while
/// eight writers append holds every write acknowledged before it began, and restores into an
/// empty database with the same bytes and digests; a damaged, partial or tampered backup, or a
/// target that holds a log, is refused and the target is left as it was.
@Suite("Backup and restore of a log in PostgreSQL", .serialized, .timeLimit(.minutes(10)))
struct PostgresBackupTests {
    static let users = (0..<8).map { "w\($0)" }

    /// One step sample per call, each at its own minute, so every call appends one event.
    func steps(_ logbook: Logbook, _ user: String, _ index: Int) async throws -> CommandResult {
        let start = Timestamp(microsecondsSinceEpoch: 1_795_000_000_000_000 + Int64(index) * 60_000_000)
        return try await logbook.execute(.recordSteps(user: user, StepsRecorded(samples: [
            StepSample(start: start, end: Timestamp(microsecondsSinceEpoch: start.instant + 30_000_000), count: 10 + index % 1_000, source: "phone"),
        ])))
    }

    /// A server (a Logbook following the log at `url`) with its read models under `root`.
    func withServer<R>(_ url: String, _ root: String, _ body: (Logbook) async throws -> R) async throws -> R {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .relaxed
        let logbook = try await Logbook.open(following: try await connect(url), readModelsAt: root, configuration: configuration)
        do {
            let result = try await body(logbook)
            await logbook.close()
            return result
        } catch {
            await logbook.close()
            throw error
        }
    }

    /// What an empty database's log holds after a refused restore: head, events, checkpoints, answers.
    func contents(_ url: String) async throws -> String {
        try await TestPostgres.psql(url, """
            SELECT (SELECT position FROM logbook.head) || ' ' || (SELECT count(*) FROM logbook.events) || ' ' || \
            (SELECT count(*) FROM logbook.checkpoints) || ' ' || (SELECT count(*) FROM logbook.request_keys) || ' ' || \
            (SELECT count(*) FROM logbook.user_keys)
            """).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a backup during 8 concurrent writers restores every write acknowledged before it into an empty database, verified, digests as in the manifest")
    func backupUnderConcurrentWriters() async throws {
        let source = try await TestPostgres.freshDatabase()
        let target = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let backup = root + "/backup"
            let answerKey = [UInt8](repeating: 7, count: 32)
            let answer = KeptAnswer(keptAt: 1_795_000_000_000_000, fingerprint: [1, 2, 3], status: 201, entityTag: "\"v1\"", body: Array("{\"ok\":true}".utf8))
            let (manifest, written, originals) = try await withServer(source, root + "/a") { logbook in
                for user in Self.users {
                    try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "Europe/Berlin")))
                }
                let shared = try #require(logbook.log as? PostgresEventStore)
                // Names whose bytewise order is not a collation's: paged and digested as bytes.
                for name in ["consumer-é", "Zeta", "alpha", "consumer-e"] {
                    try await shared.storeCheckpoint(Checkpoint(name: name, position: Position(3), data: Array(name.utf8)))
                }
                try await shared.keepAnswer(answer, under: answerKey, expiringBefore: 0)
                let acknowledged = Acknowledged()
                let (written, started) = (acknowledged, acknowledged.backupStarted)
                let manifest = try await withThrowingTaskGroup(of: BackupManifest?.self) { group in
                    for (number, user) in Self.users.enumerated() {
                        group.addTask {
                            for index in 0..<120 {
                                let before = !started.isSet
                                let result = try await steps(logbook, user, number * 1_000 + index)
                                written.entries.withLock { $0.append((result.lastPosition, before)) }
                            }
                            return nil
                        }
                    }
                    group.addTask {
                        while written.entries.withLock({ $0.count }) < 200 { try await Task.sleep(for: .milliseconds(2)) }
                        let acknowledged = written.entries.withLock { $0.map(\.position).max() ?? 0 }
                        started.set()
                        // Through the Logbook's own `backup(to:)`, as POST /admin/backup calls it.
                        let manifest = try await logbook.backup(to: backup)
                        #expect(manifest.head >= acknowledged, "the backup's head is behind a write acknowledged before it began")
                        return manifest
                    }
                    var manifest: BackupManifest?
                    for try await result in group { if let result { manifest = result } }
                    return try #require(manifest)
                }
                let all = written.entries.withLock { $0 }
                var originals: [UInt64: RecordedEvent] = [:]
                for position in 1...manifest.head { originals[position] = try await logbook.log.event(at: Position(position)) }
                return (manifest, all, originals)
            }
            #expect(written.count == 8 * 120)
            #expect(manifest.head < (written.map(\.position).max() ?? 0), "the writers did not go on during the backup")
            #expect(manifest.source == "postgres")
            #expect(manifest.rows?.events == manifest.head && manifest.rows?.checkpoints == 4 && manifest.rows?.keptAnswers == 1)
            // Payloads are sealed with each user's key, and the keys are backed up with them.
            #expect(manifest.rows?.payloads == PayloadFormat.current.rawValue && manifest.rows?.userKeys == Self.users.count)
            #expect(Set(manifest.files.map(\.name)) == ["events.rows", "checkpoints.rows", "request-keys.rows", "user-keys.rows"])
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: backup))
                == ["events.rows", "checkpoints.rows", "request-keys.rows", "user-keys.rows", "manifest.json"])
            #expect(manifest.readModels.count == ReadModelKind.allCases.count && manifest.readModels.allSatisfy { $0.position == manifest.head })

            let log = try await connect(target)
            let check = try await Logbook.restore(backup: backup, toSharedLog: log, target: "target")
            await log.close()
            #expect(check.head == manifest.head)
            #expect(check.verification.count == ReadModelKind.allCases.count && check.verification.allSatisfy(\.matches))
            try await withServer(target, root + "/b") { restored in
                #expect(try await restored.log.headPosition().rawValue == manifest.head)
                // Every event through the head, byte for byte: positions, versions, ids, times, bytes.
                for position in 1...manifest.head {
                    let copy = try await restored.log.event(at: Position(position))
                    #expect(copy != nil && copy == originals[position], "position \(position) differs after restore")
                }
                let digests = try restored.digests().map { "\($0.projection.rawValue) \($0.sha256)" }
                #expect(digests == manifest.readModels.map { "\($0.projection.rawValue) \($0.sha256)" })
                let shared = try #require(restored.log as? PostgresEventStore)
                for name in ["consumer-é", "Zeta", "alpha", "consumer-e"] {
                    #expect(try await shared.checkpoint(named: name) == Checkpoint(name: name, position: Position(3), data: Array(name.utf8)))
                }
                #expect(try await shared.keptAnswer(answerKey, keptSince: 0) == answer)
                // The restored log goes on: a new write lands after the head.
                let next = try await steps(restored, "w0", 99_999)
                #expect(next.lastPosition == manifest.head + 1)
            }
            #expect(try await contents(source) != "0 0 0 0 0")
        }
    }

    @Test("a backup's connection never makes a log: a database without one, or with another schema version, is refused and left as it was")
    func backupConnectionNeedsALog() async throws {
        let empty = try await TestPostgres.freshDatabase()
        let readOnly: (inout PostgresLogConfiguration) -> Void = { $0.schema = .requireCurrent }
        do {
            let store = try await connect(empty, readOnly)
            await store.close()
            Issue.record("a database without a log was accepted")
        } catch let error as EventStoreError {
            #expect(error.code == .storage && error.reason.contains("no Logbook log"), "\(error)")
        }
        #expect(try await TestPostgres.psql(empty, "SELECT to_regnamespace('logbook') IS NULL").contains("t"))

        // This build's schema is accepted; a schema one version behind is refused, not migrated.
        let made = try await connect(empty)
        await made.close()
        let reader = try await connect(empty, readOnly)
        await reader.close()
        _ = try await TestPostgres.psql(empty, "DELETE FROM logbook.migrations WHERE version = (SELECT max(version) FROM logbook.migrations)")
        do {
            let store = try await connect(empty, readOnly)
            await store.close()
            Issue.record("an older schema was accepted")
        } catch let error as EventStoreError {
            #expect(error.reason.contains("log schema is version"), "\(error)")
        }
    }

    @Test("damaged, partial and tampered backups, and a target that holds a log, are refused; the target is left as it was")
    func damagedBackupsRefused() async throws {
        let source = try await TestPostgres.freshDatabase()
        let target = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let backup = root + "/backup"
            let manifest = try await withServer(source, root + "/a") { logbook in
                for user in Self.users.prefix(3) {
                    try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "Europe/Berlin")))
                    for index in 0..<20 { _ = try await steps(logbook, user, index) }
                }
                let shared = try #require(logbook.log as? PostgresEventStore)
                try await shared.storeCheckpoint(Checkpoint(name: "consumer", position: Position(60), data: Array("position 60".utf8)))
                let answer = KeptAnswer(keptAt: 1_795_000_000_000_000, fingerprint: [9], status: 200, entityTag: nil, body: Array("{}".utf8))
                try await shared.keepAnswer(answer, under: [UInt8](repeating: 1, count: 32), expiringBefore: 0)
                return try await logbook.backup(to: backup)
            }
            #expect(manifest.head == 63)
            let log = try await connect(target)
            do {
                try await refusals(of: manifest, in: backup, root: root, source: source, target: target, log: log)
                await log.close()
            } catch {
                await log.close()
                throw error
            }
        }
    }

    /// Each kind of damage, restored into `log` (the empty database at `target`).
    func refusals(of manifest: BackupManifest, in backup: String, root: String, source: String, target: String, log: PostgresEventStore) async throws {

            /// Restores a copy of the backup changed by `damage`; expects a `BackupError` `matching`,
            /// and the target still empty.
            func refused(_ what: String, _ damage: (String) throws -> Void, matching: (any Error) -> Bool) async throws {
                let copy = root + "/damaged-\(UUID().uuidString)"
                try FileManager.default.copyItem(atPath: backup, toPath: copy)
                try damage(copy)
                do {
                    _ = try await Logbook.restore(backup: copy, toSharedLog: log, target: "target")
                    Issue.record("\(what): the restore succeeded")
                } catch {
                    #expect(matching(error), "\(what): \(error)")
                }
                #expect(try await contents(target) == "0 0 0 0 0", "\(what) left something in the target")
            }
            func flip(_ file: String, at offset: Int) -> (String) throws -> Void {
                { directory in
                    var bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
                    bytes[offset] ^= 0x10
                    try bytes.write(to: URL(fileURLWithPath: directory + "/" + file))
                }
            }
            /// Rewrites the manifest through `change` (a forged one: it agrees with damaged files).
            func forge(_ directory: String, _ change: (inout [String: Any]) throws -> Void) throws {
                let path = directory + "/manifest.json"
                var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
                try change(&json)
                try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
            }
            /// A rows file changed by `damage`, with a manifest forged to list its new size and SHA-256.
            func rewritten(_ file: String = "events.rows", _ damage: @escaping (inout Data) -> Void) -> (String) throws -> Void {
                { directory in
                    let url = URL(fileURLWithPath: directory + "/" + file)
                    var bytes = try Data(contentsOf: url)
                    damage(&bytes)
                    try bytes.write(to: url)
                    try forge(directory) { json in
                        var files = try #require(json["files"] as? [[String: Any]])
                        for index in files.indices where files[index]["name"] as? String == file {
                            files[index]["bytes"] = bytes.count
                            files[index]["sha256"] = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
                        }
                        json["files"] = files
                    }
                }
            }

            let eventsBytes = try #require(manifest.file(named: "events.rows")).bytes
            for offset in [0, 40, eventsBytes / 2, eventsBytes - 1] {
                try await refused("a bit flipped at \(offset) of events.rows", flip("events.rows", at: offset)) {
                    if case .checksumMismatch(name: "events.rows", _, _)? = $0 as? BackupError { true } else { false }
                }
            }
            try await refused("a bit flipped in request-keys.rows", flip("request-keys.rows", at: 20)) {
                if case .checksumMismatch(name: "request-keys.rows", _, _)? = $0 as? BackupError { true } else { false }
            }
            try await refused("events.rows truncated", { directory in
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/events.rows"))
                try handle.truncate(atOffset: UInt64(eventsBytes - 100))
                try handle.close()
            }) { if case .sizeMismatch(name: "events.rows", _, _)? = $0 as? BackupError { true } else { false } }
            try await refused("no manifest (a backup that did not finish)", { try FileManager.default.removeItem(atPath: $0 + "/manifest.json") }) {
                if case .noManifest? = $0 as? BackupError { true } else { false }
            }
            try await refused("checkpoints.rows missing", { try FileManager.default.removeItem(atPath: $0 + "/checkpoints.rows") }) {
                if case .missingFile(name: "checkpoints.rows")? = $0 as? BackupError { true } else { false }
            }
            // Forged manifests: the files agree with it, the rows or the read models do not.
            try await refused("a payload byte changed, the manifest forged to match", rewritten { $0[$0.count - 3] ^= 0x01 }) {
                if case .restoredStateDiffers(what: "rows", _, _)? = $0 as? BackupError { true } else { false }
            }
            try await refused("a checkpoint's data changed, the manifest forged to match", rewritten("checkpoints.rows") { $0[$0.count - 1] ^= 0x01 }) {
                if case .restoredStateDiffers(what: "rows", _, _)? = $0 as? BackupError { true } else { false }
            }
            try await refused("a kept answer's body changed, the manifest forged to match", rewritten("request-keys.rows") { $0[$0.count - 1] ^= 0x01 }) {
                if case .restoredStateDiffers(what: "rows", _, _)? = $0 as? BackupError { true } else { false }
            }
            try await refused("a bit flipped in user-keys.rows", flip("user-keys.rows", at: 30)) {
                if case .checksumMismatch(name: "user-keys.rows", _, _)? = $0 as? BackupError { true } else { false }
            }
            // A user's key changed (its row's last key byte, before the erasing flag): their payloads no longer open.
            try await refused("a user's key changed, the manifest forged to match", rewritten("user-keys.rows") { $0[$0.count - 2] ^= 0x01 }) {
                "\($0)".contains("does not open with its user's key")
            }
            try await refused("the events file cut in a row, the manifest forged to match", rewritten { $0 = $0.prefix(eventsBytes / 2) }) {
                if case .unreadableRows(file: "events.rows", _, _)? = $0 as? BackupError { true } else { false }
            }
            try await refused("a read model's digest forged in the manifest", { directory in
                try forge(directory) { json in
                    var models = try #require(json["readModels"] as? [[String: Any]])
                    models[1]["sha256"] = String(repeating: "0", count: 64)
                    json["readModels"] = models
                }
            }) { if case .verificationFailed(projections: [manifest.readModels[1].projection.rawValue])? = $0 as? BackupError { true } else { false } }
            // Seeded random damage behind a forged manifest: always a typed refusal, never a trap.
            var random = SplitMix64(seed: 42)
            for round in 0..<6 {
                let offset = Int(random.next() % UInt64(eventsBytes))
                let value = UInt8(truncatingIfNeeded: random.next())
                try await refused("byte \(offset) set to \(value) (round \(round))", rewritten { $0[offset] = $0[offset] == value ? ~value : value }) {
                    $0 is BackupError || $0 is EventStoreError
                }
            }
            // An embedded backup is not restored into PostgreSQL.
            try await refused("a backup of an embedded Logbook", { directory in
                try forge(directory) { json in json.removeValue(forKey: "source") }
            }) { if case .wrongSource(backup: "embedded", restore: "postgres")? = $0 as? BackupError { true } else { false } }

            // A target holding a log is refused, and keeps what it holds.
            let before = try await contents(source)
            let occupied = try await connect(source)
            await #expect(throws: EventStoreError.self) {
                _ = try await Logbook.restore(backup: backup, toSharedLog: occupied, target: "source")
            }
            await occupied.close()
            #expect(try await contents(source) == before)
            // And the sound backup still restores into the target every refusal left empty.
            let check = try await Logbook.restore(backup: backup, toSharedLog: log, target: "target")
            #expect(check.head == 63 && check.verification.allSatisfy(\.matches))
    }
}

