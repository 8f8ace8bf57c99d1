public import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// Leases and the servers' register, in `logbook.leases` and `logbook.servers` (migration 2),
/// timed by the database's clock; kept answers to keyed requests in `logbook.request_keys`
/// (migration 3), timed by the Logbook's. Every write returns once its commit is acknowledged.
extension PostgresEventStore: SharedLog {
    public func claimLease(_ name: String, holder: String, for duration: Duration) async throws -> Lease {
        try Self.checkLeaseNames(name, holder)
        let micros = max(duration.microseconds, 1)
        return try await write("claim a lease") { transaction in
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
            for row in try await transaction.rows(query) {
                let (holder, remaining) = try row.decode((String, Int64).self)
                lease = Lease(holder: holder, remainingMicroseconds: remaining)
            }
            guard let lease else { throw EventStoreError.storage("claiming the lease \(name) answered no row") }
            return lease
        }
    }

    public func releaseLease(_ name: String, holder: String) async throws {
        try Self.checkLeaseNames(name, holder)
        try await write("release a lease") { transaction in
            try await transaction.rows("DELETE FROM logbook.leases WHERE name = \(name) AND holder = \(holder)")
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
            for row in try await client.rows(query) {
                let (holder, remaining) = try row.decode((String, Int64).self)
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
        return try await write("store a checkpoint under a lease") { transaction in
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
            for row in try await transaction.rows(query) { written = try row.decode(Int64.self) > 0 }
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
        try await write("announce a server") { transaction in
            try await transaction.rows("""
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
        try await write("forget silent servers") { transaction in
            try await transaction.rows("DELETE FROM logbook.servers WHERE seen_at < now() - \(forgetMicros) * interval '1 microsecond'")
            return ()
        }
        return try await operation("list the servers") { client in
            let query: PostgresQuery = """
                SELECT id, name, url, (extract(epoch FROM started_at) * 1000000)::bigint, head, read_through, \
                (extract(epoch FROM now() - seen_at) * 1000000)::bigint FROM logbook.servers \
                WHERE seen_at >= now() - \(withinMicros) * interval '1 microsecond' ORDER BY started_at, id
                """
            var servers: [AnnouncedServer] = []
            for row in try await client.rows(query) {
                let (id, name, url, started, head, through, silent) = try row.decode((String, String, String, Int64, Int64, Int64, Int64).self)
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
        return try await operation("read a kept answer") { client in
            try KeptAnswerRows.decode(try await client.rows(KeptAnswerRows.standing([key], keptSince: notBefore)))[key]
        }
    }

    @discardableResult
    public func keepAnswer(_ answer: KeptAnswer, under key: [UInt8], expiringBefore notBefore: Int64) async throws -> KeptAnswer {
        if let problem = KeptAnswerRows.problem(key: key, answer: answer) { throw problem }
        return try await write("keep an answer") { transaction in
            // The first answer kept wins; an expired one is replaced (its key was used again).
            try await transaction.rows(KeptAnswerRows.prune(before: notBefore))
            let standing = try KeptAnswerRows.decode(
                try await transaction.rows(KeptAnswerRows.keep([.init(key: key, answer: answer)], expiringBefore: notBefore)))
            guard let kept = standing[key] else { throw EventStoreError.storage("keeping an answer answered no row") }
            return kept
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
