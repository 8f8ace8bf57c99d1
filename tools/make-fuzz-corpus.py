#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora into Tests/Fuzz/Corpus/<Target>/ (run again to refresh).

Small inputs made here, one per feature a reader has, so libFuzzer starts from every branch's
door: FIT files (activity, monitoring, chained, developer fields, compressed timestamps,
big-endian definitions), GPX/TCX/Apple Health XML, zip and gzip archives of them, Strava CSV,
and, for the Logbook targets, the wire-form fixtures of Schemas/fixtures and binary payloads and
records in the log's own layouts. Deterministic: the same files every run.
"""
import gzip
import io
import hashlib
import json
import os
import re
import shutil
import struct
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "Fuzz" / "Corpus"


def write(target, name, data):
    folder = OUT / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


# ---------------------------------------------------------------- FIT

def fit_crc(data, crc=0):
    table = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
             0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]
    for byte in data:
        tmp = table[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ table[byte & 0xF]
        tmp = table[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ table[(byte >> 4) & 0xF]
    return crc


class FIT:
    """A FIT file writer: definitions on first use per local type, little-endian unless told."""

    SIZES = {"B": (1, 0x02), "b": (1, 0x01), "H": (2, 0x84), "h": (2, 0x83), "I": (4, 0x86), "i": (4, 0x85), "Z": (4, 0x8C)}

    def __init__(self, big_endian=False):
        self.body = bytearray()
        self.big = big_endian

    def define(self, local, global_number, fields, developer=None):
        header = 0x40 | local | (0x20 if developer else 0)
        self.body += bytes([header, 0, 1 if self.big else 0])
        self.body += struct.pack(">H" if self.big else "<H", global_number)
        self.body += bytes([len(fields)])
        for number, kind in fields:
            size, base = self.SIZES[kind]
            self.body += bytes([number, size, base])
        if developer:
            self.body += bytes([len(developer)])
            for number, size, index in developer:
                self.body += bytes([number, size, index])

    def data(self, local, fields, values, developer_bytes=b""):
        self.body += bytes([local])
        self.pack(fields, values)
        self.body += developer_bytes

    def compressed(self, local, offset, fields, values):
        self.body += bytes([0x80 | (local << 5) | (offset & 0x1F)])
        self.pack(fields, values)

    def pack(self, fields, values):
        order = ">" if self.big else "<"
        for (number, kind), value in zip(fields, values):
            self.body += struct.pack(order + ("I" if kind == "Z" else kind), value)

    def file(self, header_size=14, header_crc=True):
        size = len(self.body)
        header = bytes([header_size, 0x20]) + struct.pack("<HI", 2132, size) + b".FIT"
        if header_size == 14:
            header += struct.pack("<H", fit_crc(header) if header_crc else 0)
        whole = header + bytes(self.body)
        return whole + struct.pack("<H", fit_crc(whole))


T0 = 1_100_000_000  # FIT seconds (2024-11)
FILE_ID = [(0, "B"), (1, "H"), (2, "H"), (3, "Z"), (4, "I")]
RECORD = [(253, "I"), (0, "i"), (1, "i"), (2, "H"), (3, "B"), (4, "B"), (5, "I"), (6, "H"), (7, "H")]
LAP = [(253, "I"), (2, "I"), (7, "I"), (8, "I"), (9, "I"), (11, "H"), (15, "B"), (16, "B"), (52, "I")]
SESSION = [(253, "I"), (2, "I"), (5, "B"), (6, "B"), (7, "I"), (8, "I"), (9, "I"), (11, "H"), (16, "B"), (17, "B"), (59, "I")]
ACTIVITY = [(253, "I"), (1, "H"), (5, "I")]
SPORT = [(0, "B"), (1, "B")]


def activity_fit(manufacturer=1, points=6, sport=1, big_endian=False, header_size=14, compressed=False):
    fit = FIT(big_endian)
    fit.define(0, 0, FILE_ID)
    fit.data(0, FILE_ID, [4, manufacturer, 3121, 123456789, T0])
    fit.define(3, 12, SPORT)
    fit.data(3, SPORT, [sport, 0])
    fit.define(1, 20, RECORD)
    for i in range(points):
        fit.data(1, RECORD, [T0 + i * 5, 536_870_912 + i * 1000, -1_073_741_824 - i * 900, 2600 + i, 120 + i, 80, i * 1500, 3000, 200])
    if compressed:
        fit.define(2, 20, [(3, "B"), (5, "I")])
        for i in range(4):
            fit.compressed(2, (T0 + points * 5 + i * 3) & 0x1F, [(3, "B"), (5, "I")], [130, (points + i) * 1500])
    fit.define(4, 19, LAP)
    fit.data(4, LAP, [T0 + 60, T0, 60_000, 55_000, 9000, 80, 140, 160, 50_000])
    fit.define(5, 18, SESSION)
    fit.data(5, SESSION, [T0 + 60, T0, sport, 0, 60_000, 55_000, 9000, 80, 141, 161, 52_000])
    fit.define(6, 34, ACTIVITY)
    fit.data(6, ACTIVITY, [T0 + 60, 1, T0 + 60 + 3600])
    return fit.file(header_size)


def monitoring_fit():
    fit = FIT()
    fit.define(0, 0, FILE_ID)
    fit.data(0, FILE_ID, [15, 1, 2697, 987654321, T0])
    info = [(253, "I"), (0, "I")]
    fit.define(1, 103, info)
    fit.data(1, info, [T0, T0 + 3600])
    mon = [(253, "I"), (3, "I"), (5, "B"), (24, "B")]
    fit.define(2, 55, mon)
    for i in range(5):
        fit.data(2, mon, [T0 + i * 60, 100 * (i + 1), 6 if i % 2 else 1, (1 if i % 2 else 6) | 0x20])
    mon16 = [(26, "H"), (3, "I"), (5, "B")]
    fit.define(3, 55, mon16)
    fit.data(3, mon16, [(T0 + 400) & 0xFFFF, 900, 6])
    return fit.file()


def developer_fit():
    fit = FIT()
    fit.define(0, 0, FILE_ID)
    fit.data(0, FILE_ID, [4, 255, 1, 42, T0])
    dev_id = [(3, "B"), (1, "I")]
    fit.define(1, 207, dev_id)
    fit.data(1, dev_id, [0, 7])
    desc = [(0, "B"), (1, "B"), (2, "B")]
    fit.define(2, 206, desc)
    fit.data(2, desc, [0, 0, 0x84])
    fit.define(3, 20, [(253, "I"), (3, "B")], developer=[(0, 2, 0)])
    for i in range(3):
        fit.data(3, [(253, "I"), (3, "B")], [T0 + i, 100 + i], developer_bytes=struct.pack("<H", 250 + i))
    fit.define(4, 18, SESSION)
    fit.data(4, SESSION, [T0 + 3, T0, 2, 0, 3000, 3000, 100, 1, 101, 103, 3000])
    return fit.file()


def fit_seeds():
    write("FuzzFIT", "activity-garmin.fit", activity_fit())
    write("FuzzFIT", "activity-wahoo-ride-12-byte-header.fit", activity_fit(manufacturer=32, sport=2, header_size=12))
    write("FuzzFIT", "activity-big-endian.fit", activity_fit(big_endian=True, points=3))
    write("FuzzFIT", "activity-compressed-timestamps.fit", activity_fit(compressed=True, points=2))
    write("FuzzFIT", "monitoring.fit", monitoring_fit())
    write("FuzzFIT", "developer-fields.fit", developer_fit())
    write("FuzzFIT", "chained.fit", activity_fit(points=2) + monitoring_fit())
    settings = FIT()
    settings.define(0, 0, FILE_ID)
    settings.data(0, FILE_ID, [2, 1, 1, 1, T0])
    write("FuzzFIT", "settings-file.fit", settings.file())
    write("FuzzFIT", "header-only.fit", FIT().file())


# ---------------------------------------------------------------- XML

GPX = """<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="fuzz" xmlns="http://www.topografix.com/GPX/1/1"
     xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
  <metadata><name>Morning &amp; run</name><time>2024-11-01T07:00:00Z</time></metadata>
  <wpt lat="45.1" lon="13.9"><name>start</name></wpt>
  <rte><rtept lat="45.1" lon="13.9"/></rte>
  <trk><name><![CDATA[Run <one>]]></name><type>running</type><!-- a comment -->
    <trkseg>
      <trkpt lat="45.100000" lon="13.900000"><ele>12.5</ele><time>2024-11-01T07:00:00Z</time>
        <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr><gpxtpx:cad>80</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>
      <trkpt lat='45.100900' lon='13.900900'><ele>13.0</ele><time>2024-11-01T07:00:10+01:00</time></trkpt>
      <trkpt lat="45.101800" lon="13.901800"><time>2024-11-01T07:00:20.5Z</time></trkpt>
    </trkseg>
  </trk>
  <trk><type>1</type><trkseg><trkpt lat="1" lon="2"><time>2024-11-02T07:00:00Z</time></trkpt></trkseg></trk>
