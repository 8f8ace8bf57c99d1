import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

extension RealDeviceFiles {
    /// GPX files of gpxpy's test set.
    @Suite struct RealGPXTests {
        @Test func gpx11TrackDistanceAndTimes() throws {
            let file = try GPXParser().parse(try RealDeviceCorpus.url("gpx/gpxpy-1.6.2__around-visnjan-with-car.gpx"))
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
            let file = try GPXParser().parse(try RealDeviceCorpus.url("gpx/gpxpy-1.6.2__korita-zbevnica.gpx"))
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
            let file = try GPXParser().parse(try RealDeviceCorpus.url("gpx/gpxpy-1.6.2__gpx_with_garmin_extension.gpx"))
            #expect(file.workouts.isEmpty)
            #expect(file.skipped == [SkipNote(reason: "GPX waypoint (wpt)", count: 1)])
        }

        @Test func timestampsThatDoNotAdvanceAreFlagged() throws {
            let file = try GPXParser().parse(try RealDeviceCorpus.url("gpx/gpxpy-1.6.2__Mojstrovka.gpx"))
            #expect(file.workouts.first?.track.count == 184)
            #expect(file.warnings.count == 1)
        }
    }

    /// TCX files of python-tcxparser and tcxreader.
    @Suite struct RealTCXTests {
        @Test func knownTotalsAreSumsOfLaps() throws {
            let file = try TCXParser().parse(try RealDeviceCorpus.url("tcx/python-tcxparser__test.tcx"))
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
            let file = try TCXParser().parse(try RealDeviceCorpus.url("tcx/tcxreader__cross-country-skiing_activity_1.tcx"))
            let ski = try #require(file.workouts.first)
            #expect(ski.laps.count == 2)
            #expect(ski.track.count == 486)
            #expect(ski.track.allSatisfy { $0.speedMetersPerSecond != nil && $0.cadence != nil })
            #expect(abs((ski.distanceMeters ?? 0) - 5692.01) < 1e-6)
            #expect(ski.activeKcal == 532)
        }

        @Test func offsetsInTimesAreKept() throws {
            let file = try TCXParser().parse(try RealDeviceCorpus.url("tcx/tcxreader__mapmyride_biking.tcx"))
            let ride = try #require(file.workouts.first)
            #expect(ride.activityType == "ride")
            #expect(ride.startedAt.offsetKnown && ride.startedAt.utcOffsetSeconds == 0)
            #expect(ride.track.count == 3112)
            #expect(ride.track[0].time?.microsecondsSinceEpoch == ride.startedAt.microsecondsSinceEpoch + 849_800)
        }
    }
}
