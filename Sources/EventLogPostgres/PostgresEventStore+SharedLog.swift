public import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// Leases and the servers' register, in `logbook.leases` and `logbook.servers` (migration 2),
/// timed by the database's clock; kept answers to keyed requests in `logbook.request_keys`
/// (migration 3), timed by the Logbook's.
extension PostgresEventStore: SharedLog {
    public func claimLease(_ name: String, holder: String, for duration: Duration) async throws -> Lease {
        try Self.checkLeaseNames(name, holder)
        let micros = max(duration.microseconds, 1)
        return try await operation("claim a lease") { client in
            // Always an update of the one row (kept as it is unless the lease is free, expired or
            // already ours), so RETURNING answers the lease as it stands after any claim that
            // committed first: ON CONFLICT waits for it and sees it, where a second SELECT in the
            // same statement would see the table as it was when the statement began.
            let query: PostgresQuery = """
                INSERT INTO logbook.leases AS l (name, holder, expires_at)
                VALUES (\(name), \(holder), now() + \(micros) * interval '1 microsecond')
                ON CONFLICT (name) DO UPDATE SET
                    holder = CASE WHEN l.holder = excluded.holder OR l.expires_at <= now() THEN excluded.holder ELSE l.holder END,
                    expires_at = CASE WHEN l.holder = excluded.holder OR l.expires_at <= now() THEN excluded.expires_at ELSE l.expires_at END
                RETURNING holder, (extract(epoch FROM expires_at - now()) * 1000000)::bigint
                """
            var lease: Lease?
            for try await (holder, remaining) in try await client.query(query).decode((String, Int64).self) {
                lease = Lease(holder: holder, remainingMicroseconds: remaining)
            }
            guard let lease else { throw EventStoreError.storage("claiming the lease \(name) answered no row") }
            return lease
        }
    }

    public func releaseLease(_ name: String, holder: String) async throws {
        try Self.checkLeaseNames(name, holder)
        try await operation("release a lease") { client in
            try await client.query("DELETE FROM logbook.leases WHERE name = \(name) AND holder = \(holder)")
            return ()
        }
    }

    public func leaseHolder(_ name: String) async throws -> Lease? {
        try Self.checkLeaseNames(name, "-")
        return try await operation("read a lease") { client in
            let query: PostgresQuery = """
                SELECT holder, (extract(epoch FROM expires_at - now()) * 1000000)::bigint FROM logbook.leases \
                 WHERE name = \(name) AND expires_at > now()
                """
            var lease: Lease?
            for try await (holder, remaining) in try await client.query(query).decode((String, Int64).self) {
                lease = Lease(holder: holder, remainingMicroseconds: remaining)
            }
            return lease
        }
    }

    public func storeCheckpoint(_ checkpoint: Checkpoint, holding name: String, holder: String) async throws -> Bool {
        if let problem = limits.problem(with: checkpoint) { throw problem }
        try Self.checkLeaseNames(name, holder)
        let checkpointName = checkpoint.name
        let position = Int64(clamping: checkpoint.position.rawValue)
        let data = ByteBuffer(bytes: checkpoint.data)
        return try await operation("store a checkpoint under a lease") { client in
            // FOR SHARE: a claim by another server (an UPDATE of the lease's row) waits for this
            // write to commit, and this write sees a claim committed before it.
            let query: PostgresQuery = """
                WITH held AS (
                    SELECT 1 FROM logbook.leases WHERE name = \(name) AND holder = \(holder) AND expires_at > now() FOR SHARE),
                stored AS (
                    INSERT INTO logbook.checkpoints (name, position, data)
                    SELECT \(checkpointName), \(position), \(data) FROM held
                    ON CONFLICT (name) DO UPDATE SET position = excluded.position, data = excluded.data
                    RETURNING 1)
                SELECT count(*)::bigint FROM stored
                """
            var written = false
            for try await count in try await client.query(query).decode(Int64.self) { written = count > 0 }
            return written
        }
    }

    public func announce(_ server: ServerAnnouncement) async throws {
        try Self.checkLeaseNames(server.id, server.name)
        guard server.url.utf8.count <= 2048 else {
            throw EventStoreError.invalidCheckpoint(name: "server \(server.id)", reason: "its URL is \(server.url.utf8.count) bytes, over 2048")
        }
        let (id, name, url) = (server.id, server.name, server.url)
        let started = server.startedAt
        let head = Int64(clamping: server.head.rawValue)
        let through = Int64(clamping: server.readThrough.rawValue)
        try await operation("announce a server") { client in
            try await client.query("""
                INSERT INTO logbook.servers (id, name, url, started_at, seen_at, head, read_through) \
                VALUES (\(id), \(name), \(url), to_timestamp(\(started)::double precision / 1000000), now(), \(head), \(through)) \
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, url = excluded.url, seen_at = now(), \
                head = excluded.head, read_through = excluded.read_through
                """)
            return ()
        }
    }