</gpx>
"""

GPX10 = """<?xml version="1.0"?><gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><trk><type>9</type><trkseg>
<trkpt lat="-33.9" lon="151.2"><time>2020-02-29T23:59:59Z</time><speed>3.1</speed></trkpt>
<trkpt lat="-33.91" lon="151.21"><time>2020-03-01T00:00:09Z</time></trkpt></trkseg></trk></gpx>"""

TCX = """<?xml version="1.0" encoding="UTF-8" standalone="no" ?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
  xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
  <Activities>
    <Activity Sport="Biking">
      <Id>2024-11-01T07:00:00.000Z</Id>
      <Lap StartTime="2024-11-01T07:00:00.000Z">
        <TotalTimeSeconds>600.5</TotalTimeSeconds><DistanceMeters>4000.0</DistanceMeters><Calories>120</Calories>
        <AverageHeartRateBpm><Value>140</Value></AverageHeartRateBpm><MaximumHeartRateBpm><Value>170</Value></MaximumHeartRateBpm>
        <Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod>
        <Track>
          <Trackpoint><Time>2024-11-01T07:00:00.000Z</Time><Position><LatitudeDegrees>45.1</LatitudeDegrees><LongitudeDegrees>13.9</LongitudeDegrees></Position>
            <AltitudeMeters>10</AltitudeMeters><DistanceMeters>0</DistanceMeters><HeartRateBpm><Value>120</Value></HeartRateBpm><Cadence>80</Cadence>
            <Extensions><ns3:TPX><ns3:Speed>6.5</ns3:Speed><ns3:Watts>210</ns3:Watts></ns3:TPX></Extensions></Trackpoint>
          <Trackpoint><Time>2024-11-01T07:10:00.500+01:00</Time><DistanceMeters>4000</DistanceMeters></Trackpoint>
        </Track>
      </Lap>
      <Lap StartTime="2024-11-01T07:10:00Z"><TotalTimeSeconds>60</TotalTimeSeconds></Lap>
      <Notes>Windy &#x263A; &#9731;</Notes>
      <Creator xsi:type="Device_t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Name>Edge</Name></Creator>
    </Activity>
    <Activity Sport="Other"><Id>2024-11-02T07:00:00Z</Id><Lap StartTime="2024-11-02T07:00:00Z"><TotalTimeSeconds>1</TotalTimeSeconds></Lap></Activity>
  </Activities>
