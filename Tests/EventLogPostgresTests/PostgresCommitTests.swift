import EventLog
import EventLogPostgres
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// A write is reported only once PostgreSQL has made its commit: a statement's own completion
/// comes before the commit of its transaction, and PostgreSQL stopped in the middle of that
/// commit (`pg_ctl stop -m immediate`) sends the completion before it quits, while the commit
/// never reaches the disk. Triggers that run at commit time (deferred constraint triggers, on
/// test streams only) hold a commit where each test needs it: before it is made ("doomed"),
/// refused ("refused"), or made and waiting for a synchronous standby that never answers, so its
/// answer is lost ("limbo"); an answer to keep with status 203 waits before its commit.
@Suite("PostgreSQL log: a write is reported only once committed", .serialized, .timeLimit(.minutes(10)))
struct PostgresCommitTests {
    /// Makes commits of the test streams wait, fail or hang as the suite's comment says.
    static let commitTriggers = """
        CREATE FUNCTION logbook_test_event_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.stream = 'doomed' THEN
            PERFORM pg_sleep(600);
          ELSIF NEW.stream = 'refused' THEN
            RAISE EXCEPTION 'refused at commit';
          ELSIF NEW.stream = 'limbo' THEN
            PERFORM set_config('synchronous_commit', 'on', true);
          END IF;
          RETURN NULL;
        END $$;
        CREATE FUNCTION logbook_test_answer_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.status = 203 THEN PERFORM pg_sleep(600); END IF;
          RETURN NULL;
        END $$;
        CREATE CONSTRAINT TRIGGER at_commit AFTER INSERT ON logbook.events DEFERRABLE INITIALLY DEFERRED
          FOR EACH ROW EXECUTE FUNCTION logbook_test_event_at_commit();
        CREATE CONSTRAINT TRIGGER at_commit AFTER INSERT ON logbook.request_keys DEFERRABLE INITIALLY DEFERRED
          FOR EACH ROW EXECUTE FUNCTION logbook_test_answer_at_commit();
        """

