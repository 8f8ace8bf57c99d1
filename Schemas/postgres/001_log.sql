-- Logbook's event log in PostgreSQL, schema version 1. Applied by PostgresEventStore when it
-- connects (under an advisory lock, once, recorded in logbook.migrations); kept here verbatim.
--
-- Positions are gapless and in commit order without a sequence: every append transaction locks
-- the one row of logbook.head (FOR UPDATE) first and releases it only at commit, so commits are
-- serialised and whoever sees position p sees everything below it. The cost: one commit at a
-- time across all servers; events per second come from batching many appends into one call.

CREATE SCHEMA IF NOT EXISTS logbook;

-- The last committed position. One row; its lock is the log's commit lock.
CREATE TABLE logbook.head (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    position bigint NOT NULL CHECK (position >= 0)
);
INSERT INTO logbook.head (id, position) VALUES (true, 0);

-- Every event, never updated or deleted. Times are microseconds since 1970 (UTC) with the UTC
-- offset they were written in. `checksum` is XXH64 of the record's content (everything but
-- position and stream_version), computed by the writer and verified on every read.
CREATE TABLE logbook.events (
    position bigint PRIMARY KEY,
    stream text NOT NULL,
    stream_version bigint NOT NULL,
    event_id uuid NOT NULL UNIQUE,
    type text NOT NULL,
    schema_version integer NOT NULL,
    subject text,
    occurred_us bigint NOT NULL,
    occurred_offset integer NOT NULL,
    recorded_us bigint NOT NULL,
    recorded_offset integer NOT NULL,
    correlation_id uuid,
    causation_id uuid,
    metadata bytea NOT NULL,
    payload bytea NOT NULL,
    checksum bigint NOT NULL,
    UNIQUE (stream, stream_version)
);
CREATE INDEX events_subject ON logbook.events (subject, position) WHERE subject IS NOT NULL;

-- Each stream's last version.
CREATE TABLE logbook.streams (
    stream text PRIMARY KEY,
    version bigint NOT NULL
);

-- Consumers' progress, stored alone or in the same transaction as an append.
CREATE TABLE logbook.checkpoints (
    name text PRIMARY KEY,
    position bigint NOT NULL,
    data bytea NOT NULL
);

-- Appends a batch of independent requests in one transaction, one round trip. Request r owns
-- r_count[r] consecutive entries of the e_* arrays. Sentinels stand for NULL, which PostgreSQL's
-- binary array parameters cannot carry from the client: '' for no subject / no checkpoint, the
-- nil UUID for no correlation or causation, -1 for no subject condition.
--
-- r_expected: -1 any, -2 no stream, -3 stream exists, n >= 0 exactly version n.
-- r_subject_last: with r_subject, the position of that subject's last event the caller's decision
--   saw (0: none); the request is refused if the subject has moved since.
--
-- One row per request. outcome: 0 written, 1 already written (a retry: the original positions),
-- 2 wrong expected version (stream_version: the actual one, NULL if no stream), 3 an event id is
-- used by another stream (event_index, other_stream, other_position), 4 the stream holds only
-- some of the ids (detail: how many), 5 the ids are there out of order (event_index; detail: the
-- version found), 6 the subject moved (detail: its last position now).
CREATE FUNCTION logbook.append(
    r_stream text[], r_expected bigint[], r_count integer[], r_subject text[], r_subject_last bigint[],
    r_checkpoint text[], r_checkpoint_position bigint[], r_checkpoint_data bytea[],
    e_id uuid[], e_type text[], e_schema integer[], e_subject text[],
    e_occurred bigint[], e_occurred_offset integer[], e_recorded bigint[], e_recorded_offset integer[],
    e_correlation uuid[], e_causation uuid[], e_metadata bytea[], e_payload bytea[], e_checksum bigint[])
RETURNS TABLE (
    request integer, outcome smallint, first_position bigint, last_position bigint, stream_version bigint,
    event_index integer, other_stream text, other_position bigint, detail bigint)
LANGUAGE plpgsql AS $$
DECLARE
    head bigint;
    start_head bigint;
    r integer;
    lo integer := 1;
    hi integer;
    n integer;
    stream_name text;
    cur_version bigint;
    expected bigint;
    hits integer;
    hit record;
    nil uuid := '00000000-0000-0000-0000-000000000000';