</TrainingCenterDatabase>
"""

HEALTH = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!ELEMENT HealthData (ExportDate,Me,(Record|Workout)*)>
<!ATTLIST HealthData locale CDATA #REQUIRED>
]>
<HealthData locale="en_US">
 <ExportDate value="2024-11-03 10:00:00 +0100"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth=""/>
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" sourceVersion="17" unit="count" creationDate="2024-11-01 08:10:00 +0100" startDate="2024-11-01 08:00:00 +0100" endDate="2024-11-01 08:10:00 +0100" value="812"/>
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-11-01 08:00:00 -0500" endDate="2024-11-01 08:01:00 -0500" value="12.0">
  <MetadataEntry key="HKWasUserEntered" value="1"/>
 </Record>
 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-11-01 08:00:00 +0100" endDate="2024-11-01 08:00:00 +0100" value="70"/>
 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30.5" durationUnit="min" totalDistance="5.2" totalDistanceUnit="km" totalEnergyBurned="320" totalEnergyBurnedUnit="kcal" sourceName="Watch" creationDate="2024-11-01 09:00:00 +0100" startDate="2024-11-01 08:20:00 +0100" endDate="2024-11-01 08:51:00 +0100">
  <MetadataEntry key="HKIndoorWorkout" value="0"/>
  <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-11-01 08:30:00 +0100"/>
  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-11-01 08:20:00 +0100" endDate="2024-11-01 08:51:00 +0100" average="150" minimum="90" maximum="175" unit="count/min"/>
  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="300" unit="kcal"/>
  <WorkoutRoute sourceName="Watch" startDate="2024-11-01 08:20:00 +0100" endDate="2024-11-01 08:51:00 +0100">
   <FileReference path="/workout-routes/route_2024-11-01_8.51am.gpx"/>
   <Location date="2024-11-01 08:20:00 +0100" latitude="45.1" longitude="13.9" altitude="10" horizontalAccuracy="3" verticalAccuracy="2" course="90" speed="3" />
  </WorkoutRoute>
 </Workout>
 <Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="3600" durationUnit="s" totalDistance="20" totalDistanceUnit="mi" totalEnergyBurned="2000" totalEnergyBurnedUnit="kJ" sourceName="Bike" startDate="2024-11-02 08:00:00 +0000" endDate="2024-11-02 08:00:00 +0000"/>
 <ActivitySummary dateComponents="2024-11-01" activeEnergyBurned="400"/>
</HealthData>
"""

