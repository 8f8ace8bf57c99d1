-- The log benchmark's workload as rows (`logbook-bench log`): event i goes to stream user-%08d
-- of (i-1) mod 10,000 and subject u-((i-1) mod 1,000), one of four types, a 64-byte payload, a
-- time-ordered id. 200,000 events in 40 calls of 5,000 single-event requests. Each call's rows
-- are also written to a file in COPY's binary format (with each event's stream version, as a
-- caller that knows its streams' heads would send it), for the staged designs to load.
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
DO $$
BEGIN
  FOR b IN 0 .. 39 LOOP
    EXECUTE format('COPY (SELECT ord - %s AS ord, version, stream, id, type, schema, subject, occurred, occurred_offset, recorded, '
                   'recorded_offset, correlation, causation, metadata, payload, checksum FROM src WHERE ord > %s AND ord <= %s ORDER BY ord) '
                   'TO %L (FORMAT binary)', b * 5000, b * 5000, (b + 1) * 5000, current_setting('designs.dir') || '/call-' || b || '.bin');
  END LOOP;
END $$;
