import EventLog
import NIOCore
import PostgresNIO

/// The statements on `logbook.request_keys` (migration 3): keeping answers so the first kept
/// wins, reading the answers that stand, and pruning expired ones. Keeping runs inside a
/// transaction — an append's, so an answer is kept with the events it names, or one of its own.
enum KeptAnswerRows {
    /// One answer to keep under a key.
    struct Keeping {
        var key: [UInt8]
        var answer: KeptAnswer
    }

    /// Checks what a shared log agrees to keep: a 32-byte key, a status of 100 to 599, a
    /// fingerprint of at most 64 bytes, an entity tag of at most 1,024 and a bounded body.
    static func problem(key: [UInt8], answer: KeptAnswer) -> EventStoreError? {
        guard key.count == 32 else {
            return .invalidCheckpoint(name: "request key", reason: "a request key is a 32-byte digest, not \(key.count) bytes")
        }
        guard answer.body.count <= KeptAnswer.maxBodyBytes, answer.fingerprint.count <= 64, (100...599).contains(answer.status),
              (answer.entityTag?.utf8.count ?? 0) <= 1_024
        else {
            return .invalidCheckpoint(
                name: "request key", reason: "an answer to keep has a status of 100 to 599, a fingerprint of at most 64 bytes, an entity tag of at most 1,024 and a body of at most \(KeptAnswer.maxBodyBytes)")
        }
        return nil
    }

    /// Keeps `answers` (distinct keys) unless an answer kept since `notBefore` stands under its
    /// key; answers, for every key, the answer that then stands. Always an update of an existing
    /// row (kept as it is unless expired), so RETURNING answers the row as it stands even when
    /// another transaction kept it first and committed while this one waited for the key.
    static func keep(_ answers: [Keeping], expiringBefore notBefore: Int64) -> PostgresQuery {
        let keys = answers.map { ByteBuffer(bytes: $0.key) }
        let stored = answers.map(\.answer.keptAt)
        let fingerprints = answers.map { ByteBuffer(bytes: $0.answer.fingerprint) }
        let statuses = answers.map { Int32($0.answer.status) }
        let tags = answers.map { $0.answer.entityTag ?? "" }
        let tagged = answers.map { $0.answer.entityTag != nil }
        let bodies = answers.map { ByteBuffer(bytes: $0.answer.body) }
        return """
            INSERT INTO logbook.request_keys AS k (key, stored_us, fingerprint, status, entity_tag, body) \
            SELECT key, stored_us, fingerprint, status, CASE WHEN tagged THEN tag END, body \
              FROM unnest(\(keys)::bytea[], \(stored)::bigint[], \(fingerprints)::bytea[], \(statuses)::integer[], \(tags)::text[], \
                          \(tagged)::boolean[], \(bodies)::bytea[]) AS a(key, stored_us, fingerprint, status, tag, tagged, body) \
            ON CONFLICT (key) DO UPDATE SET \
              stored_us = CASE WHEN k.stored_us < \(notBefore) THEN excluded.stored_us ELSE k.stored_us END, \
              fingerprint = CASE WHEN k.stored_us < \(notBefore) THEN excluded.fingerprint ELSE k.fingerprint END, \
              status = CASE WHEN k.stored_us < \(notBefore) THEN excluded.status ELSE k.status END, \
              entity_tag = CASE WHEN k.stored_us < \(notBefore) THEN excluded.entity_tag ELSE k.entity_tag END, \
              body = CASE WHEN k.stored_us < \(notBefore) THEN excluded.body ELSE k.body END \
            RETURNING k.key, k.stored_us, k.fingerprint, k.status, k.entity_tag, k.body
            """
    }

    /// The answers kept under `keys` since `notBefore`.
    static func standing(_ keys: [[UInt8]], keptSince notBefore: Int64) -> PostgresQuery {
        let keys = keys.map { ByteBuffer(bytes: $0) }
        return """
            SELECT key, stored_us, fingerprint, status, entity_tag, body FROM logbook.request_keys \
             WHERE key = ANY(\(keys)::bytea[]) AND stored_us >= \(notBefore)
            """
    }

    /// Removes up to 1,024 answers kept before `notBefore`, oldest first, skipping rows another
    /// transaction holds (two servers pruning at once never wait for each other).
    static func prune(before notBefore: Int64) -> PostgresQuery {
        """
        DELETE FROM logbook.request_keys WHERE key IN \
        (SELECT key FROM logbook.request_keys WHERE stored_us < \(notBefore) ORDER BY stored_us LIMIT 1024 FOR UPDATE SKIP LOCKED)
        """
    }

    /// The answers in rows of ``keep(_:expiringBefore:)`` or ``standing(_:keptSince:)``, by key.
    static func decode(_ rows: [PostgresRow]) throws -> [[UInt8]: KeptAnswer] {
        var answers: [[UInt8]: KeptAnswer] = [:]
        for row in rows {
            let (key, stored, fingerprint, status, tag, body) = try row.decode((ByteBuffer, Int64, ByteBuffer, Int32, String?, ByteBuffer).self)
            answers[Array(key.readableBytesView)] = KeptAnswer(
                keptAt: stored, fingerprint: Array(fingerprint.readableBytesView), status: Int(status), entityTag: tag,
                body: Array(body.readableBytesView))
        }
        return answers
    }
}