ROUTE_GPX = """<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Route</name><trkseg>
<trkpt lon="13.9" lat="45.1"><ele>10</ele><time>2024-11-01T07:20:00Z</time><extensions><speed>3.0</speed><course>90</course><hAcc>3</hAcc><vAcc>2</vAcc></extensions></trkpt>
<trkpt lon="13.91" lat="45.11"><ele>11</ele><time>2024-11-01T07:21:00Z</time></trkpt></trkseg></trk></gpx>
"""


def xml_seeds():
    write("FuzzXML", "track.gpx", GPX)
    write("FuzzXML", "gpx-1.0.gpx", GPX10)
    write("FuzzXML", "activity.tcx", TCX)
    write("FuzzXML", "export.xml", HEALTH)
    write("FuzzXML", "route.gpx", ROUTE_GPX)
    write("FuzzXML", "bom-and-declaration.gpx", b"\xef\xbb\xbf" + GPX10.replace('<?xml version="1.0"?>', "<?xml version='1.0' encoding='utf-8'?>").encode())
    write("FuzzXML", "latin1-declared.xml", '<?xml version="1.0" encoding="ISO-8859-1"?><gpx><trk/></gpx>')
    write("FuzzXML", "entities-and-pi.xml",
          '<?xml version="1.0"?><?xml-stylesheet href="a"?><!-- c --><TrainingCenterDatabase a="&lt;&gt;&quot;&apos;&#10;">'
          '<Activities><Activity Sport="Running"><Id>2024-01-01T00:00:00Z</Id><Notes>a&amp;b&#65;&#x42;</Notes></Activity></Activities>'
          '</TrainingCenterDatabase>')


# ---------------------------------------------------------------- zip and gzip

def zip_bytes(entries, compression=zipfile.ZIP_DEFLATED, zip64=False):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2024, 11, 3, 10, 0, 0))
            info.compress_type = compression
            with archive.open(info, "w", force_zip64=zip64) as out:
                out.write(data.encode() if isinstance(data, str) else data)
    return buffer.getvalue()


def gzip_bytes(data, name=None, extra=False, comment=False, header_crc=False, level=6):
    raw = data.encode() if isinstance(data, str) else data
    flags = (4 if extra else 0) | (8 if name else 0) | (16 if comment else 0) | (2 if header_crc else 0)
    header = bytearray([0x1F, 0x8B, 8, flags, 0, 0, 0, 0, 0, 3])
    if extra:
        header += struct.pack("<H", 6) + b"AB\x02\x00xy"
    if name:
        header += name.encode() + b"\0"
    if comment:
        header += b"fuzz seed\0"
    if header_crc:
        import zlib
        header += struct.pack("<H", zlib.crc32(bytes(header)) & 0xFFFF)
    import zlib
    compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
    body = compressor.compress(raw) + compressor.flush()
    return bytes(header) + body + struct.pack("<II", zlib.crc32(raw), len(raw) & 0xFFFFFFFF)


def archive_seeds():
    small_health = HEALTH.replace(HEALTH[HEALTH.index("<!DOCTYPE"):HEALTH.index("<HealthData")], "")
    write("FuzzArchive", "export-deflated.zip", zip_bytes([("apple_health_export/export.xml", small_health),
                                                            ("apple_health_export/workout-routes/route_2024-11-01_8.51am.gpx", ROUTE_GPX)]))
    write("FuzzArchive", "export-stored.zip", zip_bytes([("export.xml", small_health)], compression=zipfile.ZIP_STORED))
    write("FuzzArchive", "export-zip64.zip", zip_bytes([("export.xml", small_health[:600] + "</HealthData>")], zip64=True))
    write("FuzzArchive", "no-export.zip", zip_bytes([("other.txt", "x")]))
    write("FuzzArchive", "route.gpx.gz", gzip_bytes(GPX10, name="route.gpx"))
    write("FuzzArchive", "activity.tcx.gz", gzip_bytes(TCX[:1200] + "</Lap></Activity></Activities></TrainingCenterDatabase>",
                                                       extra=True, comment=True, header_crc=True))
    write("FuzzArchive", "activity.fit.gz", gzip_bytes(activity_fit(points=2), level=1))
    write("FuzzArchive", "stored-blocks.csv.gz", gzip_bytes(STRAVA_HEADER + "\n", level=0))
    write("FuzzArchive", "fixed-huffman.gz", gzip_bytes("ab" * 20, level=9))


# ---------------------------------------------------------------- Strava CSV

STRAVA_COLUMNS = ["Activity ID", "Activity Date", "Activity Name", "Activity Type", "Activity Description", "Elapsed Time",
                  "Distance", "Max Heart Rate", "Relative Effort", "Commute", "Activity Private Note", "Activity Gear",
                  "Filename", "Athlete Weight", "Bike Weight", "Elapsed Time", "Moving Time", "Distance", "Max Speed",
                  "Average Speed", "Elevation Gain", "Elevation Loss", "Elevation Low", "Elevation High", "Max Grade",
                  "Average Grade", "Average Positive Grade", "Average Negative Grade", "Max Cadence", "Average Cadence",
                  "Max Heart Rate", "Average Heart Rate", "Max Watts", "Average Watts", "Calories"]
