extension LogSchema {
    /// Schema version 1: the log: head, events, checkpoints and logbook.append.
    /// `Schemas/postgres/001_log.sql`, verbatim.
    static let migration001Log = Migration(version: 1, name: "001_log", sql: #"""
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

-- Consumers' progress, stored alone or in the same transaction as an append.
CREATE TABLE logbook.checkpoints (
    name text PRIMARY KEY,
    position bigint NOT NULL,
    data bytea NOT NULL
);

-- Appends a batch of independent requests in one transaction, one round trip. Request r owns
-- r_count[r] consecutive entries of the e_* arrays, each marked with its request (e_request, from
-- 1) and its place in it (e_ordinal, from 1). No event id may appear in two requests of one call
-- (the client sends such a request in a call of its own). Sentinels stand for NULL, which
-- PostgreSQL's binary array parameters cannot carry from the client: '' for no subject / no
-- checkpoint, the nil UUID for no correlation or causation, -1 for no subject condition.
--
-- r_expected: -1 any, -2 no stream, -3 stream exists, n >= 0 exactly version n.
-- r_subject_last: with r_subject, the position of that subject's last event the caller's decision
--   saw (0: none); the request is refused if the subject has moved since.
--
-- One row of arrays, one entry per request (-1, 0 or '' where an entry does not apply). outcome:
-- 0 written, 1 already written (a retry: the original positions), 2 wrong expected version
-- (stream_version: the actual one, -1 if no stream), 3 an event id is used by another stream
-- (event_index, other_stream, other_position), 4 the stream holds only some of the ids
-- (event_index: the first found; detail: how many), 5 the ids are there out of order
-- (event_index; detail: the version found), 6 the subject moved (detail: its last position now).
--
-- The cost stays linear in the batch and set-based: one indexed join finds the ids already in
-- the log, one index probe per request reads its stream's version, the per-request loop runs on arrays only (SQL
-- only for subject conditions and checkpoints), and one INSERT each writes the accepted events
-- (in position order). A stream's version is its last event's: no table of stream heads to update.
CREATE FUNCTION logbook.append(
    r_stream text[], r_expected bigint[], r_count integer[], r_subject text[], r_subject_last bigint[],
    r_checkpoint text[], r_checkpoint_position bigint[], r_checkpoint_data bytea[],
    e_request integer[], e_ordinal integer[],
    e_id uuid[], e_type text[], e_schema integer[], e_subject text[],
    e_occurred bigint[], e_occurred_offset integer[], e_recorded bigint[], e_recorded_offset integer[],
    e_correlation uuid[], e_causation uuid[], e_metadata bytea[], e_payload bytea[], e_checksum bigint[])
RETURNS TABLE (
    outcomes smallint[], first_positions bigint[], last_positions bigint[], stream_versions bigint[],
    event_indexes integer[], other_streams text[], other_positions bigint[], details bigint[])
LANGUAGE plpgsql AS $$
DECLARE
    -- One request's answer, copied into the answer arrays at the end of its turn.
    outcome smallint;
    first_position bigint;
    last_position bigint;
    stream_version bigint;
    event_index integer;
    other_stream text;
    other_position bigint;
    detail bigint;
    requests integer := coalesce(array_length(r_stream, 1), 0);
    -- Local copies are expanded arrays: element access in the loop is O(1).
    streams text[] := r_stream;
    expectations bigint[] := r_expected;
    counts integer[] := r_count;
    subjects text[] := r_subject;
    subject_lasts bigint[] := r_subject_last;
    checkpoints text[] := r_checkpoint;
    -- Per request: where its events go (0: refused), the stream version before them and after the
    -- request (-1: no stream), the version stored before the batch, and the batch's previous
    -- request to the same stream (0: none).
    firsts bigint[] := array_fill(0::bigint, ARRAY[requests]);
    bases bigint[] := array_fill(0::bigint, ARRAY[requests]);
    afters bigint[] := array_fill(0::bigint, ARRAY[requests]);
    stored_versions bigint[];
    previous integer[];
    -- Per request, ids already in the log: how many, the first one's ordinal, the first one of
    -- another stream, their positions and versions, and whether they keep the original order.
    hits integer[] := array_fill(0, ARRAY[requests]);
    hit_first integer[] := array_fill(0, ARRAY[requests]);
    foreign_ordinal integer[] := array_fill(0, ARRAY[requests]);
    foreign_stream text[] := array_fill(''::text, ARRAY[requests]);
    foreign_position bigint[] := array_fill(0::bigint, ARRAY[requests]);
    hit_low bigint[] := array_fill(0::bigint, ARRAY[requests]);
    hit_high bigint[] := array_fill(0::bigint, ARRAY[requests]);
    hit_version bigint[] := array_fill(0::bigint, ARRAY[requests]);
    hit_orders integer[] := array_fill(0, ARRAY[requests]);
    head bigint;
    start_head bigint;
    r integer;
    n integer;
    cur_version bigint;
    expected bigint;
    found_row record;
    nil uuid := '00000000-0000-0000-0000-000000000000';
BEGIN
    SELECT h.position INTO head FROM logbook.head h WHERE h.id FOR UPDATE;
    start_head := head;

