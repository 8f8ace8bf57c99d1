-- The log benchmark's workload as rows (`logbook-bench log`): event i goes to stream user-%08d
-- of (i-1) mod 10,000 and subject u-((i-1) mod 1,000), one of four types, a 64-byte payload, a
-- time-ordered id. 200,000 events in 40 calls of 5,000 single-event requests. Each call's rows
-- are made once into arrays (`calls`, one row per call, for the designs that take arrays) and
-- into a file in COPY's binary format (with each event's stream version, as a caller that knows
-- its streams' heads would send it), for the staged designs to load.
DROP TABLE IF EXISTS src;
CREATE UNLOGGED TABLE src AS
SELECT i AS ord, 'user-' || lpad(((i - 1) % 10000)::text, 8, '0') AS stream,
       ((i - 1) / 10000)::bigint AS version,
       ('01900000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid AS id,
       (ARRAY['bench.started', 'bench.sampled', 'bench.finished', 'bench.edited'])[(i - 1) % 4 + 1] AS type,
       1 AS schema, 'u-' || ((i - 1) % 1000)::text AS subject,
       1795000000000000 + i * 1000::bigint AS occurred, 3600 AS occurred_offset,
       1795000000000000 + i * 1000::bigint AS recorded, 3600 AS recorded_offset,
       '00000000-0000-0000-0000-000000000000'::uuid AS correlation, '00000000-0000-0000-0000-000000000000'::uuid AS causation,
       '\x'::bytea AS metadata, decode(repeat('0123456789abcdef', 8), 'hex') AS payload, (i * 2654435761)::bigint AS checksum
  FROM generate_series(1, 200000) AS i;
DROP TABLE IF EXISTS calls;
CREATE UNLOGGED TABLE calls AS
SELECT (ord - 1) / 5000 AS b, array_agg(ord::bigint ORDER BY ord) AS position, array_agg(stream ORDER BY ord) AS stream,
       array_agg(version ORDER BY ord) AS version, array_agg(((ord - 1) % 5000 + 1)::integer ORDER BY ord) AS request,
       array_agg(id ORDER BY ord) AS id, array_agg(type ORDER BY ord) AS type, array_agg(schema ORDER BY ord) AS schema,
       array_agg(subject ORDER BY ord) AS subject, array_agg(occurred ORDER BY ord) AS occurred,
       array_agg(occurred_offset ORDER BY ord) AS occurred_offset, array_agg(recorded ORDER BY ord) AS recorded,
       array_agg(recorded_offset ORDER BY ord) AS recorded_offset, array_agg(correlation ORDER BY ord) AS correlation,
       array_agg(causation ORDER BY ord) AS causation, array_agg(metadata ORDER BY ord) AS metadata,
       array_agg(payload ORDER BY ord) AS payload, array_agg(checksum ORDER BY ord) AS checksum
  FROM src GROUP BY (ord - 1) / 5000;
DO $$
BEGIN
  FOR b IN 0 .. 39 LOOP
    EXECUTE format('COPY (SELECT ord - %s AS ord, version, stream, id, type, schema, subject, occurred, occurred_offset, recorded, '
                   'recorded_offset, correlation, causation, metadata, payload, checksum FROM src WHERE ord > %s AND ord <= %s ORDER BY ord) '
                   'TO %L (FORMAT binary)', b * 5000, b * 5000, (b + 1) * 5000, current_setting('designs.dir') || '/call-' || b || '.bin');
  END LOOP;
END $$;
