-- The log as it is: 40 calls of logbook.append (the schema's own function, Schemas/postgres),
-- 5,000 single-event requests each, no expected versions or subject conditions, each call its
-- own transaction. The arrays are built before the clock starts.
TRUNCATE logbook.events;
UPDATE logbook.head SET position = 0;
CHECKPOINT;
DO $$
DECLARE
  t0 timestamptz; total interval := '0'; a record;
BEGIN
  FOR b IN 0 .. 39 LOOP
    SELECT array_agg(stream ORDER BY ord) s, array_agg(-1::bigint) ex, array_agg(1) c, array_agg(''::text) rs,
           array_agg(-1::bigint) rl, array_agg(''::text) ck, array_agg(0::bigint) cp, array_agg('\x'::bytea) cd,
           array_agg((ord - b * 5000)::integer ORDER BY ord) req, array_agg(1) o, array_agg(id ORDER BY ord) id,
           array_agg(type ORDER BY ord) ty, array_agg(schema ORDER BY ord) sc, array_agg(subject ORDER BY ord) su,
           array_agg(occurred ORDER BY ord) oc, array_agg(occurred_offset ORDER BY ord) oo, array_agg(recorded ORDER BY ord) rc,
           array_agg(recorded_offset ORDER BY ord) ro, array_agg(correlation ORDER BY ord) co, array_agg(causation ORDER BY ord) ca,
           array_agg(metadata ORDER BY ord) me, array_agg(payload ORDER BY ord) pa, array_agg(checksum ORDER BY ord) ch
      INTO a FROM src WHERE ord > b * 5000 AND ord <= (b + 1) * 5000;
    t0 := clock_timestamp();
    PERFORM * FROM logbook.append(a.s, a.ex, a.c, a.rs, a.rl, a.ck, a.cp, a.cd, a.req, a.o, a.id, a.ty, a.sc, a.su, a.oc,
                                  a.oo, a.rc, a.ro, a.co, a.ca, a.me, a.pa, a.ch);
    COMMIT;
    total := total + (clock_timestamp() - t0);
  END LOOP;
  IF (SELECT count(*) FROM logbook.events) <> 200000 THEN RAISE EXCEPTION 'current: not every event was written'; END IF;
  RAISE NOTICE 'current: % s', round(extract(epoch FROM total), 3);
END $$;
