import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Haversine distance and moving time over points, as the readers must derive them: segments do
/// not join, an interval counts as moving at 0.5 m/s or more.
func derivedTotals(_ segments: [[(time: Double?, latitude: Double?, longitude: Double?, meters: Double?)]], recorded: Bool = false)
    -> (distance: Double, moving: Double) {
    var distance = 0.0, moving = 0.0
    for segment in segments {
        for (a, b) in zip(segment, segment.dropFirst()) {
            var step: Double?
            if recorded, let d0 = a.meters, let d1 = b.meters {
                step = max(0, d1 - d0)
            } else if let lat0 = a.latitude, let lon0 = a.longitude, let lat1 = b.latitude, let lon1 = b.longitude {
                step = Geo.meters(lat0, lon0, lat1, lon1)
            }
            guard let step else { continue }
            distance += step
            if let t0 = a.time, let t1 = b.time, t1 > t0, step / (t1 - t0) >= 0.5 { moving += t1 - t0 }
        }
    }
    return (distance, moving)
}

extension GPXTrack {
    var derived: (distance: Double, moving: Double) {
        derivedTotals(segments.map { $0.map { (($0.time?.microseconds).map { Double($0) / 1e6 }, $0.latitude, $0.longitude, nil) } })
    }
}

/// GPX 1.0 and 1.1 written by the fixtures: distance, moving time, ids, skips and extensions.
@Suite struct GPXTests {
    @Test func haversineUsesTheMeanEarthRadius() {
        // One degree of latitude on a sphere of radius 6,371,008.8 m is R·π/180 = 111,195.08 m.
        let degree = TrackMath.haversineMeters(lat1: 0, lon1: 0, lat2: 1, lon2: 0)
        #expect(abs(degree - 6_371_008.8 * Double.pi / 180) < 1e-6)
    }

    @Test func gpx11TrackDistanceAndTimes() throws {
        let document = SampleText.gpxRun
        let file = try GPXParser().parse(bytes: document.bytes, fileName: "run.gpx")
        let spec = document.tracks[0], points = spec.segments[0]
        let track = try #require(file.workouts.first)
        #expect(track.track.count == points.count)
        #expect(abs((track.distanceMeters ?? 0) - spec.derived.distance) < 1e-6)
        #expect(track.movingSeconds == spec.derived.moving && spec.derived.moving < track.elapsedSeconds, "five points stand still")
        #expect(track.elapsedSeconds == Double(points.last!.time!.unix - points[0].time!.unix))
        #expect(track.title == spec.name && track.sportName == spec.type && track.activityType == "run")
        #expect(track.startedAt.description == points[0].time!.text + " (offset unknown)")
        #expect(track.sourceKind == "file" && track.sourceId == "gpx:\(ContentDigest.sha256Prefix(document.bytes)):0")
        // Heart rate and cadence come from the TrackPointExtension, whatever its prefix (here ns3).
        #expect(track.track.map(\.heartRate) == points.map(\.heartRate) && track.track.map(\.cadence) == points.map(\.cadence))
        #expect(track.track.map(\.altitudeMeters) == points.map(\.elevation))
        let rates = points.compactMap(\.heartRate)
        #expect(track.avgHeartRate == Int((Double(rates.reduce(0, +)) / Double(rates.count)).rounded()) && track.maxHeartRate == rates.max())
    }

