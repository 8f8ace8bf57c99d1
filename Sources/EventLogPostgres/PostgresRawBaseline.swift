package import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// The baseline `logbook-bench log --backend postgres` measures the log against, in the same
/// run and over the same connection pool: the same records, with the same columns, written by a
/// plain multi-row `INSERT` into one table without indexes or constraints, and read back with a
/// plain `SELECT`. For the benchmarks only (it lives here because only this module talks to
/// PostgreSQL).
package struct PostgresRawBaseline: Sendable {
    let client: PostgresClient

    package init(store: PostgresEventStore) { client = store.client }

    /// Makes a database of the benchmark's own on the server `url` points at, named
    /// `logbook_bench_` and random hex, and returns its URL. The database `url` names is only
    /// connected to, to issue `CREATE DATABASE`: a benchmark never writes a log it did not make.
    package static func createOwnDatabase(on url: PostgresURL) async throws -> PostgresURL {
        let name = "logbook_bench_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        do {
            try await withClient(url) { try await $0.query("CREATE DATABASE \(unescaped: name)") }
        } catch {
            throw EventStoreError.storage("""
                the benchmark makes a database of its own on \(url.description) and could not (\(String(reflecting: error))): \
                give the role CREATEDB, or point --postgres at a server where it has it
                """)
        }
        let own = url.naming(database: name)
        try await refuseLogWithEvents(own)
        return own
    }

    /// Drops a database `createOwnDatabase(on:)` made (`own`), over a connection to `url`'s.
    package static func dropOwnDatabase(_ own: PostgresURL, on url: PostgresURL) async throws {
        guard own.database.hasPrefix("logbook_bench_"), own.database != url.database else { return }
        try await withClient(url) { try await $0.query("DROP DATABASE IF EXISTS \(unescaped: own.database) WITH (FORCE)") }
    }

    /// Throws if the database at `url` holds a Logbook log with events: the benchmark empties
    /// the database it measures in, and must never be pointed at one that holds data.
    package static func refuseLogWithEvents(_ url: PostgresURL) async throws {
        let events = try await withClient(url) { client -> Int64 in
            let exists = try await client.query("SELECT to_regclass('logbook.events') IS NOT NULL")
            guard let row = try await exists.collect().first, try row.decode(Bool.self) else { return 0 }
            let rows = try await client.query("SELECT count(*) FROM (SELECT 1 FROM logbook.events LIMIT 1) AS any_event")
            return try await rows.collect().first?.decode(Int64.self) ?? 0
        }
        guard events == 0 else {
            throw EventStoreError.storage("the database at \(url.description) holds a log with events: the benchmark never touches a log that holds events")
        }
    }

    @discardableResult
    private static func withClient<R: Sendable>(_ url: PostgresURL, _ body: (PostgresClient) async throws -> R) async throws -> R {
        let client = PostgresClient(configuration: url.configuration, backgroundLogger: PostgresLogConfiguration().logger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        return try await body(client)
    }

    /// Creates the baseline's table (empty).
    package func reset() async throws {
        try await client.query("DROP TABLE IF EXISTS logbook_bench_raw")
        try await client.query("""
            CREATE TABLE logbook_bench_raw (position bigint, stream text, stream_version bigint, event_id uuid, type text, \
            schema_version integer, subject text, occurred_us bigint, occurred_offset integer, recorded_us bigint, \
            recorded_offset integer, correlation_id uuid, causation_id uuid, metadata bytea, payload bytea, checksum bigint)
            """)
    }

    /// Inserts `events` (stream, stream version, event), the first at position `first`, with one statement.
    package func insert(_ events: [(String, UInt64, ProposedEvent)], first: UInt64, recordedAt: Timestamp) async throws {
        var position: [Int64] = [], stream: [String] = [], version: [Int64] = [], id: [UUID] = [], type: [String] = []
        var schema: [Int32] = [], subject: [String] = [], occurred: [Int64] = [], occurredOffset: [Int32] = []
        var recorded: [Int64] = [], recordedOffset: [Int32] = [], metadata: [ByteBuffer] = [], payload: [ByteBuffer] = []
        var checksum: [Int64] = []
        for (index, (name, streamVersion, event)) in events.enumerated() {
            position.append(Int64(first) + Int64(index))
            stream.append(name)
            version.append(Int64(streamVersion))
            id.append(event.eventId)
            type.append(event.type)
            schema.append(Int32(event.schemaVersion))
            subject.append(event.subject ?? "")
            occurred.append(event.occurredAt.microsecondsSinceEpoch)
            occurredOffset.append(event.occurredAt.utcOffsetSeconds)
            recorded.append(recordedAt.microsecondsSinceEpoch)
            recordedOffset.append(recordedAt.utcOffsetSeconds)
            metadata.append(ByteBuffer(bytes: event.metadata))
            payload.append(ByteBuffer(bytes: event.payload))
            checksum.append(Int64(index))
        }
        try await client.query("""
            INSERT INTO logbook_bench_raw SELECT p, s, v, i, t, sc, nullif(su, ''), o, oo, r, ro, NULL, NULL, m, pa, c \
            FROM unnest(\(position), \(stream), \(version), \(id), \(type), \(schema), \(subject), \(occurred), \(occurredOffset), \
            \(recorded), \(recordedOffset), \(metadata), \(payload), \(checksum)) AS u(p, s, v, i, t, sc, su, o, oo, r, ro, m, pa, c)
            """)
    }

    /// Reads every row back, decoding every column; returns how many.
    package func scan() async throws -> Int {
        var count = 0
        var bytes = 0
        let rows = try await client.query("""
            SELECT position, stream, stream_version, event_id, type, schema_version, subject, occurred_us, occurred_offset, \
            recorded_us, recorded_offset, correlation_id, causation_id, metadata, payload, checksum FROM logbook_bench_raw
            """)
        for try await row in rows {
            let (position, stream, _, _, _, _, _, _, _, _, _, _, _, metadata, payload, _) = try row.decode(
                (Int64, String, Int64, UUID, String, Int32, String?, Int64, Int32, Int64, Int32, UUID?, UUID?, ByteBuffer, ByteBuffer, Int64).self)
            count += 1
            bytes &+= Int(position) &+ stream.utf8.count &+ Array(metadata.readableBytesView).count &+ Array(payload.readableBytesView).count
        }
        precondition(bytes != 0 || count == 0)
        return count
    }

    /// The size of a table with its indexes, in bytes: `logbook.events` or the baseline's.
    package func tableBytes(log: Bool) async throws -> Int {
        let name = log ? "logbook.events" : "logbook_bench_raw"
        var bytes: Int64 = 0
        for try await value in try await client.query("SELECT pg_total_relation_size(\(name)::regclass)").decode(Int64.self) { bytes = value }
        return Int(bytes)
    }
}
