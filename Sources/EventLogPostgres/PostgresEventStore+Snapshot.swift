public import EventLog
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// Backup and restore of the log in PostgreSQL: a snapshot is one repeatable-read, read-only
/// transaction (every row it hands out is as of its first statement, while servers append); a
/// load is one transaction that inserts rows as they were and commits only when its body returns.
/// Leases and the servers' register are not part of either: they describe running servers.
extension PostgresEventStore: SnapshotLog {
    public func readSnapshot<R: Sendable>(_ body: @Sendable (any LogSnapshotReader) async throws -> R) async throws -> R {
        let logger = configuration.logger
        return try await inTransaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            var head: Int64 = 0
            for row in try await connection.rows("SELECT position FROM logbook.head WHERE id", logger: logger) { head = try row.decode(Int64.self) }
            return try await body(PostgresSnapshotReader(connection: connection, logger: logger, head: Position(UInt64(max(head, 0)))))
        }
    }

    public func loadIntoEmptyLog<R: Sendable>(_ body: @Sendable (any LogLoader) async throws -> R) async throws -> R {
        let logger = configuration.logger
        let limits = self.limits
        let result = try await inTransaction("BEGIN") { connection in
            // The head's lock first, as every append takes it: no append can slip in meanwhile.
            let query: PostgresQuery = """
                SELECT h.position, (SELECT count(*) FROM logbook.events), (SELECT count(*) FROM logbook.checkpoints), \
                (SELECT count(*) FROM logbook.request_keys), (SELECT count(*) FROM logbook.user_keys) FROM logbook.head h WHERE h.id FOR UPDATE
                """
            for row in try await connection.rows(query, logger: logger) {
                let (head, events, checkpoints, answers, keys) = try row.decode((Int64, Int64, Int64, Int64, Int64).self)
                guard head == 0, events == 0, checkpoints == 0, answers == 0, keys == 0 else {
                    throw EventStoreError.storage(
                        "the target log is not empty (head \(head), \(events) events, \(checkpoints) checkpoints, \(answers) kept answers, "
                            + "\(keys) users' keys): restore into a database that holds no log yet")
                }
            }
            let loader = PostgresLogLoader(connection: connection, logger: logger, limits: limits)
            let result = try await body(loader)
            guard loader.finished else { throw EventStoreError.storage("a load ended without setting the head: nothing was committed") }
            return result
        }
        if let head = try? await headPosition() { watcher.publish(head.rawValue) }
        return result
    }

    public func discardLoadedLog(head: Position) async throws {
        let logger = configuration.logger
        let expected = Int64(clamping: head.rawValue)
        try await inTransaction("BEGIN") { connection in
            var current: Int64 = -1
            for row in try await connection.rows("SELECT position FROM logbook.head WHERE id FOR UPDATE", logger: logger) {
                current = try row.decode(Int64.self)
            }
            guard current == expected else {
                throw EventStoreError.storage(
                    "the restored log's head is \(current), not \(expected): something appended after the restore, so it is kept")
            }
            // No server may follow the target while a restore runs (it is empty until the load
            // commits): one that did would have to rebuild its read models after this.
            for statement in ["DELETE FROM logbook.events", "DELETE FROM logbook.checkpoints", "DELETE FROM logbook.request_keys",
                              "DELETE FROM logbook.user_keys", "DELETE FROM logbook.settings", "UPDATE logbook.head SET position = 0 WHERE id"] {
                try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
    }

    /// Runs `body` on one connection inside a transaction begun with `begin`, committing if it
    /// returns and rolling back if it throws. No deadline: a backup reads as long as the log is.
    private func inTransaction<R: Sendable>(
        _ begin: String, _ body: @Sendable (PostgresConnection) async throws -> R
    ) async throws -> R {
        let logger = configuration.logger
        do {
            return try await client.withConnection { connection in
                try await connection.rows(PostgresQuery(unsafeSQL: begin), logger: logger)
                do {
                    let result = try await body(connection)
                    try await connection.rows("COMMIT", logger: logger)
                    return result
                } catch {
                    do {
                        try await connection.rows("ROLLBACK", logger: logger)
                    } catch {
                        // Still inside the transaction, perhaps holding the head's lock: never back to the pool.
                        try? await connection.close()
                    }
                    // The caller's own errors (a backup's, say) reach it as they are.
                    throw error is PSQLError || error is PostgresDecodingError ? error : CallerError(error: error)
                }
            }
        } catch let error as CallerError {
            throw error.error
        } catch {
            throw PostgresErrors.mapped(error)
        }
    }

    /// An error a transaction's body threw that is not PostgreSQL's: passed through unmapped.
    private struct CallerError: Error {
        let error: any Error
    }

    /// The SQL of a digest of the whole log through a head (`$1`): SHA-256 over three digests —
    /// the events' positions, stream versions and checksums (SHA-256 over pages of 65,536
    /// positions, each page's SHA-256 of its rows' 24 big-endian bytes, so no single value grows
    /// with the log); every checkpoint (name, position, data) in bytewise order of names; every
    /// kept answer (key, time, fingerprint, status, entity tag — `\xff` for none, never UTF-8 —
    /// and body) in order of keys. Rows are hashed to fixed sizes first, so no two logs run together.
    static let rowsDigestSQL = """
        SELECT encode(sha256(
          (SELECT sha256(coalesce(string_agg(d, ''::bytea ORDER BY p), ''::bytea)) FROM (
             SELECT position / 65536 AS p,
                    sha256(string_agg(int8send(position) || int8send(stream_version) || int8send(checksum), ''::bytea ORDER BY position)) AS d
               FROM logbook.events WHERE position <= $1 GROUP BY 1) pages)
          || (SELECT sha256(coalesce(string_agg(sha256(convert_to(name, 'UTF8')) || int8send(position) || sha256(data), ''::bytea
                                                ORDER BY name COLLATE "C"), ''::bytea)) FROM logbook.checkpoints)
          || (SELECT sha256(coalesce(string_agg(sha256(key) || int8send(stored_us) || sha256(fingerprint) || int4send(status)
                                                || sha256(coalesce(convert_to(entity_tag, 'UTF8'), '\\xff'::bytea)) || sha256(body), ''::bytea
                                                ORDER BY key), ''::bytea)) FROM logbook.request_keys)
        ), 'hex')
        """

    static func rowsDigest(_ connection: PostgresConnection, through head: Position, logger: Logger) async throws -> String {
        var bindings = PostgresBindings()
        bindings.append(Int64(clamping: head.rawValue))
        var digest = ""
        for row in try await connection.rows(PostgresQuery(unsafeSQL: rowsDigestSQL, binds: bindings), logger: logger) {
            digest = try row.decode(String.self)
        }
        return digest
    }
}

/// A snapshot's reads, on the connection holding its transaction.
struct PostgresSnapshotReader: LogSnapshotReader {
    let connection: PostgresConnection
    let logger: Logger
    let head: Position

    func events(after position: Position, limit: Int) async throws -> [RecordedEvent] {
        let (after, through, count) = (Int64(clamping: position.rawValue), Int64(clamping: head.rawValue), Int64(max(limit, 0)))
        let query: PostgresQuery = """
            SELECT \(unescaped: EventRow.columns) FROM logbook.events WHERE position > \(after) AND position <= \(through) \
            ORDER BY position LIMIT \(count)
            """
        var events: [RecordedEvent] = []
        for row in try await connection.rows(query, logger: logger) { events.append(try EventRow.decode(row)) }
        return events
    }

    func checkpoints(after name: String, limit: Int) async throws -> [Checkpoint] {
        let count = Int64(max(limit, 0))
        let query: PostgresQuery = """
            SELECT name, position, data FROM logbook.checkpoints WHERE name COLLATE "C" > \(name) \
            ORDER BY name COLLATE "C" LIMIT \(count)
            """
        var checkpoints: [Checkpoint] = []
        for row in try await connection.rows(query, logger: logger) {
            let (name, position, data) = try row.decode((String, Int64, ByteBuffer).self)
            checkpoints.append(Checkpoint(name: name, position: Position(UInt64(max(position, 0))), data: Array(data.readableBytesView)))
        }
        return checkpoints
    }

    func keptAnswers(after key: [UInt8], limit: Int) async throws -> [KeyedAnswer] {
        let (after, count) = (ByteBuffer(bytes: key), Int64(max(limit, 0)))
        let query: PostgresQuery = """
            SELECT key, stored_us, fingerprint, status, entity_tag, body FROM logbook.request_keys WHERE key > \(after) \
            ORDER BY key LIMIT \(count)
            """
        var answers: [KeyedAnswer] = []
        for row in try await connection.rows(query, logger: logger) {
            let (key, stored, fingerprint, status, tag, body) = try row.decode((ByteBuffer, Int64, ByteBuffer, Int32, String?, ByteBuffer).self)
            answers.append(KeyedAnswer(
                key: Array(key.readableBytesView),
                answer: KeptAnswer(
                    keptAt: stored, fingerprint: Array(fingerprint.readableBytesView), status: Int(status), entityTag: tag,
                    body: Array(body.readableBytesView))))
        }
        return answers
    }

    func rowsDigest() async throws -> String {
        try await PostgresEventStore.rowsDigest(connection, through: head, logger: logger)
    }

    func payloadFormat() async throws -> String? {
        var format: String?
        for row in try await connection.rows("SELECT value FROM logbook.settings WHERE name = 'payloads'", logger: logger) {
            format = try row.decode(String.self)
        }
        return format
    }

    func userKeys(after user: String, limit: Int) async throws -> [UserKeyRow] {
        let count = Int64(max(limit, 0))
        let query: PostgresQuery = """
            SELECT user_id, key, erasing FROM logbook.user_keys WHERE user_id > \(user) ORDER BY user_id LIMIT \(count)
            """
        var rows: [UserKeyRow] = []
        for row in try await connection.rows(query, logger: logger) {
            let (user, key, erasing) = try row.decode((String, ByteBuffer?, Bool).self)
            rows.append(UserKeyRow(user: user, key: key.map { .key(Array($0.readableBytesView)) } ?? .erased, erasing: erasing))
        }
        return rows
    }
}

/// A load's inserts, on the connection holding its transaction. Events must come in position
/// order from 1 with no gap; each is checked against the log's limits as an append is, and its
/// checksum computed again from its content.
final class PostgresLogLoader: LogLoader {
    let connection: PostgresConnection
    let logger: Logger
    let limits: AppendLimits
    private let state = Mutex<(next: UInt64, finished: Bool)>((1, false))

    init(connection: PostgresConnection, logger: Logger, limits: AppendLimits) {
        self.connection = connection
        self.logger = logger
        self.limits = limits
    }

    var finished: Bool { state.withLock { $0.finished } }

    func insert(_ events: [RecordedEvent]) async throws {
        guard !events.isEmpty else { return }
        var expected = state.withLock { $0.next }
        var positions: [Int64] = [], streams: [String] = [], versions: [Int64] = []
        var columns = EventColumns()
        for event in events {
            guard event.position.rawValue == expected else {
                throw EventStoreError.storage("a load must bring positions 1, 2, 3, … in order: position \(event.position) came where \(expected) was due")
            }
            let proposed = ProposedEvent(
                eventId: event.eventId, type: event.type, schemaVersion: event.schemaVersion, subject: event.subject,
                occurredAt: event.occurredAt, recordedAt: event.recordedAt, correlationId: event.correlationId,
                causationId: event.causationId, metadata: event.metadata, payload: event.payload)
            if let problem = limits.problem(with: AppendRequest(stream: event.stream, events: [proposed], expectedVersion: .any)) {
                throw problem
            }
            guard let version = Int64(exactly: event.streamVersion), let position = Int64(exactly: expected) else {
                throw EventStoreError.storage("the event at position \(event.position) has a stream version out of range")
            }
            positions.append(position)
            streams.append(event.stream)
            versions.append(version)
            columns.append(
                stream: event.stream, header: event.envelope.header, recordedAt: event.recordedAt, metadata: event.metadata, payload: event.payload)
            expected += 1
        }
        let (nilID, c) = (EventColumns.nilID, columns)
        let query: PostgresQuery = """
            INSERT INTO logbook.events (\(unescaped: EventRow.columns))
            SELECT u.position, u.stream, u.version, u.id, u.type, u.schema, nullif(u.subject, ''), u.occurred, u.occurred_offset,
                   u.recorded, u.recorded_offset, nullif(u.correlation, \(nilID)), nullif(u.causation, \(nilID)), u.metadata, u.payload,
                   u.checksum
              FROM unnest(\(positions), \(streams), \(versions), \(c.ids), \(c.types), \(c.schemas), \(c.subjects), \(c.occurred),
                          \(c.occurredOffsets), \(c.recorded), \(c.recordedOffsets), \(c.correlations), \(c.causations), \(c.metadata),
                          \(c.payloads), \(c.checksums))
                   AS u(position, stream, version, id, type, schema, subject, occurred, occurred_offset, recorded, recorded_offset,
                        correlation, causation, metadata, payload, checksum)
            """
        try await connection.rows(query, logger: logger)
        state.withLock { $0.next = expected }
    }

    func insert(_ checkpoints: [Checkpoint]) async throws {
        for checkpoint in checkpoints {
            if let problem = limits.problem(with: checkpoint) { throw problem }
            let (name, position, data) = (checkpoint.name, Int64(clamping: checkpoint.position.rawValue), ByteBuffer(bytes: checkpoint.data))
            try await connection.rows(
                "INSERT INTO logbook.checkpoints (name, position, data) VALUES (\(name), \(position), \(data))", logger: logger)
        }
    }

    func insert(_ answers: [KeyedAnswer]) async throws {
        for keyed in answers {
            let answer = keyed.answer
            guard keyed.key.count == 32, answer.body.count <= KeptAnswer.maxBodyBytes, answer.fingerprint.count <= 64,
                  (100...599).contains(answer.status), (answer.entityTag?.utf8.count ?? 0) <= 1_024
            else {
                throw EventStoreError.storage(
                    "a kept answer to load has a 32-byte key, a status of 100 to 599, a fingerprint of at most 64 bytes, "
                        + "an entity tag of at most 1,024 and a body of at most \(KeptAnswer.maxBodyBytes)")
            }
            let (key, fingerprint, body) = (ByteBuffer(bytes: keyed.key), ByteBuffer(bytes: answer.fingerprint), ByteBuffer(bytes: answer.body))
            let (stored, status, tag) = (answer.keptAt, Int32(answer.status), answer.entityTag)
            try await connection.rows("""
                INSERT INTO logbook.request_keys (key, stored_us, fingerprint, status, entity_tag, body) \
                VALUES (\(key), \(stored), \(fingerprint), \(status), \(tag), \(body))
                """, logger: logger)
        }
    }

    func insert(_ keys: [UserKeyRow]) async throws {
        guard !keys.isEmpty else { return }
        // A tombstone goes as empty bytes (arrays bind no NULL), NULL in the table.
        var users: [String] = [], values: [ByteBuffer] = [], erasing: [Bool] = []
        for row in keys {
            if let reason = AppendLimits.nameProblem(row.user, limit: AppendLimits.maxSubjectBytes) {
                throw EventStoreError.storage("a user's key to load names user \"\(row.user)\": \(reason)")
            }
            users.append(row.user)
            switch row.key {
            case .key(let bytes):
                guard bytes.count == 32 else { throw EventStoreError.storage("the key of user \"\(row.user)\" to load is \(bytes.count) bytes, not 32") }
                values.append(ByteBuffer(bytes: bytes))
                erasing.append(row.erasing)
            case .erased:
                values.append(ByteBuffer())
                erasing.append(false)
            }
        }
        try await connection.rows("""
            INSERT INTO logbook.user_keys (user_id, key, erasing) \
            SELECT u, nullif(k, ''::bytea), e FROM unnest(\(users)::text[], \(values)::bytea[], \(erasing)::boolean[]) AS r(u, k, e)
            """, logger: logger)
    }

    func recordPayloadFormat(_ format: String) async throws {
        try await connection.rows("""
            INSERT INTO logbook.settings (name, value) VALUES ('payloads', \(format)) ON CONFLICT (name) DO UPDATE SET value = excluded.value
            """, logger: logger)
    }

    func finish(head: Position) async throws -> LoadedLog {
        let value = Int64(clamping: head.rawValue)
        try await connection.rows("UPDATE logbook.head SET position = \(value) WHERE id", logger: logger)
        var loaded = LoadedLog(head: head, events: 0, checkpoints: 0, keptAnswers: 0, rowsDigest: "")
        let query: PostgresQuery = """
            SELECT (SELECT count(*) FROM logbook.events), (SELECT coalesce(max(position), 0) FROM logbook.events), \
            (SELECT count(*) FROM logbook.checkpoints), (SELECT count(*) FROM logbook.request_keys), (SELECT count(*) FROM logbook.user_keys)
            """
        for row in try await connection.rows(query, logger: logger) {
            let (events, last, checkpoints, answers, keys) = try row.decode((Int64, Int64, Int64, Int64, Int64).self)
            guard events == last, last == value else {
                throw EventStoreError.storage("the loaded log holds \(events) events up to position \(last), not 1 through \(value)")
            }
            loaded.events = UInt64(events)
            loaded.checkpoints = Int(checkpoints)
            loaded.keptAnswers = Int(answers)
            loaded.userKeys = Int(keys)
        }
        loaded.rowsDigest = try await PostgresEventStore.rowsDigest(connection, through: head, logger: logger)
        try await connection.rows("SELECT pg_notify('logbook_head', \(String(value)))", logger: logger)
        state.withLock { $0.finished = true }
        return loaded
    }
}
