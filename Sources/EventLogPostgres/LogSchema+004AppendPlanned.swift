extension LogSchema {
    /// Schema version 4: appends decided for the whole call at once.
    /// `Schemas/postgres/004_append_planned.sql`, verbatim.
    static let migration004AppendPlanned = Migration(version: 4, name: "004_append_planned", sql: #"""
-- Logbook's log in PostgreSQL, schema version 4: appends decided for the whole call at once.
--
-- logbook.append (same arguments and answer as in version 1) plans the call with set-based
-- queries: whether any of its ids is in the log already, each request's stream version (stored,
-- plus the events of the call's earlier requests to that stream), every expected version, and
-- every subject condition. When every request passes — the common case: new ids, versions as
-- expected, subjects unchanged — it writes them all with no per-request loop. Otherwise it hands
-- the call to logbook.append_one_by_one, version 1's decision loop, which answers each request
-- exactly as before (retries, conflicts and refusals, in order). Both write through
-- logbook.write_events, which inserts the rows in position order without a join or a sort.
-- Servers of the previous build that are running keep calling logbook.append during a rolling
-- upgrade and get the same answers (one that restarts refuses the newer schema). logbook.append
-- now refuses arrays of the wrong shape (lengths, NULLs, events out of request order) with an
-- error, where version 1 answered them in ways of its own.

-- Inserts the events of the written requests (firsts[r] > 0: the request's first position;
-- bases[r]: its stream's version before it), moves the head from start_head to head and wakes
-- the followers. The e_* arrays are in request order, each request's events in order, which is
-- position order: the rows go in as they come.
CREATE FUNCTION logbook.write_events(
    start_head bigint, head bigint, firsts bigint[], bases bigint[], r_stream text[], r_count integer[],
    e_request integer[], e_ordinal integer[], e_id uuid[], e_type text[], e_schema integer[], e_subject text[],
    e_occurred bigint[], e_occurred_offset integer[], e_recorded bigint[], e_recorded_offset integer[],
    e_correlation uuid[], e_causation uuid[], e_metadata bytea[], e_payload bytea[], e_checksum bigint[])
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    -- Each event's stream, beside the event arrays: the requests' own array when each holds one event.
    event_streams text[];
    nil uuid := '00000000-0000-0000-0000-000000000000';
BEGIN
    IF head = start_head THEN
        RETURN;
    END IF;
    IF r_count <@ ARRAY[1] THEN
        event_streams := r_stream;
    ELSE
        SELECT array_agg(t.stream ORDER BY t.req, g.i) INTO event_streams
          FROM unnest(r_stream, r_count) WITH ORDINALITY AS t(stream, n, req)
         CROSS JOIN LATERAL generate_series(1, t.n) AS g(i);
    END IF;
    INSERT INTO logbook.events (
        position, stream, stream_version, event_id, type, schema_version, subject, occurred_us, occurred_offset,
        recorded_us, recorded_offset, correlation_id, causation_id, metadata, payload, checksum)
    SELECT firsts[u.req] + u.ord - 1, u.stream, bases[u.req] + u.ord, u.id, u.type, u.schema,
           nullif(u.subject, ''), u.occurred, u.occurred_offset, u.recorded, u.recorded_offset,
           nullif(u.correlation, nil), nullif(u.causation, nil), u.metadata, u.payload, u.checksum
      FROM unnest(e_request, e_ordinal, event_streams, e_id, e_type, e_schema, e_subject, e_occurred, e_occurred_offset,
                  e_recorded, e_recorded_offset, e_correlation, e_causation, e_metadata, e_payload, e_checksum)
           AS u(req, ord, stream, id, type, schema, subject, occurred, occurred_offset, recorded, recorded_offset,
                correlation, causation, metadata, payload, checksum)
     WHERE firsts[u.req] > 0;
    UPDATE logbook.head h SET position = head WHERE h.id;
    PERFORM pg_notify('logbook_head', head::text);
END;
$$;

-- Version 1's logbook.append under a new name, unchanged but for writing through
-- logbook.write_events: it decides request by request. See 001_log.sql for its arguments,
-- sentinels and outcomes.
CREATE FUNCTION logbook.append_one_by_one(
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
    -- Per request with a subject condition: the call's first request that writes an event of
    -- that subject (0: none), so the loop searches the call's events only when an earlier one does.
    subject_writers integer[];
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

    SELECT array_agg(coalesce(f.first_req, 0) ORDER BY c.req) INTO subject_writers
      FROM unnest(r_subject) WITH ORDINALITY AS c(subject, req)
      LEFT JOIN (SELECT u.subject, min(u.req)::integer AS first_req
                   FROM unnest(e_subject, e_request) AS u(subject, req)
                  WHERE u.subject <> ''
                  GROUP BY u.subject) f ON f.subject = c.subject AND c.subject <> '';

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
                       CASE WHEN subject_writers[r] BETWEEN 1 AND r - 1 THEN
                           (SELECT coalesce(max(firsts[u.req] + u.ord - 1), 0)
                              FROM unnest(e_subject, e_request, e_ordinal) AS u(subject, req, ord)
                             WHERE u.subject = subjects[r] AND u.req < r AND firsts[u.req] > 0)
                       ELSE 0 END)
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
        PERFORM logbook.write_events(start_head, head, firsts, bases, r_stream, r_count, e_request, e_ordinal, e_id, e_type,
                                     e_schema, e_subject, e_occurred, e_occurred_offset, e_recorded, e_recorded_offset,
                                     e_correlation, e_causation, e_metadata, e_payload, e_checksum);
    END IF;
    RETURN NEXT;
END;
$$;

-- Appends a batch of independent requests in one transaction: the arguments, sentinels and
-- answer of version 1 (001_log.sql). Plans the whole call with set-based queries and writes it
-- when every request passes; otherwise answers through logbook.append_one_by_one.
CREATE OR REPLACE FUNCTION logbook.append(
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
    requests integer := coalesce(array_length(r_stream, 1), 0);
    start_head bigint;
    -- Per request, if every request of the call is written: its stream's version before it.
    bases bigint[];
    versions_hold boolean;
    subjects_hold boolean := true;
    events integer := coalesce(array_length(e_request, 1), 0);
    problem text;
BEGIN
    -- The arrays' shape, checked before anything is read or written, so a caller's mistake is an
    -- error naming it, never a row in the wrong place: the r_* arrays hold one entry per request
    -- and the e_* arrays one per event, none NULL; the events come in request order, each
    -- request's consecutive with ordinals 1 … r_count (logbook.write_events relies on it).
    IF EXISTS (SELECT FROM unnest(ARRAY[array_length(r_expected, 1), array_length(r_count, 1), array_length(r_subject, 1),
                                        array_length(r_subject_last, 1), array_length(r_checkpoint, 1),
                                        array_length(r_checkpoint_position, 1), array_length(r_checkpoint_data, 1)]) AS l(n)
                WHERE coalesce(l.n, 0) <> requests) THEN
        problem := 'the request arrays differ in length';
    ELSIF EXISTS (SELECT FROM unnest(ARRAY[array_length(e_ordinal, 1), array_length(e_id, 1), array_length(e_type, 1),
                                           array_length(e_schema, 1), array_length(e_subject, 1), array_length(e_occurred, 1),
                                           array_length(e_occurred_offset, 1), array_length(e_recorded, 1),
                                           array_length(e_recorded_offset, 1), array_length(e_correlation, 1),
                                           array_length(e_causation, 1), array_length(e_metadata, 1), array_length(e_payload, 1),
                                           array_length(e_checksum, 1)]) AS l(n)
                   WHERE coalesce(l.n, 0) <> events) THEN
        problem := 'the event arrays differ in length';
    ELSIF array_position(r_stream, NULL) IS NOT NULL OR array_position(r_expected, NULL) IS NOT NULL
          OR array_position(r_count, NULL) IS NOT NULL OR array_position(r_subject, NULL) IS NOT NULL
          OR array_position(r_subject_last, NULL) IS NOT NULL OR array_position(r_checkpoint, NULL) IS NOT NULL
          OR array_position(r_checkpoint_position, NULL) IS NOT NULL OR array_position(r_checkpoint_data, NULL) IS NOT NULL
          OR array_position(e_request, NULL) IS NOT NULL OR array_position(e_ordinal, NULL) IS NOT NULL
          OR array_position(e_id, NULL) IS NOT NULL OR array_position(e_type, NULL) IS NOT NULL
          OR array_position(e_schema, NULL) IS NOT NULL OR array_position(e_subject, NULL) IS NOT NULL
          OR array_position(e_occurred, NULL) IS NOT NULL OR array_position(e_occurred_offset, NULL) IS NOT NULL
          OR array_position(e_recorded, NULL) IS NOT NULL OR array_position(e_recorded_offset, NULL) IS NOT NULL
          OR array_position(e_correlation, NULL) IS NOT NULL OR array_position(e_causation, NULL) IS NOT NULL
          OR array_position(e_metadata, NULL) IS NOT NULL OR array_position(e_payload, NULL) IS NOT NULL
          OR array_position(e_checksum, NULL) IS NOT NULL THEN
        problem := 'an array holds NULL (sentinels stand for none)';
    ELSIF (SELECT coalesce(sum(c), 0) FROM unnest(r_count) AS c) <> events THEN
        problem := 'the requests'' counts do not add up to the events';
    ELSIF NOT coalesce((SELECT bool_and(
                   e_request[i] BETWEEN 1 AND requests
                   AND CASE WHEN i = 1 OR e_request[i] <> e_request[i - 1]
                            THEN e_ordinal[i] = 1 AND (i = 1 OR e_request[i] > e_request[i - 1])
                            ELSE e_ordinal[i] = e_ordinal[i - 1] + 1 END
                   AND (i < events AND e_request[i + 1] = e_request[i] OR e_ordinal[i] = r_count[e_request[i]]))
                 FROM generate_series(1, events) AS i), true) THEN
        problem := 'the events are not in request order with ordinals 1 … r_count';
    END IF;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION 'logbook.append: %', problem USING ERRCODE = 'invalid_parameter_value';
    END IF;

    SELECT h.position INTO start_head FROM logbook.head h WHERE h.id FOR UPDATE;

    -- An id of the call already in the log (a retry, or a conflict) is answered one by one. When
    -- every id sorts after the log's greatest (time-ordered ids, as the log and Logbook make
    -- them), none can be there and the join is skipped.
    IF requests = 0
       OR (coalesce((SELECT b.id FROM unnest(e_id) AS b(id) ORDER BY b.id LIMIT 1)
                    <= (SELECT x.event_id FROM logbook.events x ORDER BY x.event_id DESC LIMIT 1), false)
           AND EXISTS (SELECT FROM unnest(e_id) AS u(id) JOIN logbook.events e ON e.event_id = u.id)) THEN
        RETURN QUERY SELECT * FROM logbook.append_one_by_one(
            r_stream, r_expected, r_count, r_subject, r_subject_last, r_checkpoint, r_checkpoint_position, r_checkpoint_data,
            e_request, e_ordinal, e_id, e_type, e_schema, e_subject, e_occurred, e_occurred_offset, e_recorded,
            e_recorded_offset, e_correlation, e_causation, e_metadata, e_payload, e_checksum);
        RETURN;
    END IF;

    -- If every request is written: each one's stream version before it (the stored one, read
    -- from the unique (stream, stream_version) index, plus the events of the call's earlier
    -- requests to that stream; -1: no stream), its first and last positions, and whether every
    -- expected version holds (r_expected: -1 any, -2 no stream, -3 stream exists, n exactly n).
    SELECT array_agg(p.base ORDER BY p.req), array_agg(start_head + 1 + p.earlier ORDER BY p.req),
           array_agg(start_head + p.earlier + p.n ORDER BY p.req), array_agg(p.base + p.n ORDER BY p.req),
           bool_and(CASE WHEN p.expected = -1 THEN true
                         WHEN p.expected = -2 THEN p.base < 0
                         WHEN p.expected = -3 THEN p.base >= 0
                         ELSE p.base = p.expected END)
      INTO bases, first_positions, last_positions, stream_versions, versions_hold
      FROM (SELECT u.req, u.n, u.expected, u.earlier, coalesce(s.version, -1) + u.before AS base
              FROM (SELECT t.req, t.n, t.expected, t.stream,
                           coalesce(sum(t.n) OVER (PARTITION BY t.stream COLLATE "C" ORDER BY t.req
                                                   ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before,
                           coalesce(sum(t.n) OVER (ORDER BY t.req ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS earlier
                      FROM unnest(r_stream, r_expected, r_count) WITH ORDINALITY AS t(stream, expected, n, req)) u
              LEFT JOIN LATERAL (SELECT max(e.stream_version) AS version FROM logbook.events e WHERE e.stream = u.stream) s ON true) p;

    -- Subject conditions (r_subject, with r_subject_last: the position of the subject's last
    -- event the caller's decision saw, 0 for none): each holds if the subject's last event in the
    -- log is still that one and no earlier request of the call writes an event of the subject
    -- (whose position, after the head, no caller can have seen).
    IF NOT r_subject <@ ARRAY['']::text[] THEN
        SELECT coalesce(bool_and(coalesce(l.last, 0) = c.last AND coalesce(f.first_req, c.req) >= c.req), true)
          INTO subjects_hold
          FROM unnest(r_subject, r_subject_last) WITH ORDINALITY AS c(subject, last, req)
          LEFT JOIN (SELECT u.subject, min(u.req) AS first_req
                       FROM unnest(e_subject, e_request) AS u(subject, req)
                      WHERE u.subject <> ''
                      GROUP BY u.subject) f ON f.subject = c.subject
          LEFT JOIN LATERAL (SELECT max(e.position) AS last FROM logbook.events e WHERE e.subject = c.subject) l ON true
         WHERE c.subject <> '';
    END IF;

    IF NOT (versions_hold AND subjects_hold) THEN
        RETURN QUERY SELECT * FROM logbook.append_one_by_one(
            r_stream, r_expected, r_count, r_subject, r_subject_last, r_checkpoint, r_checkpoint_position, r_checkpoint_data,
            e_request, e_ordinal, e_id, e_type, e_schema, e_subject, e_occurred, e_occurred_offset, e_recorded,
            e_recorded_offset, e_correlation, e_causation, e_metadata, e_payload, e_checksum);
        RETURN;
    END IF;

    -- Every request is written.
    outcomes := array_fill(0::smallint, ARRAY[requests]);
    event_indexes := array_fill(-1, ARRAY[requests]);
    other_streams := array_fill(''::text, ARRAY[requests]);
    other_positions := array_fill(0::bigint, ARRAY[requests]);
    details := array_fill(0::bigint, ARRAY[requests]);
    IF NOT r_checkpoint <@ ARRAY['']::text[] THEN
        -- A checkpoint named by several requests ends as the last one's, as one by one.
        INSERT INTO logbook.checkpoints AS c (name, position, data)
        SELECT DISTINCT ON (k.name) k.name, k.position, k.data
          FROM unnest(r_checkpoint, r_checkpoint_position, r_checkpoint_data) WITH ORDINALITY AS k(name, position, data, req)
         WHERE k.name <> ''
         ORDER BY k.name, k.req DESC
        ON CONFLICT (name) DO UPDATE SET position = excluded.position, data = excluded.data;
    END IF;
    PERFORM logbook.write_events(start_head, last_positions[requests], first_positions, bases, r_stream, r_count, e_request,
                                 e_ordinal, e_id, e_type, e_schema, e_subject, e_occurred, e_occurred_offset, e_recorded,
                                 e_recorded_offset, e_correlation, e_causation, e_metadata, e_payload, e_checksum);
    RETURN NEXT;
END;
$$;
"""#)
}