STRAVA_HEADER = ",".join(STRAVA_COLUMNS)


def strava_row(values):
    row = [""] * len(STRAVA_COLUMNS)
    for index, value in values.items():
        row[index] = value
    return ",".join(row)


def strava_seeds():
    rows = [
        strava_row({0: "1001", 1: '"Oct 5, 2014, 4:15:21 PM"', 2: "Lunch Run", 3: "Run", 5: "1800", 6: "5.01", 12: "activities/1001.fit.gz",
                    15: "1800.0", 16: "1700", 17: "5012.3", 30: "171", 31: "150.5", 34: "420"}),
        strava_row({0: "1002", 1: "2024-11-01 07:00:00", 2: '"Ride, ""windy"""', 3: "Ride", 5: "3600", 6: "20.5", 7: "160", 16: "3500"}),
        strava_row({0: "1003", 1: '"Jan 1, 2020, 12:00:00 AM"', 2: '"multi\nline"', 3: "Sail", 6: "2.5", 15: "99.5"}),
        strava_row({0: "", 1: "not a date", 3: "Yoga"}),
    ]
    write("FuzzStravaCSV", "activities.csv", STRAVA_HEADER + "\n" + "\n".join(rows) + "\n")
    write("FuzzStravaCSV", "bom-crlf.csv", "\ufeff" + STRAVA_HEADER + "\r\n" + rows[1] + "\r\n")
    write("FuzzStravaCSV", "short-header.csv", "Activity ID,Activity Date\n1,2024-01-01\n")
    write("FuzzStravaCSV", "quoted-header.csv", '"Activity ID","Activity Date",' + ",".join(STRAVA_COLUMNS[2:]) + "\n" + rows[0])


# ---------------------------------------------------------------- Logbook: wire form, bodies, queries

EVENT_TYPES = ["user.registered", "user.profile_updated", "workout.started", "workout.paused", "workout.resumed",
               "workout.finished", "workout.discarded", "workout.imported", "workout.edited", "workout.deleted",
               "steps.recorded", "goal.set", "goal.cleared", "goal.default_set", "place.added", "place.swiped",
               "place.visited", "place.notes_edited", "places.reset", "workout.track_recorded", "user.erased"]
# RequestFuzz.routes, in order: (event type or "pause", path field).
ROUTES = [("workout.started", "new"), ("workout.imported", "new"), ("pause", None),
          # The body routes of their own (RequestFuzz.Route): a new planned workout, its changes, a plan, a track piece.
          ("new-planned", None), ("planned-changes", None), ("plan-request", None), ("track-piece", None)]
# Then DeclaredRoute.all: the routes the declarations give, by index.
_declared = sorted((json.loads(p.read_text()) for p in (ROOT / "Schemas" / "declarations" / "events").glob("*.json")),
                   key=lambda d: d["index"])
ROUTES += [(d["type"], next((f for f in re.findall(r"\{(\w+)\}", d["route"]["path"]) if f != "user"), None))
           for d in _declared if "route" in d]
# RequestFuzz.pathValues indexes.
PATH_INDEX = {"workoutId": 0, "date": 1, "placeId": 2, "new": 0, None: 0}
PATH_VALUES = {"workoutId": "w1", "date": "2026-03-01", "placeId": "p-1"}


