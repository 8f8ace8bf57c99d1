import EventLog
import EventLogPostgres
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// Connections that PostgreSQL closes while their queries' rows are on their way. A row sequence
/// of PostgresNIO whose consumer has not yet asked for more when the connection ends stops the
/// process (a precondition in `RowStreamStateMachine.channelReadComplete`); the store collects
/// every query's rows on the connection's event loop, so a reader only ever sees an error.
@Suite("PostgreSQL log: connections closed under readers", .serialized, .timeLimit(.minutes(10)))
struct PostgresConnectionLossTests {
    @Test("readers of large pages whose connections PostgreSQL terminates again and again: the process lives on, and reads again")
    func terminatedConnectionsUnderReaders() async throws {
        let url = try await TestPostgres.freshDatabase()
        let store = try await connect(url)
        // 4,000 events of 4 KiB: a page of 500 is 2 MB, many reads of the socket.
        let payload = [UInt8](repeating: 0x5a, count: 4_096)
        for batch in 0..<8 {
            let requests = (0..<500).map { index in
                AppendRequest(stream: "s-\(batch)-\(index % 50)", events: [ProposedEvent(
                    type: "test.page", subject: "u", occurredAt: Timestamp(microsecondsSinceEpoch: Int64(index)), payload: payload)])
            }
            for result in try await store.append(batch: requests) { _ = try result.get() }
        }
        await store.close()

        // More readers than cores: their tasks wait for a thread while the event loops read on.
        let child = try AppendingChild(mode: "read-loop", arguments: ["--postgres", url, "--writers", "12"], errors: true)
        defer { if child.isRunning { child.kill() } }
        func passes() -> Int { child.lines.filter { $0.hasPrefix("pass ") }.count }
        let started = ContinuousClock.now + .seconds(120)
        while passes() < 12, child.isRunning, ContinuousClock.now < started { try await Task.sleep(for: .milliseconds(20)) }
        try #require(passes() >= 12, "the readers did not read the log: \(child.lines.suffix(5))")

        var terminated = 0
        for round in 0..<60 where child.isRunning {
            let count = try await TestPostgres.psql(url, """
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                """)
            terminated += Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            try await Task.sleep(for: .milliseconds(50 + (round * 37) % 200))
        }
        #expect(child.isRunning, "the reading process died: \(child.isRunning ? "" : "\(child.ended())") after \(child.lines.suffix(40))")
        #expect(terminated > 60, "too few connections terminated to test anything: \(terminated)")
        // It reads again once the connections come back.
        let before = passes()
        let waited = ContinuousClock.now
        let deadline = waited + .seconds(120)
        while passes() < before + 12, child.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let how = child.isRunning ? "still running" : "ended: \(child.ended())"
        #expect(passes() >= before + 12, "the readers did not read again after the terminations (\(how), \(ContinuousClock.now - waited) waited): \(child.lines.suffix(8)); besides passes and failures: \(child.lines.filter { !$0.hasPrefix("pass ") && !$0.hasPrefix("failed ") }.prefix(60))")
    }
}
