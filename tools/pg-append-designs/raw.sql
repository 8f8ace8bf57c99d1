-- The benchmark's baseline: the same rows by a plain INSERT ... SELECT FROM unnest(sixteen arrays)
-- into a table without indexes, one statement and transaction per call (the arrays made by
-- setup.sql, read before the clock starts).
DROP TABLE IF EXISTS raw;
CREATE TABLE raw (position bigint, stream text, stream_version bigint, event_id uuid, type text, schema_version integer,
  subject text, occurred_us bigint, occurred_offset integer, recorded_us bigint, recorded_offset integer, correlation_id uuid,
  causation_id uuid, metadata bytea, payload bytea, checksum bigint);
CHECKPOINT;
DO $$
DECLARE
  t0 timestamptz; total interval := '0'; a record;
BEGIN
  FOR n IN 0 .. 39 LOOP
    SELECT * INTO a FROM calls WHERE calls.b = n;
    t0 := clock_timestamp();
    INSERT INTO raw SELECT * FROM unnest(a.position, a.stream, a.version, a.id, a.type, a.schema, a.subject, a.occurred,
      a.occurred_offset, a.recorded, a.recorded_offset, a.correlation, a.causation, a.metadata, a.payload, a.checksum);
    COMMIT;
    total := total + (clock_timestamp() - t0);
  END LOOP;
  RAISE NOTICE 'raw: % s', round(extract(epoch FROM total), 3);
END $$;
