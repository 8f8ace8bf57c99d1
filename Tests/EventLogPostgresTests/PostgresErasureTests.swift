import DemoData
import EventLog
import EventLogPostgres
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Erasure on a log several servers share in PostgreSQL, the twins of the embedded store's
/// (`ErasureTests`): payloads sealed with each user's key in `logbook.user_keys`; an erasure
/// through one server reaches every server's read models, deterministically; nothing of the
/// user is left in the database, the servers' files, exports or backups; a cut-off erasure is
/// finished by the next server that opens the log.
@Suite("Erasure on a log shared in PostgreSQL", .serialized, .timeLimit(.minutes(20)))
struct PostgresErasureTests {
    func sha(_ digests: [ReadModelDigest]) -> [String] { digests.map { "\($0.projection.rawValue) \($0.sha256) @\($0.position)" } }

    func configuration() -> LogbookConfiguration {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .relaxed
        configuration.readYourWritesTimeout = .seconds(60)
        return configuration
    }

    func open(_ url: String, _ path: String) async throws -> Logbook {
        try await Logbook.open(following: try await connect(url), readModelsAt: path, configuration: configuration())
    }

    /// Two servers on one fresh database, read models in `root/a` and `root/b`.
    func withTwoServers<R>(_ body: (Logbook, Logbook, String, String) async throws -> R) async throws -> R {
        let url = try await TestPostgres.freshDatabase()
        return try await withTemporaryDirectory { root in
            try await withServers(url, root, configuration: configuration()) { a, b in try await body(a, b, url, root) }
        }
    }

    /// Every event of the log in the wire form, as `logbook export` makes it (keys loaded chunk by chunk).
    func wireEvents(_ logbook: Logbook) async throws -> [WireEvent] {
        let head = try await logbook.log.headPosition()
        try await logbook.loadKeys(openingEventsAfter: .start, through: head)
        var events: [WireEvent] = []
        try await logbook.log.scan(after: .start, through: head, filter: .all, chunkSize: 4_096) { envelope, metadata, payload in
            events.append(try WireEvent(envelope: envelope, metadata: metadata, payload: payload, of: logbook))
            return true
        }
        return events
    }

    /// Waits until `logbook` has folded the head and finished the erasure of `user` (it answers
    /// the user as no one once it has heard of it, and rebuilds its read models in the background).
    func waitUntilGone(_ user: String, from logbook: Logbook) async throws {
        try await logbook.catchUp(to: try await logbook.log.headPosition())
        await logbook.erasuresFinished()
        await #expect(throws: LogbookError.self) { _ = try await logbook.profile(user: user) }
    }

