-- The log as it is: 40 calls of logbook.append (the schema's own function, Schemas/postgres),
-- 5,000 single-event requests each, no expected versions or subject conditions, each call its
-- own transaction (the arrays made by setup.sql, read before the clock starts).
TRUNCATE logbook.events;
UPDATE logbook.head SET position = 0;
CHECKPOINT;
DO $$
DECLARE
  t0 timestamptz; total interval := '0'; a record;
  -- Single-event requests: no expected version (-1), no subject condition ('', -1), no checkpoint.
  any_version bigint[] := array_fill(-1::bigint, ARRAY[5000]);
  ones integer[] := array_fill(1, ARRAY[5000]);
  none text[] := array_fill(''::text, ARRAY[5000]);
  no_position bigint[] := array_fill(0::bigint, ARRAY[5000]);
  no_data bytea[] := array_fill('\x'::bytea, ARRAY[5000]);
BEGIN
  FOR n IN 0 .. 39 LOOP
    SELECT * INTO a FROM calls WHERE calls.b = n;
    t0 := clock_timestamp();
    PERFORM * FROM logbook.append(a.stream, any_version, ones, none, any_version, none, no_position, no_data, a.request, ones,
                                  a.id, a.type, a.schema, a.subject, a.occurred, a.occurred_offset, a.recorded,
                                  a.recorded_offset, a.correlation, a.causation, a.metadata, a.payload, a.checksum);
    COMMIT;
    total := total + (clock_timestamp() - t0);
  END LOOP;
  IF (SELECT count(*) FROM logbook.events) <> 200000 OR (SELECT max(stream_version) FROM logbook.events) <> 19
     OR (SELECT position FROM logbook.head) <> 200000 THEN
    RAISE EXCEPTION 'current: the rows written are not the workload''s';
  END IF;
  RAISE NOTICE 'current: % s', round(extract(epoch FROM total), 3);
END $$;
