extension LogSchema {
    /// Schema version 2: what servers sharing the log tell each other: leases and announcements.
    /// `Schemas/postgres/002_servers.sql`, verbatim.
    static let migration002Servers = Migration(version: 2, name: "002_servers", sql: #"""
-- Logbook's log in PostgreSQL, schema version 2: what the servers sharing one log tell each other.
--
-- Times are the database's (now()), never a server's clock: servers whose clocks disagree still
-- agree on who holds a lease and who was seen last.

-- Leases: one holder at a time per name (e.g. 'webhooks': the one server that delivers them).
-- A holder renews before expires_at; anyone may take a lease whose time is up. A write made
-- under a lease locks its row FOR SHARE, so a new holder's claim waits for it to commit.
CREATE TABLE logbook.leases (
    name text PRIMARY KEY,
    holder text NOT NULL,
    expires_at timestamptz NOT NULL
);

-- The servers following this log, each announcing itself every few seconds: where it answers,
-- when it started, the head it saw and how far its read models have followed it.
CREATE TABLE logbook.servers (
    id text PRIMARY KEY,
    name text NOT NULL,
    url text NOT NULL,
    started_at timestamptz NOT NULL,
    seen_at timestamptz NOT NULL,
    head bigint NOT NULL,
    read_through bigint NOT NULL
);
"""#)
}
