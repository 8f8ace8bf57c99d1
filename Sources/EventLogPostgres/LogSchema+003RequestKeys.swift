extension LogSchema {
    /// Schema version 3: the kept answers of Idempotency-Key requests.
    /// `Schemas/postgres/003_request_keys.sql`, verbatim.
    static let migration003RequestKeys = Migration(version: 3, name: "003_request_keys", sql: #"""
-- Logbook's log in PostgreSQL, schema version 3: the answers to keyed requests (HTTP's
-- Idempotency-Key), shared by every server, so a retry that reaches another server gets the
-- original answer byte for byte.
--
-- key is a digest of the caller and their key (32 bytes); stored_us is when the answer was kept,
-- by the Logbook's clock, in microseconds since 1970. Rows older than the retention are ignored
-- and pruned, oldest first, as new ones are kept.
CREATE TABLE logbook.request_keys (
    key bytea PRIMARY KEY,
    stored_us bigint NOT NULL,
    fingerprint bytea NOT NULL,
    status integer NOT NULL,
    entity_tag text,
    body bytea NOT NULL
);
CREATE INDEX request_keys_stored ON logbook.request_keys (stored_us);
"""#)
}
