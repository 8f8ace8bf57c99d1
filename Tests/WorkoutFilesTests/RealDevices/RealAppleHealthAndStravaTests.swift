import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

extension RealDeviceFiles {
    /// Exports of the applehealthdata, healthkit-to-sqlite and hkimport projects.
    @Suite struct RealAppleHealthTests {
        @Test func hkimportExportCounts() throws {
            let file = try AppleHealthParser().parse(try RealDeviceCorpus.url("apple_health/hkimport__Data_export.xml"))
            // grep-level facts of the file: 3,980 StepCount records summing to 349,765; 61 <Workout>.
            #expect(file.stepSamples.count == 3980)
            #expect(file.stepSamples.reduce(0) { $0 + $1.count } == 349_765)
            #expect(file.workouts.count == 61)
            var byType: [String: Int] = [:]
            for workout in file.workouts { byType[workout.activityType, default: 0] += 1 }
            // 21 Running, 28 Walking, 2 Cycling, 2 Functional + 1 Traditional strength, 1 Yoga,
            // 5 MixedMetabolicCardioTraining + 1 Dance.
            #expect(byType == ["run": 21, "walk": 28, "ride": 2, "strength": 3, "yoga": 1, "other": 6])
            #expect(Set(file.stepSamples.map(\.source)) == ["Jonathan’s iPhone", "Health", "Connect"])
            #expect(file.stepSamples.allSatisfy { $0.start.offsetKnown && $0.start <= $0.end })
            #expect(file.workouts.allSatisfy { $0.sourceKind == "healthkit" && $0.sourceId.hasPrefix("healthkit:") })
            #expect(Set(file.workouts.map(\.sourceId)).count == 61)
            let first = file.workouts[0]
            #expect(first.startedAt.utcOffsetSeconds == 7200)
            #expect(first.elapsedSeconds == 259)
            #expect(abs((first.movingSeconds ?? 0) - 4.314366666475932 * 60) < 1e-9)
        }

        @Test func streamingDeliversBatches() throws {
            var batches: [Int] = []
            var workouts = 0
            let summary = try AppleHealthParser(options: ParseOptions(stepBatchSize: 1000))
                .stream(try RealDeviceCorpus.url("apple_health/hkimport__Data_export.xml")) { event in
                    switch event {
                    case .stepSamples(let batch): batches.append(batch.count)
                    case .workout: workouts += 1
                    }
                }
            #expect(batches == [1000, 1000, 1000, 980])
            #expect(workouts == 61 && summary.workoutCount == 61 && summary.stepSampleCount == 3980)
        }

        @Test func smallExports() throws {
            let sample = try AppleHealthParser().parse(try RealDeviceCorpus.url("apple_health/applehealthdata__export6s3sample.xml"))
            #expect(sample.stepSamples.count == 10 && sample.stepSamples.reduce(0) { $0 + $1.count } == 2517)
            #expect(sample.workouts.map(\.activityType) == ["other"])
            let tests = try AppleHealthParser().parse(try RealDeviceCorpus.url("apple_health/healthkit-to-sqlite__tests_export.xml"))
            let run = try #require(tests.workouts.first)
            #expect(run.activityType == "run")
            #expect(abs((run.distanceMeters ?? 0) - 0.4971749504535062 * 1609.344) < 1e-6)
            #expect(run.activeKcal == 49)
            #expect(run.track.count == 2) // inline <Location> elements
            let zipped = try AppleHealthParser().parse(try RealDeviceCorpus.url("apple_health/healthkit-to-sqlite__zip_export.xml"))
            #expect(zipped.workouts.first?.originalFile == "/workout-routes/route_2019-06-11_3.00pm.gpx")
            #expect(zipped.workouts.first?.track.isEmpty == true)
        }

        @Test func routeGPXFromTheExport() throws {
            let file = try GPXParser().parse(try RealDeviceCorpus.url("apple_health/healthkit-to-sqlite__route_2019-06-11_3.00pm.gpx"))
            let route = try #require(file.workouts.first)
            #expect(route.track.count == 3)
            #expect(route.track.map(\.speedMetersPerSecond) == [0.180883, 0.116181, 0.054395])
        }
    }

    /// Two real Strava activities.csv files (2023 and 2025 layouts).
    @Suite struct RealStravaTests {
        @Test(arguments: [("strava/JoBoSo__activities_2023.csv", 1122), ("strava/JoBoSo__strava_exports_export_08_25_2025_activities.csv", 1845)])
        func activityRows(_ relative: String, _ rows: Int) throws {
            let file = try StravaCSVParser().parse(try RealDeviceCorpus.url(relative))
            #expect(file.workouts.count == rows)
            #expect(file.skipped.isEmpty)
            let first = try #require(file.workouts.first)
            #expect(first.sourceKind == "strava" && first.sourceId == "203707851")
            #expect(first.title == "Lunch Ride" && first.activityType == "ride" && first.sportName == "Ride")
            #expect(first.startedAt == FileTimestamp(unixSeconds: 1_412_525_721)) // 2014-10-05 16:15:21
            #expect(!first.startedAt.offsetKnown)
            #expect(first.elapsedSeconds == 2833 && first.movingSeconds == 2499)
            #expect(first.distanceMeters == 13609.2001953125) // metres column 17, not 13.61 km
            #expect(first.originalFile == "activities/203707851.gpx")
            #expect(first.endedAt.seconds(since: first.startedAt) == 2833)
            #expect(Set(file.workouts.map(\.sourceId)).count == rows)
            // Sail rows give nautical miles in column 6; column 17 (metres) is used instead.
            let sail = try #require(file.workouts.first { $0.sportName == "Sail" })
            #expect(sail.distanceMeters == 29610.490234375)
            #expect(file.workouts.contains { $0.originalFile?.hasSuffix(".gpx.gz") == true })
        }

        @Test func tooFewColumnsIsUnsupported() throws {
            let error = workoutError { _ = try StravaCSVParser().parse(try RealDeviceCorpus.url("apple_health/applehealthdata__StepCount.csv")) }
            #expect(error?.code == .unsupported && error?.line == 1)
        }
    }
}