def wire_seeds():
    fixtures = sorted((ROOT / "Schemas" / "fixtures").glob("*.json"))
    lines = []
    for path in fixtures:
        line = path.read_text().strip()
        lines.append(line)
        write("FuzzWireEvent", path.stem + ".json", line)
        event = json.loads(line)
        data = event.get("data")
        if data is None:
            continue
        for index, (kind, field) in enumerate(ROUTES):
            if kind != event["type"] or event["schemaVersion"] != 2 and kind in ("workout.finished", "workout.imported", "steps.recorded"):
                continue
            body = dict(data)
            if field in PATH_VALUES:
                body.pop(field, None) if path.stem.endswith("1") else body.__setitem__(field, PATH_VALUES[field])
            if field == "new":
                body.pop("workoutId", None)
            write("FuzzCommandBody", f"{kind}-{path.stem}.bin", bytes([index, PATH_INDEX.get(field, 0)]) + json.dumps(body).encode())
    write("FuzzWireEvent", "two-lines.jsonl", lines[0] + "\n" + lines[1] + "\n")
    write("FuzzWireEvent", "data-before-type.json",
          '{"data":{"date":"2026-11-20","steps":9000},"type":"goal.set","schemaVersion":1,"position":null,"stream":"goals-u-1",'
          '"streamVersion":3,"eventId":"00000000-0000-4000-8000-000000000009","subject":"u-1","occurredAt":"2026-11-20T08:00:00Z",'
          '"recordedAt":"2026-11-20T08:00:00.000001+14:00","correlationId":"00000000-0000-4000-8000-00000000000a",'
          '"causationId":null,"metadata":{"b":[1,2.5e3,{"c":null}],"a":"\\u00e9\\ud83c\\udfc3"}}')
    pause = ROUTES.index(("pause", None))
    write("FuzzCommandBody", "pause-at.bin", bytes([pause, 0]) + b'{"at":"2026-11-20T08:00:00.5+01:00"}')
    write("FuzzCommandBody", "pause-empty.bin", bytes([pause, 0]))
    # The catalog import comes last, after every route of ROUTES.
    catalog = len(ROUTES)
    place = {"placeId": "p-1", "name": "Caf\u00e9", "category": "restaurant", "subcategory": "cafe", "latitude": 48.85, "longitude": 2.35}
    write("FuzzCommandBody", "catalog-ndjson.bin", bytes([catalog, 1]) + (json.dumps(place) + "\r\n\n" + json.dumps(dict(place, placeId="p-2")) + "\n").encode())
    feature = {"type": "Feature", "id": "p-3", "geometry": {"type": "Point", "coordinates": [2.35, 48.85, 35]},
               "properties": {k: v for k, v in place.items() if k not in ("latitude", "longitude", "placeId")}}
    write("FuzzCommandBody", "catalog-geojson.bin", bytes([catalog, 0]) + json.dumps({"type": "FeatureCollection", "name": "x", "features": [feature]}).encode())
    write("FuzzCommandBody", "goal-set-path-conflict.bin", bytes([ROUTES.index(("goal.set", "date")), 1]) + b'{"date":"2026-03-02","steps":1}')
    for text in ["2026-11-20", "0002-01-01", "9998-12-31", "2024-02-29", "123", "position:9223372036854775807", "18446744073709551616",
                 "user.registered,goal.set", "goal.set,", "500", "2026-11-20T08:00:00.123456-05:30", "2026-11-20 08:00:00Z",
                 'W/"3"', "%C3%A9", "jos%65", "%ZZ", "u-1", "2026-11",
                 # Places searches: catalog names cut by "|", the last piece searched for as well.
                 "Caf\u00e9 Einstein|CAFE\u0301 am See|Stra\u00dfe der Pariser|\u0130stanbul Grill|caf",
                 "\u65e5\u672c|\u03a9mega|\u00df|a", "Ab|aB|ab"]:
        name = text.replace("/", "_").replace("%", "pct").replace(":", "_").replace('"', "q").replace(",", "_").replace("|", "_")
        if not name.isascii():
            name = "search-" + hashlib.sha256(text.encode()).hexdigest()[:12]
        write("FuzzQuery", name + ".txt", text)


# ---------------------------------------------------------------- Logbook: binary payloads and stored records

def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def zigzag(value):
    return varint(value << 1 if value >= 0 else ((-value) << 1) - 1)


def string(text):
    raw = text.encode()
    return varint(len(raw)) + raw


def timestamp(micros, offset=0):
    return zigzag(micros) + zigzag(offset)


T_MICROS = 1_763_625_600_000_000  # 2025-11-20T08:00:00Z


