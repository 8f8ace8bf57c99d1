#!/usr/bin/env python3
"""Validates wire-form events against Logbook's JSON Schemas (draft 2020-12).

usage: validate-schemas.py [FILE ...]

Every schema in Schemas/events must itself be a valid draft 2020-12 schema and have at least
one fixture in Schemas/fixtures (named <type>.v<N>[-anything].json). Every fixture and every FILE
given (one wire-form event per file, or one per line) must validate: the envelope against
envelope.schema.json, `data` against the schema of its type and schemaVersion. Exit status 1
and one line per problem if anything fails."""
import glob
import json
import os
import sys

import jsonschema

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Schemas")
Validator = jsonschema.Draft202012Validator
problems = []

schemas = {}
for path in sorted(glob.glob(os.path.join(ROOT, "events", "*.schema.json"))):
    with open(path) as f:
        schema = json.load(f)
    try:
        Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        problems.append(f"{os.path.basename(path)}: not a valid draft 2020-12 schema: {error.message}")
    schemas[os.path.basename(path)[: -len(".schema.json")]] = Validator(schema)

envelope = schemas.pop("envelope")


def check(label, event):
    for error in envelope.iter_errors(event):
        problems.append(f"{label}: envelope{''.join(f'[{p!r}]' for p in error.path)}: {error.message}")
    key = f"{event.get('type')}.v{event.get('schemaVersion')}"
    validator = schemas.get(key)
    if validator is None:
        problems.append(f"{label}: no schema {key}")
        return key
    if event.get("erased") is True:
        return key  # a tombstone: no data to validate
    for error in validator.iter_errors(event.get("data")):
        problems.append(f"{label}: data{''.join(f'[{p!r}]' for p in error.path)}: {error.message}")
    return key


covered = set()
fixtures = sorted(glob.glob(os.path.join(ROOT, "fixtures", "*.json")))
for path in fixtures + sys.argv[1:]:
    with open(path) as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    for number, line in enumerate(lines, 1):
        label = f"{os.path.basename(path)}:{number}"
        try:
            event = json.loads(line)
        except ValueError as error:
            problems.append(f"{label}: not JSON: {error}")
            continue
        key = check(label, event)
        if path in fixtures:
            covered.add(key)

for key in sorted(schemas):
    if key not in covered:
        problems.append(f"{key}.schema.json has no fixture in Schemas/fixtures")

for problem in problems:
    print(problem)
print(f"checked {len(schemas) + 1} schemas, {len(fixtures)} fixtures, {len(sys.argv) - 1} emitted files: "
      + ("ok" if not problems else f"{len(problems)} problems"), file=sys.stderr)
sys.exit(1 if problems else 0)
