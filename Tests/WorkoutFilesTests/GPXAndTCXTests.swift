import Foundation
import Testing
@testable import WorkoutFiles

@Suite struct GPXTests {
    @Test func haversineUsesTheMeanEarthRadius() {
        // One degree of latitude on a sphere of radius 6,371,008.8 m is R·π/180 = 111,195.08 m.
        let degree = TrackMath.haversineMeters(lat1: 0, lon1: 0, lat2: 1, lon2: 0)
        #expect(abs(degree - 6_371_008.8 * Double.pi / 180) < 1e-6)
    }

    @Test func gpx11TrackDistanceAndTimes() throws {
        let file = try GPXParser().parse(RealData.url("gpx/gpxpy-1.6.2__around-visnjan-with-car.gpx"))
        let track = try #require(file.workouts.first)
        #expect(track.track.count == 104)
        // Reference: the same haversine sum computed independently in Python (2,733.243 m).
        #expect(abs((track.distanceMeters ?? 0) - 2733.243) < 0.01)
        #expect(track.elapsedSeconds == 514)
        #expect(track.title == "2020-12-18 07:24:29")
        #expect(track.startedAt.description == "2020-12-18T06:15:50Z (offset unknown)")
        #expect(track.sourceKind == "file" && track.sourceId.hasPrefix("gpx:") && track.sourceId.hasSuffix(":0"))
        let moving = try #require(track.movingSeconds)
        #expect(moving > 0 && moving <= track.elapsedSeconds)
    }

    @Test func gpx10MultipleTracksAndSkips() throws {
        let file = try GPXParser().parse(RealData.url("gpx/gpxpy-1.6.2__korita-zbevnica.gpx"))
        // Four <trk>: one empty, one without times (358 points), two kept.
        #expect(file.workouts.count == 2)
        #expect(file.workouts.map { $0.sourceId.split(separator: ":").last! } == ["2", "3"])
        #expect(abs((file.workouts[0].distanceMeters ?? 0) - 2282.0446) < 0.01)
        #expect(abs((file.workouts[1].distanceMeters ?? 0) - 3979.4994) < 0.01)
        #expect(file.skipped.contains(SkipNote(reason: "GPX track without timestamps", count: 1)))
        #expect(file.skipped.contains(SkipNote(reason: "GPX waypoint (wpt)", count: 2)))
        // The typed tracks ("jkljkl", "...") are the empty and the untimed one.
        #expect(file.workouts.allSatisfy { $0.sportName == nil && $0.activityType == "other" })
    }

    @Test func waypointOnlyFileHasNoWorkouts() throws {
        let file = try GPXParser().parse(RealData.url("gpx/gpxpy-1.6.2__gpx_with_garmin_extension.gpx"))
        #expect(file.workouts.isEmpty)
        #expect(file.skipped == [SkipNote(reason: "GPX waypoint (wpt)", count: 1)])
    }

    @Test func timestampsThatDoNotAdvanceAreFlagged() throws {
        let file = try GPXParser().parse(RealData.url("gpx/gpxpy-1.6.2__Mojstrovka.gpx"))
        #expect(file.workouts.first?.track.count == 184)
        #expect(file.warnings.count == 1)
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

@Suite struct TCXTests {
    @Test func knownTotalsAreSumsOfLaps() throws {
        let file = try TCXParser().parse(RealData.url("tcx/python-tcxparser__test.tcx"))
        let run = try #require(file.workouts.first)
        #expect(run.laps.count == 3)
        // python-tcxparser reports 1,993 s / 4,689 m / 379 kcal: the sums of the laps'
        // TotalTimeSeconds (1,992.78), DistanceMeters (4,689.2427) and Calories, rounded.
        #expect(abs(run.elapsedSeconds - 1993) < 0.5 && abs(run.elapsedSeconds - 1992.78) < 1e-9)
        #expect(abs((run.distanceMeters ?? 0) - 4689) < 0.5 && abs((run.distanceMeters ?? 0) - 4689.24267578) < 1e-6)
        #expect(run.activeKcal == 379)
        #expect(run.laps.map(\.activeKcal) == [94, 147, 138] || run.laps.compactMap(\.activeKcal).reduce(0, +) == 379)
        #expect(run.activityType == "run" && run.sportName == "Running" && run.title == "Aerobics")
        #expect(run.maxHeartRate == 189)
        #expect(run.track.count == 384)
        #expect(run.track.first?.heartRate != nil)
    }

    @Test func extensionSpeedByNamespace() throws {
        let file = try TCXParser().parse(RealData.url("tcx/tcxreader__cross-country-skiing_activity_1.tcx"))
        let ski = try #require(file.workouts.first)
        #expect(ski.laps.count == 2)
        #expect(ski.track.count == 486)
        #expect(ski.track.allSatisfy { $0.speedMetersPerSecond != nil && $0.cadence != nil })
        #expect(abs((ski.distanceMeters ?? 0) - 5692.01) < 1e-6)
        #expect(ski.activeKcal == 532)
    }

    @Test func offsetsInTimesAreKept() throws {
        let file = try TCXParser().parse(RealData.url("tcx/tcxreader__mapmyride_biking.tcx"))
        let ride = try #require(file.workouts.first)
        #expect(ride.activityType == "ride")
        #expect(ride.startedAt.offsetKnown && ride.startedAt.utcOffsetSeconds == 0)
        #expect(ride.track.count == 3112)
        #expect(ride.track[0].time?.microsecondsSinceEpoch == ride.startedAt.microsecondsSinceEpoch + 849_800)
    }
}
