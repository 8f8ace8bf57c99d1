@testable import EventLogPostgres
import EventLog
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// The log's contract, checked on PostgreSQL with the same suite the LMDB log passes.
@Suite("PostgreSQL log: conformance", .serialized, .timeLimit(.minutes(10)))
struct PostgresConformanceTests {
    @Test(arguments: EventStoreConformance.allCases)
    func conformance(_ check: EventStoreConformance) async throws {
        try await withPostgresStore { store, _ in try await check.run(store) }
    }

    @Test("the schema the store applies is Schemas/postgres, byte for byte, and every statement is found")
    func schemaMatchesTheFiles() throws {
        for migration in LogSchema.migrations {
            let file = TestPostgres.repositoryRoot.appendingPathComponent("Schemas/postgres/\(migration.name).sql")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(migration.sql + "\n" == text, "\(migration.name) differs from its file")
            let statements = migration.statements
            #expect(statements.count == [1: 7, 2: 2, 3: 2, 4: 3, 5: 2][migration.version], "\(migration.name): \(statements.count) statements")
            #expect(statements.allSatisfy { $0.hasSuffix(";") })
        }
    }

    @Test("a record changed behind the log's back is a corruption error naming its position")
    func checksumsAreVerifiedOnRead() async throws {
        try await withPostgresStore { store, url in
            _ = try await store.append([testEvent("one"), testEvent("two")], to: "s")
            try await TestPostgres.psql(url, "UPDATE logbook.events SET payload = '\\x74776f21' WHERE position = 2")
            #expect(try await store.event(at: 1)?.text == "one")
            do {
                _ = try await store.readStream("s", from: 0, direction: .forward, limit: 10)
                Issue.record("a changed payload was read without complaint")
            } catch let error as EventStoreError {
                #expect(error.code == .corruption)
                #expect(error.position == 2)
            }
        }
    }

    @Test("servers starting together migrate once; a database with a newer schema is refused")
    func migrations() async throws {
        let url = try await TestPostgres.freshDatabase()
        async let a = connect(url)
        async let b = connect(url)
        let stores = try await [a, b]
        _ = try await stores[0].append([testEvent()], to: "s")
        #expect(try await stores[1].headPosition() == 1)
        for store in stores { await store.close() }
        #expect(try await TestPostgres.psql(url, "SELECT count(*) FROM logbook.migrations").trimmingCharacters(in: .whitespacesAndNewlines) == "\(LogSchema.migrations.count)")
        try await TestPostgres.psql(url, "INSERT INTO logbook.migrations (version, name) VALUES (99, 'future')")
        do {
            _ = try await connect(url)
            Issue.record("a newer schema was accepted")
        } catch let error as EventStoreError {
            #expect(error.code == .storage)
            #expect(error.description.contains("version 99"), "\(error)")
        }
    }

    @Test("bad URLs are refused naming what is wrong")
    func urls() throws {
        #expect(throws: PostgresURLError.self) { try PostgresURL("mysql://x/y") }
        #expect(throws: PostgresURLError.self) { try PostgresURL("postgres://u@h/db?sslmode=sometimes") }
        let url = try PostgresURL("postgres://ana:secret@db.example:6543/logbook?sslmode=require")
        #expect(url.configuration.host == "db.example")
        #expect(url.configuration.port == 6543)
        #expect(url.configuration.password == "secret")
        #expect(url.configuration.database == "logbook")
        #expect(!url.description.contains("secret"))
        let socket = try PostgresURL("postgres://postgres@/logbook?host=/tmp/pg", environment: ["PGPASSWORD": "pw"])
        #expect(socket.configuration.unixSocketPath == "/tmp/pg/.s.PGSQL.5432")
        #expect(socket.configuration.password == "pw")
    }
}
