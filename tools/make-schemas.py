#!/usr/bin/env python3
"""Writes the JSON Schemas (draft 2020-12) of Logbook's wire form into Schemas/events.

The schemas are committed; run this after changing an event type, then `tools/test`, which
checks that what the code emits validates against them and that every schema has fixtures.
Each file is self-contained (its shared definitions inlined under $defs), so any draft 2020-12
validator can use it without a reference registry."""
import json
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Schemas", "events")
BASE = "https://logbook.example/schemas/events/"

DEFS = {
    "timestamp": {"type": "string", "description": "RFC 3339 with a UTC offset, at most microsecond precision",
                  "pattern": r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,6})?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"},
    "date": {"type": "string", "description": "a local date, yyyy-mm-dd", "pattern": r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"},
    "uuid": {"type": "string", "pattern": r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"},
    "id": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": r"^[^\u0000-\u0020\u007f]+$"},
    "text": {"type": "string", "maxLength": 4000},
    "count": {"type": "integer", "minimum": 0},
    "activityType": {"enum": ["run", "walk", "ride", "swim", "hike", "strength", "yoga", "other"]},
    "source": {"type": "object", "additionalProperties": False, "required": ["kind"],
               "properties": {"kind": {"enum": ["manual", "healthkit", "garmin", "wahoo", "strava", "file"]},
                              "sourceId": {"type": "string", "minLength": 1, "maxLength": 256}}},
    "lap": {"type": "object", "additionalProperties": False, "required": ["distanceMeters", "movingSeconds"],
            "properties": {"distanceMeters": {"$ref": "#/$defs/count"}, "movingSeconds": {"$ref": "#/$defs/count"}}},
}


def ref(name):
    return {"$ref": "#/$defs/" + name}


def obj(required, optional=None):
    props = dict(required)
    props.update(optional or {})
    return {"type": "object", "additionalProperties": False, "required": sorted(required.keys()), "properties": props}


FINISHED = {"distanceMeters": ref("count"), "movingSeconds": ref("count")}
EXTRAS = {"steps": ref("count"), "activeKcal": ref("count"), "avgHeartRate": ref("count"),
          "laps": {"type": "array", "items": ref("lap")}}
SAMPLE_V2 = obj({"start": ref("timestamp"), "end": ref("timestamp"), "count": ref("count"),
                 "source": {"type": "string", "minLength": 1, "maxLength": 64}})
SAMPLE_V1 = obj({"start": ref("timestamp"), "end": ref("timestamp"), "count": ref("count")})

TYPES = {
    ("user.registered", 1): obj({"displayName": {"type": "string", "minLength": 1, "maxLength": 200},
                                 "timeZone": {"type": "string", "minLength": 1}, "weekStart": {"enum": ["monday", "sunday"]},
                                 "units": {"enum": ["metric", "imperial"]}}),
    ("user.profile_updated", 1): obj({}, {"displayName": {"type": "string", "minLength": 1, "maxLength": 200},
                                         "timeZone": {"type": "string", "minLength": 1}, "weekStart": {"enum": ["monday", "sunday"]},
                                         "units": {"enum": ["metric", "imperial"]},
                                         "preferredStepSource": {"type": ["string", "null"], "minLength": 1, "maxLength": 64}}),
    ("workout.started", 1): obj({"workoutId": ref("id"), "activityType": ref("activityType"), "startedAt": ref("timestamp"),
                                 "source": ref("source")}),
    ("workout.paused", 1): obj({"workoutId": ref("id"), "at": ref("timestamp")}),
    ("workout.resumed", 1): obj({"workoutId": ref("id"), "at": ref("timestamp")}),
    ("workout.finished", 1): obj(dict({"workoutId": ref("id"), "endedAt": ref("timestamp")}, **FINISHED), EXTRAS),
    ("workout.discarded", 1): obj({"workoutId": ref("id")}),
    ("workout.imported", 1): obj(dict({"workoutId": ref("id"), "activityType": ref("activityType"), "startedAt": ref("timestamp"),
                                       "endedAt": ref("timestamp"), "source": ref("source")}, **FINISHED),
                                 dict(EXTRAS, title=ref("text"))),
    ("workout.edited", 1): obj({"workoutId": ref("id")}, {"title": ref("text"), "notes": ref("text"), "activityType": ref("activityType")}),
    ("workout.deleted", 1): obj({"workoutId": ref("id")}),
    ("steps.recorded", 1): obj({"source": {"type": "string", "minLength": 1, "maxLength": 64},
                                "samples": {"type": "array", "minItems": 1, "items": SAMPLE_V1}}),
    ("steps.recorded", 2): obj({"samples": {"type": "array", "minItems": 1, "maxItems": 10000, "items": SAMPLE_V2}}),
    ("goal.set", 1): obj({"date": ref("date"), "steps": {"type": "integer", "minimum": 1, "maximum": 100000}},
                         {"activeMinutes": {"type": "integer", "minimum": 0, "maximum": 1440}}),
    ("goal.cleared", 1): obj({"date": ref("date")}),
    ("goal.default_set", 1): obj({"steps": {"type": "integer", "minimum": 1, "maximum": 100000}},
                                 {"activeMinutes": {"type": "integer", "minimum": 0, "maximum": 1440}}),
    ("place.added", 1): obj({"placeId": ref("id"), "name": {"type": "string", "minLength": 1, "maxLength": 200},
                             "category": {"enum": ["restaurant", "activity"]}, "subcategory": {"type": "string", "minLength": 1, "maxLength": 64},
                             "latitude": {"type": "number", "minimum": -90, "maximum": 90},
                             "longitude": {"type": "number", "minimum": -180, "maximum": 180}},
                            {"address": ref("text"), "phone": ref("text"), "priceLevel": {"type": "integer", "minimum": 1, "maximum": 4},
                             "notes": ref("text")}),
    ("place.swiped", 1): obj({"placeId": ref("id"), "direction": {"enum": ["right", "left"]}}),
    ("place.visited", 1): obj({"placeId": ref("id"), "visitedAt": ref("timestamp")}),
    ("place.notes_edited", 1): obj({"placeId": ref("id"), "notes": ref("text")}),
    ("places.reset", 1): obj({}),
    ("user.erased", 1): obj({}),
}

# Types whose schema is written by hand in Schemas/events (not generated here), kept as they are.
HAND_WRITTEN = ["workout.track_recorded"]

ENVELOPE = {
    "type": "object", "additionalProperties": False,
    "required": ["stream", "streamVersion", "eventId", "type", "schemaVersion", "occurredAt", "recordedAt", "data"],
    "properties": {
        "position": {"type": ["integer", "null"], "minimum": 1},
        "stream": {"type": "string", "minLength": 1, "maxLength": 256},
        "streamVersion": {"type": "integer", "minimum": 0},
        "eventId": ref("uuid"),
        "type": {"enum": sorted({name for name, _ in TYPES} | set(HAND_WRITTEN))},
        "schemaVersion": {"type": "integer", "minimum": 1},
        "subject": {"type": ["string", "null"], "minLength": 1, "maxLength": 256},
        "occurredAt": ref("timestamp"),
        "recordedAt": ref("timestamp"),
        "correlationId": {"oneOf": [ref("uuid"), {"type": "null"}]},
        "causationId": {"oneOf": [ref("uuid"), {"type": "null"}]},
        "metadata": {"type": ["object", "null"]},
        "data": {"type": ["object", "null"],
                 "description": "validated by the schema of its type and schemaVersion; null in a tombstone"},
        "erased": {"const": True,
                   "description": "a tombstone: the event's user was erased (DESIGN §7); its envelope remains, its data is gone"},
    },
    "if": {"required": ["erased"]},
    "then": {"properties": {"data": {"type": "null"}}},
    "else": {"properties": {"data": {"type": "object"}}},
}


def write(name, title, schema):
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": BASE + name, "title": title}
    document.update(schema)
    document["$defs"] = DEFS
    with open(os.path.join(ROOT, name), "w") as f:
        json.dump(document, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")


os.makedirs(ROOT, exist_ok=True)
write("envelope.schema.json", "A Logbook event in the wire form (DESIGN §3)", ENVELOPE)
for (name, version), schema in sorted(TYPES.items()):
    write(f"{name}.v{version}.schema.json", f"data of {name}, schema version {version}", schema)

# Command bodies whose fields the request may fill in (Schemas/requests): an id named in the
# route's path, or a workout id the server makes when the client sends none. Each is the data
# schema of the type's newest version with those fields optional (the server refuses a body whose
# value differs from the path's).
FILLED_BY_REQUEST = {
    "workout.started": ["workoutId"], "workout.imported": ["workoutId"], "workout.finished": ["workoutId"],
    "workout.edited": ["workoutId"], "goal.set": ["date"], "place.swiped": ["placeId"], "place.visited": ["placeId"],
    "place.notes_edited": ["placeId"],
}
REQUESTS = os.path.join(ROOT, "..", "requests")
os.makedirs(REQUESTS, exist_ok=True)


def write_request(name, title, schema):
    schema = dict(schema)
    schema["$id"] = "https://logbook.example/schemas/requests/" + name
    schema["title"] = title
    with open(os.path.join(REQUESTS, name), "w") as f:
        json.dump(schema, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")


for name, fields in sorted(FILLED_BY_REQUEST.items()):
    versions = [int(f[len(name) + 2:-len(".schema.json")]) for f in os.listdir(ROOT)
                if f.startswith(name + ".v") and f.endswith(".schema.json")]
    with open(os.path.join(ROOT, f"{name}.v{max(versions)}.schema.json")) as f:
        data = json.load(f)
    data["required"] = [field for field in data["required"] if field not in fields]
    write_request(f"{name}.schema.json",
                  f"body of the {name} command: data of {name} v{max(versions)}, {', '.join(fields)} optional (from the request)", data)
for name in ["workout.paused", "workout.resumed"]:
    write_request(f"{name}.schema.json", f"body of the {name} command: an optional time (default: now)",
                  dict(obj({}, {"at": ref("timestamp")}), **{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": DEFS}))
