import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

extension RealDeviceFiles {
    /// Figures stated for the real FIT files. The stated figures are rounded to whole units, so
    /// each check allows half a unit (±0.5 s / m / kcal); where fitparse shows the exact stored
    /// value we also check it to the field's resolution (scale 1000 → 0.001 s, scale 100 → 0.01 m).
    @Suite struct FITKnownFiguresTests {
        @Test func fenix2RunTotals() throws {
            let file = try FITParser().parse(try RealDeviceCorpus.url("fit/python-fitparse__activity-small-fenix2-run.fit"))
            let run = try #require(file.workouts.first)
            #expect(file.workouts.count == 1)
            #expect(abs(run.elapsedSeconds - 2832) < 0.5)
            #expect(abs((run.distanceMeters ?? 0) - 9008) < 0.5)
            #expect(abs((run.distanceMeters ?? 0) - 9008.22) < 0.006)
            #expect(run.activeKcal == 516)
            #expect(run.activityType == "run")
            #expect(run.sourceKind == "garmin")
            #expect(run.laps.count == 4)
            #expect(run.track.count == 2809)
            // activity.local_timestamp − timestamp = +2 h (Central European Summer Time, August).
            #expect(run.startedAt.offsetKnown && run.startedAt.utcOffsetSeconds == 7200)
            #expect(run.startedAt.description.hasPrefix("2015-08-15T14:45:08Z"))
        }

        @Test func edge500Totals() throws {
            let file = try FITParser().parse(try RealDeviceCorpus.url("fit/python-fitparse__garmin-edge-500-activity.fit"))
            let ride = try #require(file.workouts.first)
            // 92.6 km is stated to 0.1 km, so ±50 m; the stored value is 92,622.34 m.
            #expect(abs((ride.distanceMeters ?? 0) - 92_600) < 50)
            #expect(abs((ride.distanceMeters ?? 0) - 92_622.34) < 0.006)
            #expect(abs(ride.elapsedSeconds - 12_691) < 0.5)
            #expect(abs((ride.movingSeconds ?? 0) - 10_641) < 0.5)
            #expect(ride.activityType == "ride")
            #expect(ride.avgHeartRate == 162 && ride.maxHeartRate == 189)
            #expect(ride.laps.count == 9)
            #expect(ride.track.count == 10_686)
            // Lap elapsed times add up to the session's (within the 1 ms resolution per lap).
            let lapSum = ride.laps.reduce(0) { $0 + $1.elapsedSeconds }
            #expect(abs(lapSum - ride.elapsedSeconds) < 0.01 * Double(ride.laps.count))
        }

        @Test func monitoringSteps() throws {
            let name = "fit/python-fitparse__MonitoringFile.fit"
            let totals = try FITParser().monitoringTotals(bytes: RealDeviceCorpus.bytes(name), fileName: name)
            // FIT activity_type 6 = walking, 1 = running; the file's own end-of-day summary agrees.
            #expect(totals[6] == 3142)
            #expect(totals[1] == 31)
            let file = try FITParser().parse(try RealDeviceCorpus.url(name))
            #expect(file.workouts.isEmpty)
            #expect(file.stepSamples.reduce(0) { $0 + $1.count } == 3173)
            #expect(file.stepSamples.allSatisfy { $0.source == "garmin" && $0.count > 0 && $0.start <= $0.end })
            // monitoring_info gives local midnight 2014-12-27 00:00 for 2014-12-27T06:00Z: UTC−6.
            #expect(file.stepSamples.allSatisfy { $0.start.offsetKnown && $0.start.utcOffsetSeconds == -21_600 })
        }

        @Test func multisportKeepsSportSessionsOnly() throws {
            let file = try FITParser().parse(try RealDeviceCorpus.url("fit/python-fitparse__sample_mulitple_header.fit"))
            #expect(file.workouts.map(\.activityType) == ["swim", "ride", "run"])
            #expect(file.workouts.map(\.sourceId) == ["fit:3915525118:896340781:0", "fit:3915525118:896340781:2",
                                                      "fit:3915525118:896340781:4"])
            #expect(file.skipped.contains { $0.reason == "multisport transition session" && $0.count == 2 })
            for workout in file.workouts {
                #expect(workout.track.allSatisfy { ($0.time ?? workout.startedAt) >= workout.startedAt && ($0.time ?? workout.endedAt) <= workout.endedAt })
            }
            let large = try FITParser().parse(try RealDeviceCorpus.url("fit/python-fitparse__activity-large-fenxi2-multisport.fit"))
            #expect(large.workouts.map(\.activityType) == ["other", "run", "run", "ride"])
        }

        @Test func manufacturerMapsToSourceKind() throws {
            let wahoo = try FITParser().parse(try RealDeviceCorpus.url("fit/python-fitparse__2019-02-17-062644-ELEMNT-297E-195-0.fit"))
            #expect(wahoo.workouts.first?.sourceKind == "wahoo")
            let stryd = try FITParser().parse(try RealDeviceCorpus.url("fit/python-fitparse__developer-types-sample.fit"))
            #expect(stryd.workouts.first?.sourceKind == "file")
        }

        @Test func deviceRelativeTimestampsAreFlagged() throws {
            let file = try FITParser().parse(try RealDeviceCorpus.url("fit/python-fitparse__antfs-dump.63.fit"))
            #expect(file.workouts.count == 1)
            #expect(file.warnings.contains { $0.contains("device-relative") })
        }

        @Test func misalignedFieldsAreReadAsInvalid() throws {
            // fitparse rejects this file (a 1-byte field declared uint32); we treat the field as absent.
            let file = try FITParser().parse(try RealDeviceCorpus.url("fit/python-fitparse__coros-pace-2-cycling-misaligned-fields.fit"))
            let ride = try #require(file.workouts.first)
            #expect(ride.activityType == "ride")
            #expect(abs((ride.distanceMeters ?? 0) - 32_145.76) < 0.006)
        }
    }
}