def binary_seeds():
    index = {name: i for i, name in enumerate(EVENT_TYPES)}
    payloads = {
        ("user.registered", 1): string("Ann") + string("Europe/Vienna") + bytes([0, 0]),
        ("user.profile_updated", 1): b"\x01" + string("Bo") + b"\x00\x01\x02\x02" + string("Watch"),
        ("workout.started", 1): string("w-1") + bytes([0]) + timestamp(T_MICROS, 3600) + bytes([0]),
        ("workout.paused", 1): string("w-1") + timestamp(T_MICROS),
        ("workout.finished", 1): string("w-1") + timestamp(T_MICROS, -18000) + zigzag(8012) + zigzag(2710) + b"\x01" + zigzag(7420) + b"\x00\x00\x00",
        ("workout.discarded", 1): string("w-1"),
        ("workout.edited", 1): string("w-1") + b"\x01" + string("Title") + b"\x00\x01\x02",
        ("goal.set", 1): zigzag(20_412) + zigzag(9000) + b"\x01" + zigzag(30),
        ("goal.cleared", 1): zigzag(20_412),
        ("goal.default_set", 1): zigzag(8000) + b"\x00",
        ("place.added", 1): string("p-1") + string("Cafe") + bytes([0]) + string("coffee") + struct.pack("<dd", 48.2, 16.37) + b"\x00\x00\x00\x00",
        ("place.swiped", 1): string("p-1") + bytes([1]),
        ("place.visited", 1): string("p-1") + timestamp(T_MICROS),
        ("place.notes_edited", 1): string("p-1") + string("good"),
        ("places.reset", 1): b"",
    }
    steps_hex = (ROOT / "Schemas" / "fixtures" / "steps.recorded.v1.bin.hex").read_text().strip()
    payloads[("steps.recorded", 1)] = bytes.fromhex(steps_hex)
    for (name, version), payload in payloads.items():
        write("FuzzBinaryPayload", f"{name}.v{version}.bin", bytes([index[name], version]) + payload)
    # LMDB log records (RecordCodec): checksum, format 1, head, tail; the checksum is not computed
    # (the target decodes without it and reseals what decodes).
    for number, ((name, version), payload) in enumerate(sorted(payloads.items())[:6]):
        subject = number % 2 == 0
        head = bytes([1, 1 if subject else 0]) + varint(index[name] + 1) + varint(7) + varint(number)
        head += varint(number) + (varint(1) if number else b"")  # stream links
        if subject:
            head += varint(3) + varint(number) + varint(0)
        head += zigzag(513) + zigzag(3600)
        flags = number % 8
        tail = bytes([flags]) + varint(version) + bytes(range(16)) + zigzag(T_MICROS) + zigzag(3600)
        if flags & 1:
            tail += bytes(range(16, 32))
        if flags & 2:
            tail += bytes(range(32, 48))
        if flags & 4:
            tail += string('{"source":"fuzz"}')
        write("FuzzLogRecord", f"lmdb-{name}.bin", b"\x00" + b"\0\0\0\0" + head + tail + payload)
    # Compact wire events (WireEvent.compactBytes).
    compact = varint(6) + string("workout-w-1") + varint(0) + bytes(range(16)) + string("goal.set") + varint(1)
    compact += b"\x01" + string("u-1") + timestamp(T_MICROS, 3600) + timestamp(T_MICROS + 513) + b"\x01" + bytes(range(16))
    compact += string("{}") + varint(len(payloads[("goal.set", 1)])) + payloads[("goal.set", 1)]
    write("FuzzLogRecord", "compact-goal-set.bin", b"\x01" + compact)
    tombstone = varint(84) + string("user-u-1") + varint(0) + bytes(range(16)) + string("user.registered") + varint(1)
    tombstone += b"\x01" + string("u-1") + timestamp(T_MICROS) + timestamp(T_MICROS) + b"\x04" + string("{}")
    write("FuzzLogRecord", "compact-tombstone.bin", b"\x01" + tombstone)
    # Read-model records: a few keys in the key layout (NUL-ended strings, biased big-endian
    # integers) for every selector; libFuzzer finds the values' layouts from these.
    key_int = struct.pack(">Q", (20_412 ^ (1 << 63)) & 0xFFFFFFFFFFFFFFFF)
    for selector in range(33):  # TableRecordCodecs.all.count
        write("FuzzReadModel", f"record-{selector:02d}.bin", bytes([selector]) + b"u-1\0" + key_int + b"w-1\0" + struct.pack(">I", 7))


def postgres_seeds():
    def cell(data):
        return bytes([len(data)]) + data
    null = bytes([255])
    row = (cell(struct.pack(">q", 7)) + cell(b"workout-w-1") + cell(struct.pack(">q", 0)) + cell(bytes(range(16)))
           + cell(b"goal.set") + cell(struct.pack(">i", 1)) + cell(b"u-1") + cell(struct.pack(">q", T_MICROS))
           + cell(struct.pack(">i", 3600)) + cell(struct.pack(">q", T_MICROS + 513)) + cell(struct.pack(">i", 0)))
    write("FuzzPostgresRow", "goal-set.bin", row + cell(bytes(range(16, 32))) + null + cell(b"{}") + cell(zigzag(20_412) + zigzag(9000) + b"\x00")
          + cell(struct.pack(">q", 0)))
    write("FuzzPostgresRow", "nulls.bin", row[:-5] + null + null + null + null + cell(b"") + cell(b"") + cell(struct.pack(">q", -1)))