    @Test func gpx10MultipleTracksAndSkips() throws {
        let document = SampleText.gpxTracks
        let file = try GPXParser().parse(bytes: document.bytes, fileName: "tracks.gpx")
        // Four <trk>: one empty, one without times, two kept; ids count every track.
        #expect(file.workouts.count == 2)
        #expect(file.workouts.map { $0.sourceId.split(separator: ":").last! } == ["2", "3"])
        for (workout, spec) in zip(file.workouts, document.tracks[2...]) {
            #expect(abs((workout.distanceMeters ?? 0) - spec.derived.distance) < 1e-6, "segments are not joined")
            let times = spec.segments.joined().compactMap(\.time?.unix)
            #expect(workout.elapsedSeconds == Double(times.max()! - times.min()!) && workout.title == spec.name)
        }
        #expect(file.skipped == [SkipNote(reason: "GPX waypoint (wpt)", count: 2), SkipNote(reason: "GPX track without points", count: 1),
                                 SkipNote(reason: "GPX track without timestamps", count: 1)])
        // The typed tracks ("jkljkl", "...") are the empty and the untimed one.
        #expect(file.workouts.allSatisfy { $0.sportName == nil && $0.activityType == "other" })
    }

    @Test func waypointOnlyFileHasNoWorkouts() throws {
        let file = try GPXParser().parse(bytes: SampleText.gpxWaypoint.bytes, fileName: "wpt.gpx")
        #expect(file.workouts.isEmpty)
        #expect(file.skipped == [SkipNote(reason: "GPX waypoint (wpt)", count: 1)])
    }

    @Test func timestampsThatDoNotAdvanceAreFlagged() throws {
        let document = SampleText.gpxStill
        let file = try GPXParser().parse(bytes: document.bytes, fileName: "still.gpx")
        let points = document.tracks[0].segments[0]
        #expect(file.workouts.first?.track.count == points.count)
        #expect(file.warnings == ["track 0: \(points.count) points span less than one second (the file's timestamps do not advance)"])
        #expect(file.workouts.first?.startedAt.utcOffsetSeconds == points[0].time?.offsetSeconds)
    }

    @Test func appleRouteSpeedsFromBareExtensions() throws {
        let document = SampleExports.zippedRoute
        let route = try #require(try GPXParser().parse(bytes: document.bytes, fileName: "route.gpx").workouts.first)
        #expect(route.track.map(\.speedMetersPerSecond) == document.tracks[0].segments[0].map(\.speed))
    }

    @Test func garminExtensionsMatchedByNamespaceNotPrefix() throws {
        let gpx = """
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:zz="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
             xmlns:gpxtpx="urn:not-garmin">
          <trk><type>running</type><trkseg>
            <trkpt lat="52.0" lon="4.0"><time>2020-01-01T10:00:00+01:00</time>
              <extensions><zz:TrackPointExtension><zz:hr>150</zz:hr><zz:cad>88</zz:cad></zz:TrackPointExtension>
              <gpxtpx:hr>99</gpxtpx:hr></extensions></trkpt>
            <trkpt lat="52.001" lon="4.0"><time>2020-01-01T10:00:30+01:00</time>
              <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>99</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
          </trkseg></trk></gpx>
        """
        let file = try GPXParser().parse(bytes: Array(gpx.utf8), fileName: "ns.gpx")
        let run = try #require(file.workouts.first)
        #expect(run.activityType == "run")
        #expect(run.track.map(\.heartRate) == [150, nil])
        #expect(run.track.first?.cadence == 88)
        #expect(run.startedAt.offsetKnown && run.startedAt.utcOffsetSeconds == 3600)
        // 111.2 m in 30 s = 3.7 m/s ≥ 0.5 m/s, so the whole interval is moving.
        #expect(run.movingSeconds == 30)
    }

    @Test func movingTimeIgnoresSlowIntervals() throws {
        let gpx = """
        <gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><trk><trkseg>
        <trkpt lat="0" lon="0"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="0" lon="0.001"><time>2020-01-01T00:01:00Z</time></trkpt>
        <trkpt lat="0" lon="0.00101"><time>2020-01-01T00:02:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """
        let walk = try #require(try GPXParser().parse(bytes: Array(gpx.utf8), fileName: "slow.gpx").workouts.first)
        // 111.2 m in 60 s (1.85 m/s) counts; 1.1 m in 60 s (0.02 m/s) does not.
        #expect(walk.movingSeconds == 60)
        #expect(walk.elapsedSeconds == 120)
    }
}