    /// A cluster of its own where commits wait for a synchronous standby (that never answers) only
    /// when a transaction asks for it, and a store on it (the triggers installed).
    static func withCluster(_ body: (TestPostgres.Cluster, PostgresEventStore) async throws -> Void) async throws {
        let cluster = try await TestPostgres.Cluster.start()
        defer { cluster.remove() }
        // Local commits for every session first: from the reload on, a commit asking for more waits for ever.
        try await TestPostgres.psql(cluster.url, "ALTER DATABASE postgres SET synchronous_commit = local")
        try await TestPostgres.psql(cluster.url, "ALTER SYSTEM SET synchronous_standby_names = 'nobody'")
        try await TestPostgres.psql(cluster.url, "SELECT pg_reload_conf()")
        var configuration = PostgresLogConfiguration()
        // Long enough to wait out the cluster's restart while a commit's outcome is asked, and
        // the connection pool's wait before it tries again: it grows by a quarter with every
        // failed attempt, up to a minute, and a restart on a busy machine fails 30 and more.
        // 150 s ran out once, beside other suites starting clusters: a restart that takes two
        // minutes can be followed by a minute's wait.
        configuration.operationTimeout = .seconds(300)
        configuration.pollInterval = .milliseconds(200)
        let store = try await PostgresEventStore.connect(try PostgresURL(cluster.url), configuration: configuration)
        try await TestPostgres.psql(cluster.url, commitTriggers)
        do {
            try await body(cluster, store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Waits until a backend of the cluster waits on `event` (a commit held by a trigger).
    static func waitForBackend(_ url: String, waitingOn event: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let count = try await TestPostgres.psql(url, "SELECT count(*) FROM pg_stat_activity WHERE wait_event = '\(event)'")
            if count.trimmingCharacters(in: .whitespacesAndNewlines) != "0" { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("no backend came to wait on \(event)")
    }

    /// Crashes the cluster while `write` waits on `event`, starts it again, and answers what the
    /// write answered.
    static func crashWhile<T: Sendable>(
        _ cluster: TestPostgres.Cluster, waitingOn event: String, _ write: @escaping @Sendable () async throws -> T
    ) async throws -> Result<T, any Error> {
        let task = Task { try await write() }
        try await waitForBackend(cluster.url, waitingOn: event)
        try await cluster.crash()
        try await cluster.startAgain()
        return await task.result
    }

    /// The log's answer once it answers again after a restart (the pool reconnects by itself).
    static func eventually<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            do {
                return try await body()
            } catch let error as EventStoreError where error.code == .unavailable && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    @Test("PostgreSQL crashed in the middle of an append's commit, after the statement answered: the append is not acknowledged, and its event is not in the log")
    func crashBeforeTheCommit() async throws {
        try await Self.withCluster { cluster, store in
            let before = try await store.append([testEvent("before")], to: "s")
            let id = UUID()
            let outcome = try await Self.crashWhile(cluster, waitingOn: "PgSleep") {
                try await store.append([testEvent("lost", id: id)], to: "doomed")
            }
            if case .success(let result) = outcome {
                Issue.record("an append whose commit was never made was acknowledged at position \(result.firstPosition)")
            }
            #expect(try await Self.eventually { try await store.locations(ofEvents: [id]) } == [nil])
            #expect(try await store.event(at: before.firstPosition)?.text == "before")
            // The store goes on: the next append takes the position the lost one never had.
            let after = try await Self.eventually { try await store.append([testEvent("after")], to: "s") }
            #expect(after.firstPosition.rawValue == before.firstPosition.rawValue + 1)
        }
    }

    @Test("PostgreSQL crashed after an append's commit was made, before its answer: the append is acknowledged at the positions the log holds")
    func crashAfterTheCommit() async throws {
        try await Self.withCluster { cluster, store in
            let id = UUID()
            let outcome = try await Self.crashWhile(cluster, waitingOn: "SyncRep") {
                try await store.append([testEvent("made", id: id)], to: "limbo")
            }
            let result = try outcome.get()
            let event = try await Self.eventually { try await store.event(at: result.firstPosition) }
            #expect(event?.eventId == id && event?.text == "made")
        }
    }

    @Test("an answer kept with an append: kept if, and only if, the append's commit was made")
    func answerKeptWithTheAppend() async throws {
        try await Self.withCluster { cluster, store in
            @Sendable func keeping(_ key: UInt8) -> AnswerToKeep {
                AnswerToKeep(key: [UInt8](repeating: key, count: 32), expiringBefore: 0) { result in
                    KeptAnswer(keptAt: 1, fingerprint: [key], status: 201, entityTag: nil, body: Array("at \(result.firstPosition)".utf8))
                }
            }
            // Crashed before the commit: neither the event nor the answer.
            let lost = UUID()
            let doomed = try await Self.crashWhile(cluster, waitingOn: "PgSleep") {
                try await store.append(batch: [AppendRequest(stream: "doomed", events: [testEvent("lost", id: lost)])], keeping: [keeping(1)])
            }
            if case .success(let results) = doomed, case .success = results[0].result {
                Issue.record("an append whose commit was never made was acknowledged")
            }
            #expect(try await Self.eventually { try await store.locations(ofEvents: [lost]) } == [nil])
            #expect(try await store.keptAnswer([UInt8](repeating: 1, count: 32), keptSince: 0) == nil)

            // Crashed after the commit: both, and the answer told is the one kept.
            let made = UUID()
            let limbo = try await Self.crashWhile(cluster, waitingOn: "SyncRep") {
                try await store.append(batch: [AppendRequest(stream: "limbo", events: [testEvent("made", id: made)])], keeping: [keeping(2)])
            }
            let result = try limbo.get()[0]
            let appended = try result.result.get()
            let kept = try await Self.eventually { try await store.keptAnswer([UInt8](repeating: 2, count: 32), keptSince: 0) }
            #expect(kept != nil && kept == result.kept && result.keptByThisAppend)
            #expect(kept?.body == Array("at \(appended.firstPosition)".utf8))
            #expect(try await store.event(at: appended.firstPosition)?.eventId == made)
        }
    }

    @Test("PostgreSQL crashed in the middle of keeping an answer: keepAnswer does not return, and no answer is kept")
    func crashWhileKeepingAnAnswer() async throws {
        try await Self.withCluster { cluster, store in
            let key = [UInt8](repeating: 3, count: 32)
            let answer = KeptAnswer(keptAt: 1, fingerprint: [3], status: 203, entityTag: nil, body: Array("kept".utf8))
            let outcome = try await Self.crashWhile(cluster, waitingOn: "PgSleep") {
                try await store.keepAnswer(answer, under: key, expiringBefore: 0)
            }
            if case .success = outcome { Issue.record("an answer whose commit was never made was reported kept") }
            #expect(try await Self.eventually { try await store.keptAnswer(key, keptSince: 0) } == nil)
        }
    }

    @Test("an append PostgreSQL refuses at its commit (after the statement answered) is refused, writes nothing, and the store goes on")
    func refusedAtTheCommit() async throws {
        try await withPostgresStore { store, url in
            try await TestPostgres.psql(url, Self.commitTriggers)
            let id = UUID()
            do {
                let result = try await store.append([testEvent("refused", id: id)], to: "refused")
                Issue.record("an append refused at its commit was acknowledged at position \(result.firstPosition)")
            } catch let error as EventStoreError {
                #expect(error.description.contains("refused at commit"), "\(error)")
            }
            #expect(try await Self.eventually { try await store.locations(ofEvents: [id]) } == [nil])
            let next = try await Self.eventually { try await store.append([testEvent("next")], to: "s") }
            #expect(next.firstPosition == Position(1))
            #expect(try await store.headPosition() == Position(1))
        }
    }
}
