package import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// The baseline `logbook bench log --backend postgres` measures the log against, in the same
/// run and over the same connection pool: the same records, with the same columns, written by a
/// plain multi-row `INSERT` into one table without indexes or constraints, and read back with a
/// plain `SELECT`. For the benchmarks only (it lives here because only this module talks to
/// PostgreSQL).
package struct PostgresRawBaseline: Sendable {
    let client: PostgresClient

    package init(store: PostgresEventStore) { client = store.client }

    /// Empties the database at `url` for the benchmark: drops the log's schema and the
    /// baseline's table, over a connection of its own (before any store prepares the schema).
    package static func emptyDatabase(_ url: PostgresURL) async throws {
        let client = PostgresClient(configuration: url.configuration, backgroundLogger: PostgresLogConfiguration().logger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        try await Task.sleep(for: .milliseconds(10))
        try await client.query("DROP SCHEMA IF EXISTS logbook CASCADE")
        try await client.query("DROP TABLE IF EXISTS logbook_bench_raw")
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
