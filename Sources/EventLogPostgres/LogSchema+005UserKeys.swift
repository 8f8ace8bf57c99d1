extension LogSchema {
    /// Schema version 5: each user's payload key, and how the log keeps payloads.
    /// `Schemas/postgres/005_user_keys.sql`, verbatim.
    static let migration005UserKeys = Migration(version: 5, name: "005_user_keys", sql: #"""
-- Logbook's log in PostgreSQL, schema version 5: each user's payload key, so a log
-- several servers share seals its events' payloads as the embedded store does and can erase a user.
--
-- settings holds how the log keeps payloads (name 'payloads': plaintext, or the sealing format),
-- recorded by the first server that opens the log: a log that already has events when it is
-- recorded keeps plaintext. A key is made (in a transaction of its own, committed before the
-- first event it seals is appended) once per user; the first made wins. Erasing a user marks the
-- row erasing, appends user.erased, then sets key to NULL (the key is destroyed: a NULL key is a
-- tombstone, for good) with compaction_owed, and rewrites the table (VACUUM FULL), so the key's
-- bytes leave its file; compaction_owed is cleared once a rewrite ran with no older snapshot open.
-- erasing stays true on a row whose erasure a crash cut off; a server that opens the log finishes
-- it, and any compaction still owed.
CREATE TABLE logbook.settings (
    name text COLLATE "C" PRIMARY KEY,
    value text NOT NULL
);
CREATE TABLE logbook.user_keys (
    user_id text COLLATE "C" PRIMARY KEY,
    key bytea CHECK (octet_length(key) = 32),
    erasing boolean NOT NULL DEFAULT false,
    compaction_owed boolean NOT NULL DEFAULT false
);
"""#)
}