    @Test("an erasure through one server: both servers' digests equal each other's, a rebuild's, and those of the same log in which the user's events were never recorded")
    func erasureIsDeterministicOnEveryServer() async throws {
        try await withTwoServers { a, b, _, _ in
            #expect(a.payloadFormat == .current && b.payloadFormat == .current)
            var generator = DemoDataGenerator(seed: 5, users: 4)
            generator.weeks = 1
            _ = try await generator.run(on: a)
            let victim = DemoDataGenerator.userId(1)
            let other = DemoDataGenerator.userId(2)
            try await b.catchUp(to: try await a.log.headPosition())
            let othersTimeline = try await b.timeline(user: other, limit: 50)
            let before = try await wireEvents(a)
            #expect(before.contains { $0.subject == victim && !$0.isErased })

            let erased = try await a.erase(user: victim)
            #expect(!erased.alreadyApplied && erased.stream == "user-\(victim)")
            try await waitUntilGone(victim, from: b)
            let head = try await a.log.headPosition()
            let live = try a.digests()
            #expect(live.allSatisfy { $0.position == head.rawValue })
            #expect(sha(try b.digests()) == sha(live), "the other server's read models differ after the erasure")
            #expect(sha(try await b.rebuild()) == sha(live), "a rebuild after the erasure gives other digests")
            #expect(try await a.verify().allSatisfy(\.matches))

            // Gone from every query on both servers; the others answer as before.
            for server in [a, b] {
                await #expect(throws: LogbookError.self) { _ = try await server.profile(user: victim) }
                #expect(try await server.timeline(user: victim, limit: 50).entries.isEmpty)
            }
            #expect(try await a.timeline(user: other, limit: 50) == othersTimeline)

            // Nothing more for the victim, through either server; a retried erase writes nothing.
            for server in [b, a] {
                do {
                    try await server.execute(.registerUser(user: victim, UserRegistered(displayName: "Back", timeZone: "UTC")))
                    Issue.record("a server accepted a command for an erased user")
                } catch let error as LogbookError {
                    #expect(error.rule == .userErased, "\(error)")
                }
                let again = try await server.erase(user: victim)
                #expect(again.alreadyApplied && again.streamVersion == erased.streamVersion)
            }
            // An import carrying the victim's data is refused whole; erasing no one is an error.
            do {
                _ = try await b.restore(Array(before.filter { $0.subject == victim }.prefix(3)))
                Issue.record("restored data of an erased user")
            } catch let error as LogbookError {
                #expect(error.rule == .userErased, "\(error)")
            }
            await #expect(throws: LogbookError.self) { try await a.erase(user: "nobody") }
            #expect(try await a.log.headPosition() == head, "a refused command, import or a retried erase wrote")

            // The same log without the victim's events (inert events keep the positions), embedded.
            let after = try await wireEvents(b)
            #expect(after.filter { $0.subject == victim }.allSatisfy { $0.isErased }, "the victim's events read as tombstones on the other server")
            #expect(after.count == before.count + 1)
            // Export → import into another shared log → export: the same bytes, tombstones included.
            let lines = after.map(\.jsonLine)
            let otherLog = try await TestPostgres.freshDatabase()
            try await withTemporaryDirectory { path in
                let copy = try await open(otherLog, path)
                do {
                    _ = try await copy.restore(try lines.map { try WireEvent(jsonLine: $0) })
                    #expect(try await wireEvents(copy).map(\.jsonLine) == lines)
                    #expect(sha(try copy.digests()) == sha(live))
                    await #expect(throws: LogbookError.self) {
                        try await copy.execute(.registerUser(user: victim, UserRegistered(displayName: "Back", timeZone: "UTC")))
                    }
                    #expect(try await copy.restore(try lines.map { try WireEvent(jsonLine: $0) }).written == 0)
                    await copy.close()
                } catch {
                    await copy.close()
                    throw error
                }
            }
            try await withTemporaryDirectory { path in
                var configuration = LogbookConfiguration()
                configuration.log.durability = .noSync
                let twin = try await Logbook.open(path: path, configuration: configuration)
                do {
                    var pending: [WireEvent] = []
                    for event in before + [after[after.count - 1]] {
                        if event.subject != victim {
                            pending.append(event)
                            continue
                        }
                        if !pending.isEmpty { _ = try await twin.restore(pending) }
                        pending = []
                        _ = try await twin.log.append(
                            [ProposedEvent(type: "test.inert", occurredAt: event.occurredAt, payload: [])], to: "inert", expectedVersion: .any)
                    }
                    if !pending.isEmpty { _ = try await twin.restore(pending) }
                    #expect(try await twin.log.headPosition() == head)
                    #expect(sha(try twin.digests()) == sha(live), "the erasure left a trace of \(victim) in some read model")
                } catch {
                    await twin.close()
                    throw error
                }
                await twin.close()
            }
        }
    }

    @Test("nothing of an erased user is left: not in pg_dump (as text or hex), the key table's file, either server's read-model files (compacted when they open next), an export or a backup made afterwards")
    func plaintextIsGone() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let name = "Zebedee Quixotic-Marmalade"
            let note = "hyacinth-tangerine-7731 by the old mill"
            let hex = { (text: String) in Data(text.utf8).map { String(format: "%02x", $0) }.joined() }
            func holds(_ file: String, _ bytes: Data) throws -> Bool {
                try Data(contentsOf: URL(fileURLWithPath: file)).range(of: bytes) != nil
            }
            func keyTableFile() async throws -> String {
                try await TestPostgres.psql(url, "CHECKPOINT; SELECT current_setting('data_directory') || '/' || pg_relation_filepath('logbook.user_keys')")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            var (key, keyTable) = ("", "")
            try await withServers(url, root, configuration: configuration()) { a, b in
                try await a.execute(.registerUser(user: "zq", UserRegistered(displayName: name, timeZone: "Europe/Berlin")))
                try await a.execute(.registerUser(user: "other", UserRegistered(displayName: "Someone Else", timeZone: "UTC")))
                let start = try Timestamp(parsing: "2026-11-20T07:00:00+01:00")
                for user in ["zq", "other"] {
                    try await b.execute(.importWorkout(user: user, WorkoutImported(
                        workoutId: "w-\(user)", activityType: .run, startedAt: start, endedAt: try Timestamp(parsing: "2026-11-20T08:00:00+01:00"),
                        distanceMeters: 10_000, movingSeconds: 3_400, source: WorkoutSource(kind: .garmin, sourceId: "s-\(user)"))))
                    try await b.execute(.editWorkout(user: user, WorkoutEdited(workoutId: "w-\(user)", notes: note)))
                }
                try await a.catchUp(to: try await b.log.headPosition())
                key = try await TestPostgres.psql(url, "SELECT encode(key, 'hex') FROM logbook.user_keys WHERE user_id = 'zq'")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(key.count == 64)
                keyTable = try await keyTableFile()
                // The test can fail: before the erasure the key is in the table's file and in a
                // dump, and the read models hold the name in plaintext; the payloads never did.
                #expect(try holds(keyTable, Self.bytes(hex: key)), "the test would prove nothing: the key is not in \(keyTable)")
                let dumpBefore = try await TestPostgres.dump(url)
                #expect(dumpBefore.contains(key) && !dumpBefore.contains(name) && !dumpBefore.contains(hex("Zebedee")))
                #expect(try holds(root + "/a/data.mdb", Data(name.utf8)) && holds(root + "/b/data.mdb", Data(name.utf8)))

                _ = try await a.erase(user: "zq")
                try await waitUntilGone("zq", from: b)
            }
            let keyBytes = Self.bytes(hex: key)
            let dump = try await TestPostgres.dump(url)
            #expect(!dump.contains(key), "the destroyed key is in pg_dump's output")
            #expect(!dump.contains("Zebedee") && !dump.contains(hex("Zebedee")))
            let keyTableAfter = try await keyTableFile()
            #expect(keyTableAfter != keyTable, "the key table was not rewritten")
            #expect(try !holds(keyTableAfter, keyBytes), "the destroyed key's bytes are in the key table's file")
            // The servers open again: each rewrites its read models' file compacted first.
            try await withServers(url, root, configuration: configuration()) { a, b in
                for server in ["a", "b"] {
                    #expect(try !holds(root + "/\(server)/data.mdb", Data("Zebedee".utf8)), "server \(server)'s read models hold the name")
                    #expect(try holds(root + "/\(server)/data.mdb", Data(note.utf8)), "the other user's notes should still be on server \(server)")
                    #expect(!FileManager.default.fileExists(atPath: root + "/\(server)/compaction-owed"))
                }
                let export = try await wireEvents(b).map(\.jsonLine).joined(separator: "\n")
                #expect(!export.contains("Zebedee") && export.contains("\"erased\":true"))
                #expect(export.components(separatedBy: note).count - 1 == 1, "only the other user's note is exported")
                let backup = root + "/backup"
                let manifest = try await b.backup(to: backup)
                #expect(manifest.rows?.userKeys == 2)
                for file in try FileManager.default.contentsOfDirectory(atPath: backup) {
                    #expect(try !holds(backup + "/" + file, Data("Zebedee".utf8)) && !holds(backup + "/" + file, keyBytes), "\(file) holds the erased name or key")
                }
                // The backup restores, verified, with the tombstone: the user stays erased there.
                let target = try await TestPostgres.freshDatabase()
                let log = try await connect(target)
                let check = try await Logbook.restore(backup: backup, toSharedLog: log, target: "target")
                await log.close()
                #expect(check.verification.allSatisfy { $0.matches })
                let restored = try await open(target, root + "/restored")
                do {
                    #expect(sha(try restored.digests()) == sha(try a.digests()))
                    await #expect(throws: LogbookError.self) {
                        try await restored.execute(.registerUser(user: "zq", UserRegistered(displayName: "Back", timeZone: "UTC")))
                    }
                    await restored.close()
                } catch {
                    await restored.close()
                    throw error
                }
            }
        }
    }

    static func bytes(hex: String) -> Data {
        let digits = Array(hex.utf8)
        return Data(stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) ?? 0 })
    }

    /// Erases a user while another session runs `holding` (found by `holder`, a condition on
    /// `pg_stat_activity`), in the log's database or `elsewhere`: the key table's rewrite must
    /// stay owed; once the session ends, the next erasure's rewrite clears every debt.
    func expectRewriteOwed(while holding: String, in elsewhere: String? = nil, found holder: String) async throws {
        let url = try await TestPostgres.freshDatabase()
        let release = { @Sendable in _ = try? await TestPostgres.psql(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE \(holder)") }
        try await withTemporaryDirectory { root in
            let server = try await open(url, root + "/a")
            var held: Task<String, any Error>?
            do {
                for user in ["gone", "later"] {
                    try await server.execute(.registerUser(user: user, UserRegistered(displayName: "Name of \(user)", timeZone: "UTC")))
                }
                held = Task { try await TestPostgres.psql(elsewhere ?? url, holding) }
                var shown = false
                for _ in 0..<600 where !shown {
                    shown = try await TestPostgres.psql(url, "SELECT count(*) FROM pg_stat_activity WHERE \(holder)") == "1\n"
                    if !shown { try await Task.sleep(for: .milliseconds(50)) }
                }
                try #require(shown, "the holding session never showed its snapshot")
                try await server.erase(user: "gone")
                let owed = "SELECT user_id FROM logbook.user_keys WHERE compaction_owed ORDER BY user_id"
                #expect(try await TestPostgres.psql(url, owed) == "gone\n", "the rewrite ran under an older snapshot, yet the debt was cleared")
                // The snapshot ends; the next erasure's rewrite clears every debt.
                await release()
                _ = try? await held?.value
                try await server.erase(user: "later")
                #expect(try await TestPostgres.psql(url, owed) == "", "no debt is left once no older snapshot is open")
                await server.close()
            } catch {
                await release()
                _ = try? await held?.value
                await server.close()
                throw error
            }
        }
    }

    @Test("a snapshot older than an erasure, held by another session, keeps the key table's rewrite owed; the next erasure after it ends clears the debt")
    func olderSnapshotKeepsRewriteOwed() async throws {
        // Another session of the database in a repeatable-read transaction, asleep, as a backup holds one.
        try await expectRewriteOwed(
            while: "BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM logbook.user_keys; SELECT pg_sleep(120); COMMIT",
            found: "datname = current_database() AND pid <> pg_backend_pid() AND backend_xmin IS NOT NULL AND query LIKE '%pg_sleep(120)%'")
    }

    @Test("a transaction left open in another database of the same server keeps the key table's rewrite owed too (it holds back what the rewrite may drop); the next erasure after it ends clears the debt")
    func otherDatabaseKeepsRewriteOwed() async throws {
        // A session of another database, in a transaction that wrote, asleep: as a process that
        // died mid-transaction leaves one until its connection is reaped.
        try await expectRewriteOwed(
            while: "BEGIN; SELECT txid_current(); SELECT pg_sleep(121); COMMIT", in: try await TestPostgres.freshDatabase(),
            found: "pid <> pg_backend_pid() AND backend_xmin IS NOT NULL AND query LIKE '%pg_sleep(121)%'")
    }

    @Test("an erasure cut off after user.erased was appended, before the key was destroyed, is finished by the next server to open the log; one cut off before the append is left to its retry")
    func cutOffErasureFinishedOnOpen() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let a = try await open(url, root + "/a")
            let keys: [String: String]
            do {
                for user in ["gone", "kept"] {
                    try await a.execute(.registerUser(user: user, UserRegistered(displayName: "Name of \(user)", timeZone: "UTC")))
                }
                var found: [String: String] = [:]
                for user in ["gone", "kept"] {
                    found[user] = try await TestPostgres.psql(url, "SELECT encode(key, 'hex') FROM logbook.user_keys WHERE user_id = '\(user)'")
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                }
                keys = found
                _ = try await a.erase(user: "gone")
                await a.close()
            } catch {
                await a.close()
                throw error
            }
            // The crash: the key of "gone" back, its erasure marked begun; "kept" marked begun
            // too, but nothing appended for it (cut off before user.erased).
            _ = try await TestPostgres.psql(url, """
                UPDATE logbook.user_keys SET key = decode('\(keys["gone"]!)', 'hex'), erasing = true, compaction_owed = false WHERE user_id = 'gone';
                UPDATE logbook.user_keys SET erasing = true WHERE user_id = 'kept'
                """)
            let tableFile = "SELECT pg_relation_filepath('logbook.user_keys')"
            let fileBefore = try await TestPostgres.psql(url, tableFile)
            let reopened = try await open(url, root + "/c")
            do {
                let rows = try await TestPostgres.psql(
                    url, "SELECT user_id || ' ' || coalesce(encode(key, 'hex'), 'none') || ' ' || erasing || ' ' || compaction_owed FROM logbook.user_keys ORDER BY user_id")
                // The key destroyed and the table rewritten (the debt cleared: no older snapshot was open).
                #expect(rows.split(separator: "\n") == ["gone none false false", "kept \(keys["kept"]!) true false"])
                #expect(try await TestPostgres.psql(url, tableFile) != fileBefore, "the key table was not rewritten")
                await #expect(throws: LogbookError.self) { _ = try await reopened.profile(user: "gone") }
                #expect(try await reopened.profile(user: "kept").displayName == "Name of kept")
                #expect(try await wireEvents(reopened).filter { $0.subject == "gone" }.allSatisfy { $0.isErased })
                await reopened.close()
            } catch {
                await reopened.close()
                throw error
            }
            // A rewrite owed (a crash between the tombstone and VACUUM FULL) is made by the next server to open.
            _ = try await TestPostgres.psql(url, "UPDATE logbook.user_keys SET compaction_owed = true WHERE user_id = 'gone'")
            let fileOwed = try await TestPostgres.psql(url, tableFile)
            // The first server again, its read models current: an as-of query loads the key it needs.
            let again = try await open(url, root + "/a")
            do {
                #expect(try await TestPostgres.psql(url, tableFile) != fileOwed)
                #expect(try await TestPostgres.psql(url, "SELECT count(*) FROM logbook.user_keys WHERE compaction_owed") == "0\n")
                #expect(try await again.profile(user: "kept", asOf: .position(Position(2))).displayName == "Name of kept")
                await again.close()
            } catch {
                await again.close()
                throw error
            }
        }
    }

    @Test("logbook copy moves an encrypted embedded store into PostgreSQL with its keys and tombstones: same digests, the erased user stays erased, erasure works there; a log keeping another format is refused")
    func copyCarriesKeys() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/store"
            var configuration = LogbookConfiguration()
            configuration.log.durability = .noSync
            let embedded = try await Logbook.open(path: path, configuration: configuration)
            let digests: [ReadModelDigest]
            do {
                var generator = DemoDataGenerator(seed: 3, users: 3)
                generator.weeks = 1
                _ = try await generator.run(on: embedded)
                _ = try await embedded.erase(user: DemoDataGenerator.userId(0))
                digests = try embedded.digests()
                await embedded.close()
            } catch {
                await embedded.close()
                throw error
            }
            let url = try await TestPostgres.freshDatabase()
            let (status, output) = try await runLogbook(["copy", "--from", path, "--to-postgres", url], includeErrors: true)
            #expect(status == 0, "\(output)")
            #expect(output.contains("and 3 users' keys"), "\(output)")
            let server = try await open(url, root + "/server")
            do {
                #expect(server.payloadFormat == .current)
                #expect(sha(try server.digests()) == sha(digests))
                await #expect(throws: LogbookError.self) { _ = try await server.profile(user: DemoDataGenerator.userId(0)) }
                _ = try await server.erase(user: DemoDataGenerator.userId(1))
                await #expect(throws: LogbookError.self) { _ = try await server.profile(user: DemoDataGenerator.userId(1)) }
                #expect(try await server.profile(user: DemoDataGenerator.userId(2)).displayName.isEmpty == false)
                await server.close()
            } catch {
                await server.close()
                throw error
            }
            // A log whose first server kept plaintext cannot take the store's sealed payloads.
            let plaintext = try await TestPostgres.freshDatabase()
            var plain = configuration
            plain.payloadEncryption = .plaintext
            let other = try await Logbook.open(following: try await connect(plaintext), readModelsAt: root + "/plain", configuration: plain)
            #expect(other.payloadFormat == .plaintext)
            await other.close()
            let (refused, message) = try await runLogbook(["copy", "--from", path, "--to-postgres", plaintext], includeErrors: true)
            #expect(refused != 0 && message.contains("keeps payloads as plaintext"), "\(message)")
            #expect(try await TestPostgres.psql(plaintext, "SELECT count(*) FROM logbook.events").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        }
    }

    @Test("SIGKILL while new users register through a server: every acknowledged event is there and every event's payload opens (a key is never missing)")
    func killedWhileMakingKeys() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            var random = SystemRandomNumberGenerator()
            var acknowledged: [AppendingChild.Ack] = []
            for round in 0..<4 {
                let child = try AppendingChild(mode: "register-loop", arguments: ["--postgres", url, "--path", root + "/child", "--writers", "3"])
                let deadline = ContinuousClock.now + .seconds(60)
                while child.acks.count < 10, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...200, using: &random)))
                child.kill()
                try await Task.sleep(for: .milliseconds(20))
                #expect(child.acks.count >= 10, "round \(round): the child registered too few users to test anything")
                acknowledged += child.acks

                let logbook = try await open(url, root + "/check-\(round)")
                do {
                    #expect(logbook.payloadFormat == .current)
                    for ack in acknowledged {
                        let event = try await logbook.log.event(at: Position(ack.position))
                        #expect(event?.eventId == ack.eventId, "the acknowledged registration at \(ack.position) is missing")
                    }
                    // Every event in the log opens with its user's key: a wire form for each, none a tombstone.
                    let events = try await wireEvents(logbook)
                    #expect(events.count == Int(try await logbook.log.headPosition().rawValue))
                    #expect(events.allSatisfy { !$0.isErased })
                    #expect(try await logbook.verify().allSatisfy { $0.matches })
                } catch {
                    await logbook.close()
                    throw error
                }
                await logbook.close()
            }
        }
    }

    @Test("a payload whose key row is missing (a user who was not erased) is a storage error naming its position, never read as plaintext or skipped")
    func missingKeyIsAnError() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let a = try await open(url, root + "/a")
            do {
                try await a.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "UTC")))
                await a.close()
            } catch {
                await a.close()
                throw error
            }
            _ = try await TestPostgres.psql(url, "DELETE FROM logbook.user_keys")
            do {
                let b = try await open(url, root + "/b")
                await b.close()
                Issue.record("a server opened a log whose key is missing")
            } catch {
                #expect("\(error)".contains("no key for user \"u\"") && "\(error)".contains("position 1"), "\(error)")
            }
        }
    }

    @Test("a batch prepared and sealed ahead (as logbook import prepares the next batch while one commits) makes no key, and is refused, writing nothing, when its user was erased before it is restored")
    func sealedAheadStillRefused() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let logbook = try await open(url, root + "/a")
            do {
                var generator = DemoDataGenerator(seed: 5, users: 2)
                generator.weeks = 1
                _ = try await generator.run(on: logbook)
                let user = DemoDataGenerator.userId(0)
                let at = { (text: String) in try Timestamp(parsing: text) }
                func late(_ user: String) throws -> WireEvent {
                    WireEvent(
                        position: nil, stream: "steps-late-\(user)", streamVersion: 0, eventId: UUID(), subject: user,
                        occurredAt: try at("2026-11-21T07:01:00Z"), recordedAt: try at("2026-11-21T07:01:00Z"),
                        event: .stepsRecorded(StepsRecorded(samples: [
                            StepSample(start: try at("2026-11-21T07:00:00Z"), end: try at("2026-11-21T07:01:00Z"), count: 10, source: "phone"),
                        ])))
                }
                func keyRows(_ user: String) async throws -> String {
                    try await TestPostgres.psql(url, "SELECT count(*) FROM logbook.user_keys WHERE user_id = '\(user)'")
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                }
                // A user without a key: prepared, not sealed, and no key made.
                let newcomer = try logbook.prepareRestore([try late("u-new")], sealing: true)
                #expect(!newcomer.isSealed)
                #expect(try await keyRows("u-new") == "0")
                // A user with a key (this server used it): sealed ahead; erased before the batch is restored: refused.
                let ahead = try logbook.prepareRestore([try late(user)], sealing: true)
                #expect(ahead.isSealed)
                _ = try await logbook.erase(user: user)
                let head = try await logbook.log.headPosition()
                do {
                    _ = try await logbook.restore(ahead)
                    Issue.record("restored data sealed for a user erased since")
                } catch let error as LogbookError {
                    #expect(error.rule == .userErased, "\(error)")
                }
                #expect(try await logbook.log.headPosition() == head)
                // The newcomer's batch is restored as any: sealed then, with a key made then.
                #expect(try await logbook.restore(newcomer).written == 1)
                #expect(try await keyRows("u-new") == "1")
                await logbook.close()
            } catch {
                await logbook.close()
                throw error
            }
        }
    }

    @Test("a shared log keeps the payload format its first server recorded: one with events from before keeps plaintext (and refuses erasure), a new one seals")
    func formatIsRecordedOnce() async throws {
        try await withPostgresStore { store, url in
            // Events written before any Logbook opened the log: plaintext it stays.
            _ = try await store.append([ProposedEvent(type: "test.early", occurredAt: Timestamp(microsecondsSinceEpoch: 0), payload: [1])],
                                       to: "early", expectedVersion: .any)
            try await withTemporaryDirectory { root in
                let logbook = try await open(url, root + "/a")
                #expect(logbook.payloadFormat == .plaintext)
                try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "UTC")))
                await #expect(throws: LogbookError.self) { try await logbook.erase(user: "u") }
                await logbook.close()
            }
            #expect(try await store.payloadFormat(proposing: PayloadFormat.current.rawValue) == "plaintext")
        }
        let fresh = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let first = try await open(fresh, root + "/a")
            let second = try await open(fresh, root + "/b")
            #expect(first.payloadFormat == .current && second.payloadFormat == .current)
            await first.close()
            await second.close()
        }
    }
}
