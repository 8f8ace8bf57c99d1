public import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// Each user's payload key in `logbook.user_keys`, and how the log keeps payloads in
/// `logbook.settings` (migration 5). Servers learn of an erasure from the log itself: the
/// `user.erased` event reaches every subscription in order, woken by the head's NOTIFY.
extension PostgresEventStore {
    public func payloadFormat(proposing proposed: String) async throws -> String {
        guard !proposed.isEmpty, proposed.utf8.count <= 64, !proposed.utf8.contains(0) else {
            throw EventStoreError.invalidCheckpoint(name: "payloads", reason: "a payload format is 1 to 64 bytes without NUL")
        }
        return try await write("read how the log keeps payloads") { transaction in
            // The first server to open the log records it; a log with events already keeps plaintext.
            try await transaction.rows("""
                INSERT INTO logbook.settings (name, value) \
                SELECT 'payloads', CASE WHEN EXISTS (SELECT 1 FROM logbook.events) THEN 'plaintext' ELSE \(proposed) END \
                ON CONFLICT (name) DO NOTHING
                """)
            var format: String?
            for row in try await transaction.rows("SELECT value FROM logbook.settings WHERE name = 'payloads'") {
                format = try row.decode(String.self)
            }
            guard let format else { throw EventStoreError.storage("logbook.settings has no payload format after recording one") }
            return format
        }
    }

    public func userKeys(of users: [String]) async throws -> [String: StoredUserKey] {
        let users = try Self.checkedUsers(users)
        guard !users.isEmpty else { return [:] }
        return try await operation("read users' keys") { client in try await Self.readKeys(users) { try await client.rows($0) } }
    }

    public func makeUserKeys(_ keys: [String: [UInt8]]) async throws -> [String: StoredUserKey] {
        let users = try Self.checkedUsers(Array(keys.keys))
        guard !users.isEmpty else { return [:] }
        guard keys.values.allSatisfy({ $0.count == 32 }) else {
            throw EventStoreError.invalidCheckpoint(name: "user key", reason: "a user's key is 32 bytes")
        }
        // In byte order, so two servers making overlapping keys take the rows' locks in one order.
        let values = users.map { ByteBuffer(bytes: keys[$0]!) }
        return try await write("make users' keys") { transaction in
            try await transaction.rows("""
                INSERT INTO logbook.user_keys (user_id, key) SELECT * FROM unnest(\(users)::text[], \(values)::bytea[]) \
                ON CONFLICT (user_id) DO NOTHING
                """)
            return try await Self.readKeys(users) { try await transaction.rows($0) }
        }
    }

    public func beginErasing(_ user: String) async throws {
        let user = try Self.checkedUsers([user])[0]
        try await write("begin an erasure") { transaction in
            try await transaction.rows("UPDATE logbook.user_keys SET erasing = true WHERE user_id = \(user) AND key IS NOT NULL")
            return ()
        }
    }

    @discardableResult
    public func destroyUserKey(_ user: String) async throws -> Bool {
        let user = try Self.checkedUsers([user])[0]
        let destroyed = try await write("destroy a user's key") { transaction in
            // The tombstone records, in its own transaction, that the table's rewrite is owed.
            let query: PostgresQuery = """
                UPDATE logbook.user_keys k SET key = NULL, erasing = false, compaction_owed = k.compaction_owed OR old.held \
                FROM (SELECT user_id, key IS NOT NULL AS held FROM logbook.user_keys WHERE user_id = \(user) FOR UPDATE) old \
                WHERE k.user_id = old.user_id RETURNING old.held
                """
            var held: Bool?
            for row in try await transaction.rows(query) { held = try row.decode(Bool.self) }
            if held == nil {
                // A user who never had a key: the tombstone still refuses everything new for them.
                try await transaction.rows("INSERT INTO logbook.user_keys (user_id, key) VALUES (\(user), NULL) ON CONFLICT (user_id) DO UPDATE SET key = NULL")
            }
            return held == true
        }
        // An UPDATE leaves the old row's bytes in the table's file until it is rewritten.
        if destroyed { try await finishOwedKeyCompaction() }
        return destroyed
    }