BEGIN
    SELECT h.position INTO head FROM logbook.head h WHERE h.id FOR UPDATE;
    start_head := head;
    FOR r IN 1 .. coalesce(array_length(r_stream, 1), 0) LOOP
        n := r_count[r];
        hi := lo + n - 1;
        stream_name := r_stream[r];
        request := r - 1;
        outcome := 0; first_position := NULL; last_position := NULL; stream_version := NULL;
        event_index := NULL; other_stream := NULL; other_position := NULL; detail := NULL;

        -- Ids already in the log: another stream's is refused; the same stream's are a retry only
        -- if all of them are there, in order, at consecutive versions.
        SELECT u.ord::integer AS ord, e.stream, e.position INTO hit
          FROM unnest(e_id[lo:hi]) WITH ORDINALITY AS u(id, ord)
          JOIN logbook.events e ON e.event_id = u.id
         WHERE e.stream <> stream_name
         ORDER BY u.ord LIMIT 1;
        IF FOUND THEN
            outcome := 3; event_index := hit.ord - 1; other_stream := hit.stream; other_position := hit.position;
            RETURN NEXT; lo := hi + 1; CONTINUE;
        END IF;
        SELECT count(*)::integer, min(u.ord)::integer, min(e.position), max(e.position), max(e.stream_version),
               count(DISTINCT e.stream_version - u.ord)::integer
          INTO hits, event_index, first_position, last_position, stream_version, detail
          FROM unnest(e_id[lo:hi]) WITH ORDINALITY AS u(id, ord)
          JOIN logbook.events e ON e.event_id = u.id;
        IF hits > 0 THEN
            IF hits < n THEN
                outcome := 4; event_index := event_index - 1; detail := hits;
                first_position := NULL; last_position := NULL; stream_version := NULL;
            ELSIF detail > 1 THEN
                SELECT u.ord::integer - 1, e.stream_version INTO event_index, detail
                  FROM unnest(e_id[lo:hi]) WITH ORDINALITY AS u(id, ord)
                  JOIN logbook.events e ON e.event_id = u.id
                 WHERE e.stream_version - u.ord <> (
                       SELECT f.stream_version - 1 FROM logbook.events f WHERE f.event_id = e_id[lo])
                 ORDER BY u.ord LIMIT 1;
                outcome := 5; first_position := NULL; last_position := NULL; stream_version := NULL;
            ELSE
                outcome := 1; event_index := NULL; detail := NULL;
            END IF;
            RETURN NEXT; lo := hi + 1; CONTINUE;
        END IF;
        event_index := NULL; detail := NULL; first_position := NULL; last_position := NULL; stream_version := NULL;

        SELECT s.version INTO cur_version FROM logbook.streams s WHERE s.stream = stream_name;
        IF NOT FOUND THEN cur_version := NULL; END IF;
        expected := r_expected[r];
        IF (expected = -2 AND cur_version IS NOT NULL) OR (expected = -3 AND cur_version IS NULL)
           OR (expected >= 0 AND cur_version IS DISTINCT FROM expected) THEN
            outcome := 2; stream_version := cur_version;
            RETURN NEXT; lo := hi + 1; CONTINUE;
        END IF;

        IF r_subject[r] <> '' THEN
            SELECT coalesce(max(e.position), 0) INTO detail FROM logbook.events e WHERE e.subject = r_subject[r];
            IF detail <> r_subject_last[r] THEN
                outcome := 6;
                RETURN NEXT; lo := hi + 1; CONTINUE;
            END IF;
            detail := NULL;
        END IF;

        INSERT INTO logbook.events (
            position, stream, stream_version, event_id, type, schema_version, subject, occurred_us, occurred_offset,
            recorded_us, recorded_offset, correlation_id, causation_id, metadata, payload, checksum)
        SELECT head + u.ord, stream_name, coalesce(cur_version, -1) + u.ord, u.id, u.type, u.schema, nullif(u.subject, ''),
               u.occurred, u.occurred_offset, u.recorded, u.recorded_offset, nullif(u.correlation, nil),
               nullif(u.causation, nil), u.metadata, u.payload, u.checksum
          FROM unnest(e_id[lo:hi], e_type[lo:hi], e_schema[lo:hi], e_subject[lo:hi], e_occurred[lo:hi],
                      e_occurred_offset[lo:hi], e_recorded[lo:hi], e_recorded_offset[lo:hi], e_correlation[lo:hi],
                      e_causation[lo:hi], e_metadata[lo:hi], e_payload[lo:hi], e_checksum[lo:hi])
               WITH ORDINALITY AS u(id, type, schema, subject, occurred, occurred_offset, recorded, recorded_offset,
                                    correlation, causation, metadata, payload, checksum, ord);
        INSERT INTO logbook.streams AS s (stream, version) VALUES (stream_name, coalesce(cur_version, -1) + n)
            ON CONFLICT (stream) DO UPDATE SET version = excluded.version;
        IF r_checkpoint[r] <> '' THEN
            INSERT INTO logbook.checkpoints AS c (name, position, data)
                 VALUES (r_checkpoint[r], r_checkpoint_position[r], r_checkpoint_data[r])
            ON CONFLICT (name) DO UPDATE SET position = excluded.position, data = excluded.data;
        END IF;
        first_position := head + 1; last_position := head + n; stream_version := coalesce(cur_version, -1) + n;
        head := head + n;
        RETURN NEXT;
        lo := hi + 1;
    END LOOP;
    IF head <> start_head THEN
        UPDATE logbook.head h SET position = head WHERE h.id;
        PERFORM pg_notify('logbook_head', head::text);
    END IF;
END;
$$;
