-- A staged append: each call's rows come by COPY (binary) into a temporary table, not as sixteen
-- arrays to unnest, then go into the events table with one INSERT ... SELECT. Two choices, set
-- before this runs (SET designs.versions, designs.subjects):
--   designs.versions = probed: each event's stream version is read from the (stream,
--       stream_version) index, as logbook.append does (the stream's greatest, plus the call's
--       earlier events of that stream);
--   designs.versions = caller: the caller sends each version (its stream's head as the caller
--       knows it, plus one). The unique (stream, stream_version) index refuses any version the log
--       already holds, and a caller that advances a head only on a confirmed commit (and forgets it
--       after a commit whose outcome it does not know) cannot be ahead of the log, so no version is
--       read; the database itself no longer refuses a gap. On a refusal the caller would fall back
--       to the probing call (not measured: the workload never conflicts).
--   designs.subjects = index: the (subject, position) index, as now;
--   designs.subjects = heads: no subject index; a table of each subject's last position, updated
--       once per subject and call (what subject conditions check);
--   designs.subjects = none: neither (no subject condition could be checked: the floor).
-- Every design keeps the position, event id and (stream, stream_version) indexes, checks the
-- call's ids as logbook.append does (none can be in the log when the least sorts after the log's
-- greatest) and moves the head. 40 calls of 5,000, each its own transaction.
DROP TABLE IF EXISTS ev, subject_heads, ev_head;
CREATE TABLE ev (position bigint PRIMARY KEY, stream text NOT NULL, stream_version bigint NOT NULL, event_id uuid NOT NULL UNIQUE,
  type text NOT NULL, schema_version integer NOT NULL, subject text, occurred_us bigint NOT NULL, occurred_offset integer NOT NULL,
  recorded_us bigint NOT NULL, recorded_offset integer NOT NULL, correlation_id uuid, causation_id uuid, metadata bytea NOT NULL,
  payload bytea NOT NULL, checksum bigint NOT NULL, UNIQUE (stream, stream_version));
CREATE TABLE subject_heads (subject text PRIMARY KEY, position bigint NOT NULL) WITH (fillfactor = 30);
CREATE TABLE ev_head (id boolean PRIMARY KEY DEFAULT true, position bigint NOT NULL);
INSERT INTO ev_head VALUES (true, 0);
DO $$
BEGIN
  IF current_setting('designs.subjects') = 'index' THEN
    CREATE INDEX ev_subject ON ev (subject, position) WHERE subject IS NOT NULL;
  END IF;
END $$;
CREATE TEMP TABLE stage (ord integer, version bigint, stream text, id uuid, type text, schema integer, subject text, occurred bigint,
  occurred_offset integer, recorded bigint, recorded_offset integer, correlation uuid, causation uuid, metadata bytea, payload bytea,
  checksum bigint) ON COMMIT DELETE ROWS;
CHECKPOINT;
DO $$
DECLARE
  probed boolean := current_setting('designs.versions') = 'probed';
  heads boolean := current_setting('designs.subjects') = 'heads';
  nil uuid := '00000000-0000-0000-0000-000000000000';
  t0 timestamptz; t timestamptz; total interval := '0'; copying interval := '0'; inserting interval := '0'; start_head bigint;
BEGIN
  FOR b IN 0 .. 39 LOOP
    t0 := clock_timestamp();
    SELECT position INTO start_head FROM ev_head WHERE id FOR UPDATE;
    EXECUTE format('COPY stage FROM %L (FORMAT binary)', current_setting('designs.dir') || '/call-' || b || '.bin');
    IF (SELECT s.id FROM stage s ORDER BY s.id LIMIT 1) <= (SELECT e.event_id FROM ev e ORDER BY e.event_id DESC LIMIT 1) THEN
      RAISE EXCEPTION 'an id may be in the log: that path is not measured';
    END IF;
    t := clock_timestamp();
    copying := copying + (t - t0);
    IF probed THEN
      INSERT INTO ev
      SELECT start_head + s.ord, s.stream,
             coalesce(v.version, -1) + row_number() OVER (PARTITION BY s.stream COLLATE "C" ORDER BY s.ord),
             s.id, s.type, s.schema, nullif(s.subject, ''), s.occurred, s.occurred_offset, s.recorded, s.recorded_offset,
             nullif(s.correlation, nil), nullif(s.causation, nil), s.metadata, s.payload, s.checksum
        FROM stage s LEFT JOIN LATERAL (SELECT max(e.stream_version) AS version FROM ev e WHERE e.stream = s.stream) v ON true;
    ELSE
      INSERT INTO ev
      SELECT start_head + s.ord, s.stream, s.version, s.id, s.type, s.schema, nullif(s.subject, ''), s.occurred, s.occurred_offset,
             s.recorded, s.recorded_offset, nullif(s.correlation, nil), nullif(s.causation, nil), s.metadata, s.payload, s.checksum
        FROM stage s;
    END IF;
    IF heads THEN
      WITH last AS (SELECT s.subject, start_head + max(s.ord) AS position FROM stage s WHERE s.subject <> '' GROUP BY s.subject),
           moved AS (UPDATE subject_heads x SET position = l.position FROM last l WHERE x.subject = l.subject RETURNING x.subject)
      INSERT INTO subject_heads SELECT l.subject, l.position FROM last l WHERE l.subject NOT IN (SELECT subject FROM moved);
    END IF;
    inserting := inserting + (clock_timestamp() - t);
    UPDATE ev_head SET position = start_head + 5000 WHERE id;
    PERFORM pg_notify('logbook_head', (start_head + 5000)::text);
    COMMIT;
    total := total + (clock_timestamp() - t0);
  END LOOP;
  IF (SELECT count(*) FROM ev) <> 200000 OR (SELECT max(stream_version) FROM ev) <> 19
     OR heads AND (SELECT sum(position) FROM subject_heads) <> 199500500 THEN
    RAISE EXCEPTION 'staged: the rows written are not the workload''s';
  END IF;
  RAISE NOTICE 'staged (versions %, subjects %): % s (copy and id check %, insert %)', current_setting('designs.versions'),
    current_setting('designs.subjects'), round(extract(epoch FROM total), 3), round(extract(epoch FROM copying), 3),
    round(extract(epoch FROM inserting), 3);
END $$;
