-- The benchmark's baseline: the same rows by a plain INSERT ... SELECT FROM unnest(sixteen arrays)
-- into a table without indexes, one statement and transaction per call. The arrays are built
-- before the clock starts.
DROP TABLE IF EXISTS raw;
CREATE TABLE raw (position bigint, stream text, stream_version bigint, event_id uuid, type text, schema_version integer,
  subject text, occurred_us bigint, occurred_offset integer, recorded_us bigint, recorded_offset integer, correlation_id uuid,
  causation_id uuid, metadata bytea, payload bytea, checksum bigint);
CHECKPOINT;
DO $$
DECLARE
  t0 timestamptz; total interval := '0'; a record;
BEGIN
  FOR b IN 0 .. 39 LOOP
    SELECT array_agg(ord::bigint ORDER BY ord) p, array_agg(stream ORDER BY ord) s, array_agg(version ORDER BY ord) v,
           array_agg(id ORDER BY ord) id, array_agg(type ORDER BY ord) ty, array_agg(schema ORDER BY ord) sc,
           array_agg(subject ORDER BY ord) su, array_agg(occurred ORDER BY ord) oc, array_agg(occurred_offset ORDER BY ord) oo,
           array_agg(recorded ORDER BY ord) rc, array_agg(recorded_offset ORDER BY ord) ro, array_agg(correlation ORDER BY ord) co,
           array_agg(causation ORDER BY ord) ca, array_agg(metadata ORDER BY ord) me, array_agg(payload ORDER BY ord) pa,
           array_agg(checksum ORDER BY ord) ch
      INTO a FROM src WHERE ord > b * 5000 AND ord <= (b + 1) * 5000;
    t0 := clock_timestamp();
    INSERT INTO raw SELECT * FROM unnest(a.p, a.s, a.v, a.id, a.ty, a.sc, a.su, a.oc, a.oo, a.rc, a.ro, a.co, a.ca, a.me, a.pa, a.ch);
    COMMIT;
    total := total + (clock_timestamp() - t0);
  END LOOP;
  RAISE NOTICE 'raw: % s', round(extract(epoch FROM total), 3);
END $$;