    /// Rewrites `logbook.user_keys` into a new file (VACUUM FULL: a moment's exclusive lock on a
    /// table of a few bytes per user) if a destroyed key's rewrite is owed, so its bytes are in no
    /// file of the table. The debt is cleared only if no other session of the server — in any of
    /// its databases: a transaction in another database holds back what the rewrite may drop too —
    /// held a snapshot from before the newest owed destruction when the rewrite began (such a
    /// snapshot — a backup's, say — keeps the old row in the new file). Most such snapshots are brief (a
    /// read the server itself began a moment before, a session still ending), so the rewrite is
    /// tried up to ``keyCompactionAttempts`` times, 0.1, 0.2, 0.4 … s apart; one still open after
    /// that leaves the debt to the next call (the next erasure or open). A lock another session
    /// holds on the table (a dump's) is waited for a second at each try, not until it ends.
    public func finishOwedKeyCompaction() async throws {
        for attempt in 0..<Self.keyCompactionAttempts {
            let (owed, quiet) = try await compactKeysIfOwed()
            if owed.isEmpty { return }
            if quiet {
                try await write("record the users' keys compacted") { transaction in
                    try await transaction.rows("UPDATE logbook.user_keys SET compaction_owed = false WHERE user_id = ANY(\(owed)::text[])")
                    return ()
                }
                return
            }
            if attempt + 1 < Self.keyCompactionAttempts { try await Task.sleep(for: .milliseconds(100 << attempt)) }
        }
    }

    /// How many times ``finishOwedKeyCompaction()`` rewrites the table while an older snapshot keeps the debt.
    static let keyCompactionAttempts = 5

    /// One rewrite, if any is owed: the users it is owed for, and whether no older snapshot was open when it began.
    private func compactKeysIfOwed() async throws -> (owed: [String], quiet: Bool) {
        try await operation("compact the users' keys") { client in
            var owed: [String] = []
            var quiet = false
            let query: PostgresQuery = """
                SELECT array_agg(user_id), NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE \
                   pid <> pg_backend_pid() AND backend_xmin IS NOT NULL AND age(backend_xmin) >= min(age(k.xmin))) \
                  FROM logbook.user_keys k WHERE compaction_owed HAVING count(*) > 0
                """
            for row in try await client.rows(query) { (owed, quiet) = try row.decode(([String], Bool).self) }
            guard !owed.isEmpty else { return (owed: owed, quiet: quiet) }
            return (owed: owed, quiet: try await Self.rewriteKeys(client) && quiet)
        }
    }

    /// Rewrites `logbook.user_keys` (VACUUM FULL: outside any transaction, committed when it
    /// answers); false, with nothing changed, when another session holds a lock on the table for
    /// more than a second — a dump reads it in one long transaction — so the rewrite stays owed
    /// and the erasure that asked for it is not held up by the backup.
    private static func rewriteKeys(_ client: PostgresClient) async throws -> Bool {
        try await client.withConnection { connection in
            try await connection.rows("SET lock_timeout = '1s'", logger: quietLogger)
            let rewritten: Bool
            do {
                try await connection.rows("VACUUM FULL logbook.user_keys", logger: quietLogger)
                rewritten = true
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
                // lock_not_available: the lock was not granted in time.
                rewritten = false
            } catch {
                _ = try? await connection.rows("RESET lock_timeout", logger: quietLogger)
                throw error
            }
            try await connection.rows("RESET lock_timeout", logger: quietLogger)
            return rewritten
        }
    }

    public func unfinishedErasures() async throws -> [String] {
        try await users("list unfinished erasures", where: "erasing AND key IS NOT NULL")
    }

    public func erasedUsers() async throws -> [String] {
        try await users("list erased users", where: "key IS NULL")
    }

    private func users(_ what: String, where condition: String) async throws -> [String] {
        try await operation(what) { client in
            var users: [String] = []
            for row in try await client.rows("SELECT user_id FROM logbook.user_keys WHERE \(unescaped: condition) ORDER BY user_id") {
                users.append(try row.decode(String.self))
            }
            return users
        }
    }

    /// The keys of `users`, read by `rows`.
    private static func readKeys(
        _ users: [String], _ rows: (PostgresQuery) async throws -> [PostgresRow]
    ) async throws -> [String: StoredUserKey] {
        var found: [String: StoredUserKey] = [:]
        let query: PostgresQuery = "SELECT user_id, key FROM logbook.user_keys WHERE user_id = ANY(\(users)::text[])"
        for row in try await rows(query) {
            let (user, key) = try row.decode((String, ByteBuffer?).self)
            if let key {
                guard key.readableBytes == 32 else { throw EventStoreError.storage("the key of user \"\(user)\" in logbook.user_keys is not 32 bytes") }
                found[user] = .key(Array(key.readableBytesView))
            } else {
                found[user] = .erased
            }
        }
        return found
    }

    /// Users as subjects are: checked like stream names, distinct, in byte order.
    private static func checkedUsers(_ users: [String]) throws -> [String] {
        for user in users {
            if let reason = AppendLimits.nameProblem(user, limit: AppendLimits.maxSubjectBytes) {
                throw EventStoreError.invalidCheckpoint(name: "user \(user)", reason: reason)
            }
        }
        return Set(users.map(BytewiseString.init)).map(\.value).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