/// TCX written by the fixtures: totals as lap sums, extensions under any prefix, offsets in times.
@Suite struct TCXTests {
    @Test func knownTotalsAreSumsOfLaps() throws {
        let document = SampleText.tcxRun
        let spec = document.activities[0]
        let file = try TCXParser().parse(bytes: document.bytes, fileName: "run.tcx")
        let run = try #require(file.workouts.first)
        #expect(run.laps.count == spec.laps.count)
        let elapsed = spec.laps.map(\.totalTimeSeconds).reduce(0, +)
        #expect(run.elapsedSeconds == elapsed && run.distanceMeters == spec.laps.map(\.distanceMeters).reduce(0, +))
        #expect(run.activeKcal == spec.laps.compactMap(\.calories).reduce(0, +))
        #expect(run.laps.map(\.activeKcal) == spec.laps.map(\.calories))
        #expect(run.laps.map(\.elapsedSeconds) == spec.laps.map(\.totalTimeSeconds))
        #expect(run.activityType == "run" && run.sportName == "Running" && run.title == spec.notes)
        let weighted = spec.laps.reduce(0.0) { $0 + Double($1.avgHeartRate!) * $1.totalTimeSeconds } / elapsed
        #expect(run.avgHeartRate == Int(weighted.rounded()) && run.maxHeartRate == spec.laps.compactMap(\.maxHeartRate).max())
        let points = spec.laps.flatMap(\.trackpoints)
        #expect(run.track.count == points.count && run.track.map(\.heartRate) == points.map(\.heartRate))
        #expect(run.track.map(\.distanceMeters) == points.map(\.distance))
        #expect(run.startedAt == FileTimestamp(unixSeconds: spec.laps[0].start.unix) && !run.startedAt.offsetKnown)
        #expect(run.endedAt == run.startedAt.adding(seconds: elapsed), "the laps outlast the track")
        // Moving time from the recorded distances, lap by lap.
        let moving = derivedTotals(spec.laps.map { $0.trackpoints.map { (Double($0.time.unix), $0.latitude, $0.longitude, $0.distance) } },
                                   recorded: true).moving
        #expect(run.movingSeconds == moving)
    }

    @Test func extensionSpeedByNamespace() throws {
        let document = SampleText.tcxSki
        let spec = document.activities[0]
        let ski = try #require(try TCXParser().parse(bytes: document.bytes, fileName: "ski.tcx").workouts.first)
        let points = spec.laps.flatMap(\.trackpoints)
        #expect(ski.laps.count == spec.laps.count && ski.track.count == points.count)
        // Speed and run cadence sit in the ActivityExtension's TPX, here under the prefix "ax".
        #expect(ski.track.map(\.speedMetersPerSecond) == points.map(\.speed) && ski.track.map(\.cadence) == points.map(\.runCadence))
        #expect(ski.distanceMeters == spec.laps.map(\.distanceMeters).reduce(0, +))
        #expect(ski.activeKcal == spec.laps.compactMap(\.calories).reduce(0, +) && ski.activityType == "other")
    }

    @Test func offsetsInTimesAreKept() throws {
        let document = SampleText.tcxRide
        let spec = document.activities[0].laps[0]
        let ride = try #require(try TCXParser().parse(bytes: document.bytes, fileName: "ride.tcx").workouts.first)
        #expect(ride.activityType == "ride")
        #expect(ride.startedAt.offsetKnown && ride.startedAt.utcOffsetSeconds == 0)
        #expect(ride.track.count == spec.trackpoints.count)
        #expect(ride.track[0].time?.microsecondsSinceEpoch == ride.startedAt.microsecondsSinceEpoch + Int64(spec.trackpoints[0].time.micros))
        #expect(ride.track.map(\.powerWatts) == spec.trackpoints.map(\.watts) && ride.track.map(\.cadence) == spec.trackpoints.map(\.cadence))
    }
}