    public func servers(seenWithin within: Duration, forgetAfter: Duration) async throws -> [AnnouncedServer] {
        let withinMicros = max(within.microseconds, 0)
        let forgetMicros = max(forgetAfter.microseconds, withinMicros)
        return try await operation("list the servers") { client in
            try await client.query("DELETE FROM logbook.servers WHERE seen_at < now() - \(forgetMicros) * interval '1 microsecond'")
            let query: PostgresQuery = """
                SELECT id, name, url, (extract(epoch FROM started_at) * 1000000)::bigint, head, read_through, \
                (extract(epoch FROM now() - seen_at) * 1000000)::bigint FROM logbook.servers \
                WHERE seen_at >= now() - \(withinMicros) * interval '1 microsecond' ORDER BY started_at, id
                """
            var servers: [AnnouncedServer] = []
            for try await (id, name, url, started, head, through, silent)
                in try await client.query(query).decode((String, String, String, Int64, Int64, Int64, Int64).self)
            {
                let announcement = ServerAnnouncement(
                    id: id, name: name, url: url, startedAt: started,
                    head: Position(UInt64(max(head, 0))), readThrough: Position(UInt64(max(through, 0))))
                servers.append(AnnouncedServer(announcement: announcement, silentMicroseconds: max(silent, 0)))
            }
            return servers
        }
    }

    public func keptAnswer(_ key: [UInt8], keptSince notBefore: Int64) async throws -> KeptAnswer? {
        try Self.checkRequestKey(key)
        let keyBytes = ByteBuffer(bytes: key)
        return try await operation("read a kept answer") { client in
            let query: PostgresQuery = """
                SELECT stored_us, fingerprint, status, entity_tag, body FROM logbook.request_keys \
                 WHERE key = \(keyBytes) AND stored_us >= \(notBefore)
                """
            var answer: KeptAnswer?
            for try await (stored, fingerprint, status, tag, body)
                in try await client.query(query).decode((Int64, ByteBuffer, Int32, String?, ByteBuffer).self)
            {
                answer = KeptAnswer(
                    keptAt: stored, fingerprint: Array(fingerprint.readableBytesView), status: Int(status), entityTag: tag,
                    body: Array(body.readableBytesView))
            }
            return answer
        }
    }

    public func keepAnswer(_ answer: KeptAnswer, under key: [UInt8], expiringBefore notBefore: Int64) async throws {
        try Self.checkRequestKey(key)
        guard answer.body.count <= KeptAnswer.maxBodyBytes, answer.fingerprint.count <= 64, (100...599).contains(answer.status),
              (answer.entityTag?.utf8.count ?? 0) <= 1_024
        else {
            throw EventStoreError.invalidCheckpoint(
                name: "request key", reason: "an answer to keep has a status of 100 to 599, a fingerprint of at most 64 bytes, an entity tag of at most 1,024 and a body of at most \(KeptAnswer.maxBodyBytes)")
        }
        let (keyBytes, fingerprint, body) = (ByteBuffer(bytes: key), ByteBuffer(bytes: answer.fingerprint), ByteBuffer(bytes: answer.body))
        let (stored, status, tag) = (answer.keptAt, Int32(answer.status), answer.entityTag)
        try await operation("keep an answer") { client in
            // The first answer kept wins; an expired one is replaced (its key was used again).
            try await client.query("""
                INSERT INTO logbook.request_keys AS k (key, stored_us, fingerprint, status, entity_tag, body) \
                VALUES (\(keyBytes), \(stored), \(fingerprint), \(status), \(tag), \(body)) \
                ON CONFLICT (key) DO UPDATE SET stored_us = excluded.stored_us, fingerprint = excluded.fingerprint, \
                status = excluded.status, entity_tag = excluded.entity_tag, body = excluded.body \
                WHERE k.stored_us < \(notBefore)
                """)
            try await client.query("""
                DELETE FROM logbook.request_keys WHERE key IN \
                (SELECT key FROM logbook.request_keys WHERE stored_us < \(notBefore) ORDER BY stored_us LIMIT 1024)
                """)
            return ()
        }
    }

    private static func checkRequestKey(_ key: [UInt8]) throws {
        guard key.count == 32 else {
            throw EventStoreError.invalidCheckpoint(name: "request key", reason: "a request key is a 32-byte digest, not \(key.count) bytes")
        }
    }

    /// Lease names, holders and server ids and names follow the rules of checkpoint names.
    private static func checkLeaseNames(_ names: String...) throws {
        for name in names {
            if let reason = AppendLimits.nameProblem(name, limit: AppendLimits.maxCheckpointNameBytes) {
                throw EventStoreError.invalidCheckpoint(name: name, reason: reason)
            }
        }
    }
}
