import EventLog
import EventLogPostgres
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// `logbook-bench log --backend postgres` once dropped the `logbook` schema of the database it
/// was given, defaulting to the serving variable `$LOGBOOK_POSTGRES_URL`: one command away
/// from destroying a production log. It now measures in a database of its own.
@Suite("PostgreSQL benchmark never touches a log it did not make")
struct BenchmarkSafetyTests {
    @Test("the benchmark leaves a log with events untouched, ignores $LOGBOOK_POSTGRES_URL, and drops only its own database")
    func benchmarkKeepsLogs() async throws {
        let url = try await TestPostgres.freshDatabase()
        let store = try await PostgresEventStore.connect(try PostgresURL(url))
        _ = try await store.append([testEvent(subject: "ana"), testEvent(subject: "ana")], to: "user-ana")
        await store.close()
        let database = try #require(URLComponents(string: url)?.path.dropFirst().description)

        // The serving variable alone is not a target: refused, nothing touched.
        let (refusedStatus, refusedOutput) = try await runProgram(
            logbookBenchExecutable, ["log", "--backend", "postgres", "--events", "10000"], environment: ["LOGBOOK_POSTGRES_URL": url], includeErrors: true)
        #expect(refusedStatus != 0)
        #expect(refusedOutput.contains("--postgres"), "\(refusedOutput)")

        let (status, output) = try await runProgram(
            logbookBenchExecutable, ["log", "--backend", "postgres", "--postgres", url, "--events", "10000", "--durable-single", "20",
             "--durable-concurrent", "64", "--json"], includeErrors: true)
        #expect(status == 0, "\(output.suffix(2000))")
        #expect(output.contains("\"backend\""), "\(output.suffix(2000))")

        let reopened = try await PostgresEventStore.connect(try PostgresURL(url))
        #expect(try await reopened.headPosition() == Position(2))
        #expect(try await reopened.streamVersion("user-ana") == 1)
        await reopened.close()
        let left = try await TestPostgres.psql(url, "SELECT count(*) FROM pg_database WHERE datname LIKE 'logbook_bench_%'")
        #expect(left.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(!database.isEmpty)
    }
}