def backup_rows_seeds():
    """Rows files of a PostgreSQL backup: a selector byte (0 events, 1 checkpoints, 2 kept
    answers), then what follows the file's magic line: frames of a 4-byte little-endian length
    and one row."""
    def frame(row):
        return struct.pack("<I", len(row)) + row

    def event(position, stream, version, type_, subject, payload, correlation=None):
        row = varint(position) + string(stream) + varint(version) + bytes(range(position, position + 16)) + string(type_) + varint(1)
        row += (b"\x01" + string(subject)) if subject is not None else b"\x00"
        row += timestamp(T_MICROS + position, 3600) + timestamp(T_MICROS + position + 513)
        row += (b"\x01" + correlation) if correlation else b"\x00"
        row += b"\x00" + varint(2) + b"{}" + varint(len(payload)) + payload
        return frame(row)

    goal = zigzag(20_412) + zigzag(9000) + b"\x00"
    write("FuzzBackupRows", "events-empty.bin", b"\x00")
    write("FuzzBackupRows", "events-one.bin", b"\x00" + event(1, "user-u-1", 0, "goal.set", "u-1", goal))
    write("FuzzBackupRows", "events-three.bin", b"\x00" + event(1, "user-u-1", 0, "user.registered", "u-1", string("Ann") + string("Europe/Vienna") + bytes([0, 0]))
          + event(2, "user-u-1", 1, "goal.set", "u-1", goal, correlation=bytes(range(100, 116)))
          + event(3, "catalog", 0, "place.added", None, string("p-1")))
    write("FuzzBackupRows", "checkpoint.bin", b"\x01" + frame(string("webhooks") + varint(3) + varint(3) + b"\x00\xff\x09"))
    answer = (varint(32) + bytes([7] * 32) + zigzag(T_MICROS) + varint(3) + b"\x01\x02\x03" + varint(201)
              + b"\x01" + string('"v1"') + string('{"ok":true}'))
    write("FuzzBackupRows", "answer.bin", b"\x02" + frame(answer))
    write("FuzzBackupRows", "answer-no-tag.bin", b"\x02" + frame(answer.replace(b"\x01" + string('"v1"'), b"\x00")))


# ---------------------------------------------------------------- Webhooks: URLs, addresses, receivers' answers

def webhook_seeds():
    urls = [
        "https://push.example/logbook", "http://127.0.0.1:8080/hook", "http://localhost/hook", "http://0.0.0.0/",
        "http://2130706433/", "http://0x7f.1/", "http://0177.0.0.01/", "http://127.1/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:a9fe:a9fe]/", "http://169.254.169.254/latest/meta-data/", "http://[fe80::1%25eth0]/", "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::]/", "https://hooks.example.com/x?token=abc&y=1", "http://user:pw@example.com/", "http://example.com/#frag",
        "http://xn--bcher-kva.example./", "http://1.2.3.4.5/", "http://example.0x10/", "HTTP://Push.Example.COM:65535/a/b",
        "http://example.com:0/", "ftp://example.com/", "http://exa%2Fmple.com/", "http://[127.0.0.1]/", "http://4294967295/",
    ]
    for index, url in enumerate(urls):
        write("FuzzWebhookURL", f"url-{index:02d}.txt", url)
    for index, host in enumerate(["0x7f.0x0.0x0.0x1", "999999999999999999999", "08", "0x", "1.2.3.", "::ffff:0:7f00:1", "2001:db8::1"]):
        write("FuzzWebhookURL", f"host-{index:02d}.txt", host)
    # Raw addresses: 16 bytes read as IPv6, the first 4 as IPv4.
    write("FuzzWebhookURL", "bytes-mapped.bin", bytes(10) + b"\xff\xff" + bytes([127, 0, 0, 1]))
    write("FuzzWebhookURL", "bytes-6to4.bin", b"\x20\x02" + bytes([169, 254, 169, 254]) + bytes(10))
    answers = {
        "ok": b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        "no-content": b"HTTP/1.1 204 No Content\r\n\r\n",
        "teapot": b"HTTP/1.1 418 I'm a teapot\r\nContent-Length: 5\r\n\r\nshort",
        "redirect": b"HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/\r\nContent-Length: 0\r\n\r\n",
        "server-error-chunked": b"HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "continue-then-ok": b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
        "until-close": b"HTTP/1.0 200 OK\r\n\r\n" + b"x" * 70000,
        "large-chunks": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + (b"8000\r\n" + b"y" * 0x8000 + b"\r\n") * 3 + b"0\r\n\r\n",
        "odd-status": b"HTTP/1.1 999 Whatever\r\nContent-Length: 0\r\n\r\n",
        "garbage": b"SSH-2.0-OpenSSH_9.6\r\n",
    }
    for name, data in answers.items():
        write("FuzzWebhookAnswer", name + ".bin", data)


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    fit_seeds()
    xml_seeds()
    archive_seeds()
    strava_seeds()
    wire_seeds()
    binary_seeds()
    postgres_seeds()
    backup_rows_seeds()
    webhook_seeds()
    total = sum(f.stat().st_size for f in OUT.rglob("*") if f.is_file())
    count = sum(1 for f in OUT.rglob("*") if f.is_file())
    print(f"{count} seed files, {total // 1024} KiB, in {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