    -- Ids already in the log. When every id of the call sorts after the log's greatest id (time-
    -- ordered ids, as the log and Logbook make them), none can be there and the join is skipped.
    FOR found_row IN
        SELECT u.req, count(*)::integer AS n, min(u.ord)::integer AS first_ord,
               min(u.ord) FILTER (WHERE e.stream <> r_stream[u.req])::integer AS foreign_ord,
               min(e.position) AS low, max(e.position) AS high, max(e.stream_version) AS version,
               count(DISTINCT e.stream_version - u.ord)::integer AS orders
          FROM unnest(e_id, e_request, e_ordinal) AS u(id, req, ord)
          JOIN logbook.events e ON e.event_id = u.id
         WHERE (SELECT b.id FROM unnest(e_id) AS b(id) ORDER BY b.id LIMIT 1)
               <= (SELECT x.event_id FROM logbook.events x ORDER BY x.event_id DESC LIMIT 1)
         GROUP BY u.req
    LOOP
        hits[found_row.req] := found_row.n;
        hit_first[found_row.req] := found_row.first_ord;
        hit_low[found_row.req] := found_row.low;
        hit_high[found_row.req] := found_row.high;
        hit_version[found_row.req] := found_row.version;
        hit_orders[found_row.req] := found_row.orders;
        IF found_row.foreign_ord IS NOT NULL THEN
            foreign_ordinal[found_row.req] := found_row.foreign_ord;
            SELECT e.stream, e.position INTO other_stream, other_position
              FROM logbook.events e
             WHERE e.event_id = (SELECT u.id FROM unnest(e_id, e_request, e_ordinal) AS u(id, req, ord)
                                  WHERE u.req = found_row.req AND u.ord = found_row.foreign_ord);
            foreign_stream[found_row.req] := other_stream;
            foreign_position[found_row.req] := other_position;
        END IF;
    END LOOP;

    -- Each request's stream version before the batch (its last event's, read from the unique
    -- (stream, stream_version) index), and the batch's previous request to the same stream.
    SELECT array_agg(coalesce(s.version, -1) ORDER BY u.req), array_agg(coalesce(u.prev, 0) ORDER BY u.req)
      INTO stored_versions, previous
      FROM (SELECT t.req, t.stream, lag(t.req) OVER (PARTITION BY t.stream ORDER BY t.req) AS prev
              FROM unnest(r_stream) WITH ORDINALITY AS t(stream, req)) u
      LEFT JOIN LATERAL (SELECT max(e.stream_version) AS version FROM logbook.events e WHERE e.stream = u.stream) s ON true;

    outcomes := array_fill(0::smallint, ARRAY[requests]);
    first_positions := array_fill(0::bigint, ARRAY[requests]);
    last_positions := array_fill(0::bigint, ARRAY[requests]);
    stream_versions := array_fill(-1::bigint, ARRAY[requests]);
    event_indexes := array_fill(-1, ARRAY[requests]);
    other_streams := array_fill(''::text, ARRAY[requests]);
    other_positions := array_fill(0::bigint, ARRAY[requests]);
    details := array_fill(0::bigint, ARRAY[requests]);
    FOR r IN 1 .. requests LOOP
      <<decide>>
      BEGIN
        n := counts[r];
        outcome := 0; first_position := NULL; last_position := NULL; stream_version := NULL;
        event_index := NULL; other_stream := NULL; other_position := NULL; detail := NULL;
        -- The stream's version now (-1: no stream): after the batch's previous request to it, if any.
        IF previous[r] > 0 THEN cur_version := afters[previous[r]]; ELSE cur_version := stored_versions[r]; END IF;
        afters[r] := cur_version;

        IF hits[r] > 0 THEN
            IF foreign_ordinal[r] > 0 THEN
                outcome := 3; event_index := foreign_ordinal[r] - 1;
                other_stream := foreign_stream[r]; other_position := foreign_position[r];
            ELSIF hits[r] < n THEN
                outcome := 4; event_index := hit_first[r] - 1; detail := hits[r];
            ELSIF hit_orders[r] > 1 THEN
                outcome := 5;
                SELECT u.ord::integer - 1, e.stream_version INTO event_index, detail
                  FROM unnest(e_id, e_request, e_ordinal) AS u(id, req, ord)
                  JOIN logbook.events e ON e.event_id = u.id
                 WHERE u.req = r AND e.stream_version - u.ord <> (
                       SELECT f.stream_version - 1 FROM logbook.events f
                        WHERE f.event_id = (SELECT v.id FROM unnest(e_id, e_request, e_ordinal) AS v(id, req, ord)
                                             WHERE v.req = r AND v.ord = 1))
                 ORDER BY u.ord LIMIT 1;
            ELSE
                outcome := 1; first_position := hit_low[r]; last_position := hit_high[r]; stream_version := hit_version[r];
            END IF;
            EXIT decide;
        END IF;

        expected := expectations[r];
        IF (expected = -2 AND cur_version >= 0) OR (expected = -3 AND cur_version < 0)
           OR (expected >= 0 AND cur_version <> expected) THEN
            outcome := 2; stream_version := nullif(cur_version, -1);
            EXIT decide;
        END IF;

        IF subjects[r] <> '' THEN
            -- The subject's last event: in the log, or among this call's requests accepted so far.
            SELECT greatest(
                       (SELECT coalesce(max(e.position), 0) FROM logbook.events e WHERE e.subject = subjects[r]),
                       (SELECT coalesce(max(firsts[u.req] + u.ord - 1), 0)
                          FROM unnest(e_subject, e_request, e_ordinal) AS u(subject, req, ord)
                         WHERE u.subject = subjects[r] AND u.req < r AND firsts[u.req] > 0))
              INTO detail;
            IF detail <> subject_lasts[r] THEN
                outcome := 6;
                EXIT decide;
            END IF;
            detail := NULL;
        END IF;

        firsts[r] := head + 1;
        bases[r] := cur_version;
        afters[r] := cur_version + n;
        IF checkpoints[r] <> '' THEN
            INSERT INTO logbook.checkpoints AS c (name, position, data)
                 VALUES (checkpoints[r], r_checkpoint_position[r], r_checkpoint_data[r])
            ON CONFLICT (name) DO UPDATE SET position = excluded.position, data = excluded.data;
        END IF;
        first_position := head + 1; last_position := head + n; stream_version := cur_version + n;
        head := head + n;
      END;
        outcomes[r] := outcome;
        first_positions[r] := coalesce(first_position, 0);
        last_positions[r] := coalesce(last_position, 0);
        stream_versions[r] := coalesce(stream_version, -1);
        event_indexes[r] := coalesce(event_index, -1);
        other_streams[r] := coalesce(other_stream, '');
        other_positions[r] := coalesce(other_position, 0);
        details[r] := coalesce(detail, 0);
    END LOOP;

    IF head <> start_head THEN
        INSERT INTO logbook.events (
            position, stream, stream_version, event_id, type, schema_version, subject, occurred_us, occurred_offset,
            recorded_us, recorded_offset, correlation_id, causation_id, metadata, payload, checksum)
        SELECT q.first + u.ord - 1, q.stream, q.base + u.ord, u.id, u.type, u.schema,
               nullif(u.subject, ''), u.occurred, u.occurred_offset, u.recorded, u.recorded_offset,
               nullif(u.correlation, nil), nullif(u.causation, nil), u.metadata, u.payload, u.checksum
          FROM unnest(e_request, e_ordinal, e_id, e_type, e_schema, e_subject, e_occurred, e_occurred_offset,
                      e_recorded, e_recorded_offset, e_correlation, e_causation, e_metadata, e_payload, e_checksum)
               AS u(req, ord, id, type, schema, subject, occurred, occurred_offset, recorded, recorded_offset,
                    correlation, causation, metadata, payload, checksum)
          JOIN unnest(firsts, bases, streams) WITH ORDINALITY AS q(first, base, stream, req) ON q.req = u.req
         WHERE q.first > 0
         ORDER BY 1;
        UPDATE logbook.head h SET position = head WHERE h.id;
        PERFORM pg_notify('logbook_head', head::text);
    END IF;
    RETURN NEXT;
END;
$$;
"""#)
}
