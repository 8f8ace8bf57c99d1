import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// The factors Apple Health's units stand for (metres, seconds, kilocalories per unit).
let healthUnits: [String: Double] = ["m": 1, "km": 1000, "mi": 1609.344, "min": 60, "s": 1, "h": 3600, "kcal": 1]

/// Apple Health export.xml written by the fixtures: steps, workouts in every unit, skips, batches.
@Suite struct AppleHealthTests {
    static let export = SampleExports.health()
    static var stepRecords: [HealthRecord] { export.records.filter { $0.type == "HKQuantityTypeIdentifierStepCount" } }

    @Test func stepsWorkoutsAndSkips() throws {
        let file = try AppleHealthParser().parse(bytes: Self.export.bytes, fileName: "export.xml")
        let kept = Self.stepRecords.filter { Double($0.value)! > 0 }
        #expect(file.stepSamples.count == kept.count)
        #expect(file.stepSamples.map(\.count) == kept.map { Int(Double($0.value)!) })
        #expect(file.stepSamples.map(\.source) == kept.map(\.sourceName), "names with entities and typographic quotes")
        #expect(file.stepSamples.map(\.start) == kept.map { FileTimestamp(unixSeconds: $0.start, utcOffsetSeconds: $0.offset, offsetKnown: true) })
        #expect(file.stepSamples.allSatisfy { $0.end.seconds(since: $0.start) == 300 })
        let heartRates = Self.export.records.filter { $0.type == "HKQuantityTypeIdentifierHeartRate" }.count
        #expect(file.skipped.contains(SkipNote(reason: "step record with a zero count", count: Self.stepRecords.count - kept.count)))
        #expect(file.skipped.contains(SkipNote(reason: "HKQuantityTypeIdentifierHeartRate record not imported", count: heartRates)))
        #expect(file.skipped.contains(SkipNote(reason: "<Correlation> not imported", count: Self.export.correlations)))
        #expect(file.skipped.contains(SkipNote(reason: "<ActivitySummary> not imported", count: Self.export.activitySummaries)))
        // Workouts: every HKWorkoutActivityType the mapping names, and two it does not.
        let specs = Self.export.workouts
        #expect(file.workouts.map(\.activityType) == ["run", "walk", "ride", "hike", "swim", "yoga", "strength", "strength", "other", "other"])
        #expect(file.workouts.map(\.sourceId) == specs.map { "healthkit:\($0.sourceName)|\($0.startText)|\($0.endText)|\($0.activityType)" })
        #expect(file.workouts.allSatisfy { $0.sourceKind == "healthkit" && $0.startedAt.utcOffsetSeconds == 7200 })
        for (workout, spec) in zip(file.workouts, specs) {
            let duration = spec.duration.map { Double($0.value)! * healthUnits[$0.unit]! }
            #expect(workout.movingSeconds == duration, "\(spec.activityType)")
            if spec.statistics.isEmpty { #expect(workout.distanceMeters == spec.distance.map { Double($0.value)! * healthUnits[$0.unit]! }) }
            #expect(workout.startedAt == FileTimestamp(unixSeconds: spec.start, utcOffsetSeconds: spec.offset, offsetKnown: true))
            // elapsed = endDate − startDate, unless an app wrote endDate = startDate with a longer duration.
            #expect(workout.elapsedSeconds == (spec.end == spec.start ? duration! : Double(spec.end - spec.start)))
        }
        let run = file.workouts[0], walk = file.workouts[1], ride = file.workouts[2], hike = file.workouts[3]
        #expect(run.activeKcal == Int(310.5.rounded()) && run.avgHeartRate == specs[0].heartRate?.average
                && run.maxHeartRate == specs[0].heartRate?.maximum)
        #expect(walk.activeKcal == Int((900 / 4.184).rounded()), "kJ")
        #expect(ride.distanceMeters == 21_500 && ride.activeKcal == 498, "from WorkoutStatistics sums")
        guard case .inline(let locations) = specs[3].route else { Issue.record("the hike has an inline route"); return }
        #expect(hike.track.map(\.latitude) == locations.map(\.latitude) && hike.track.map(\.altitudeMeters) == locations.map(\.altitude))
        #expect(hike.track.map { $0.time?.microsecondsSinceEpoch } == locations.map { $0.time * 1_000_000 })
        #expect(hike.track.map(\.speedMetersPerSecond) == locations.map(\.speed))
    }

    @Test func streamingDeliversBatches() throws {
        let kept = Self.stepRecords.filter { Double($0.value)! > 0 }.count
        var batches: [Int] = []
        var workouts = 0
        try FixtureDirectory.with { directory in
            let url = try directory.write(Self.export.bytes, to: "export.xml")
            let summary = try AppleHealthParser(options: ParseOptions(stepBatchSize: 1000)).stream(url) { event in
                switch event {
                case .stepSamples(let batch): batches.append(batch.count)
                case .workout: workouts += 1
                }
            }
            #expect(summary.workoutCount == Self.export.workouts.count && summary.stepSampleCount == kept)
        }
        #expect(batches == Array(repeating: 1000, count: kept / 1000) + [kept % 1000])
        #expect(workouts == Self.export.workouts.count)
    }

    @Test func routeReferencesOutsideAZip() throws {
        let export = SampleExports.zippedHealth
        let file = try AppleHealthParser().parse(bytes: export.bytes, fileName: "export.xml")
        #expect(file.workouts.map(\.originalFile) == [SampleExports.routePath, "/workout-routes/route_2021-03-03_7.00am.gpx"])
        #expect(file.workouts.allSatisfy { $0.track.isEmpty })
        #expect(file.skipped.contains(SkipNote(reason: "workout route file not available outside export.zip (kept in originalFile)", count: 2)))
    }
}

/// Strava activities.csv written by the fixtures (87 columns, repeated names, quoting).
@Suite struct StravaTests {
    @Test func activityRows() throws {
        let rows = SampleExports.strava()
        let file = try StravaCSVParser().parse(bytes: StravaCSV.bytes(rows), fileName: "activities.csv")
        #expect(file.workouts.count == rows.count && file.skipped.isEmpty)
        let first = try #require(file.workouts.first), spec = rows[0]
        #expect(first.sourceKind == "strava" && first.sourceId == spec.id)
        #expect(first.title == spec.name && first.activityType == "ride" && first.sportName == spec.type)
        #expect(first.startedAt == FileTimestamp(unixSeconds: spec.start) && !first.startedAt.offsetKnown, "a UTC wall time")
        #expect(first.elapsedSeconds == Double(spec.elapsedSeconds) && first.movingSeconds == Double(spec.movingSeconds))
        #expect(first.distanceMeters == spec.distanceMeters, "metres column 17, not \(spec.displayDistance) km")
        #expect(first.originalFile == spec.filename && first.endedAt.seconds(since: first.startedAt) == Double(spec.elapsedSeconds))
        #expect(file.workouts.map(\.avgHeartRate) == rows.map(\.avgHeartRate) && file.workouts.map(\.maxHeartRate) == rows.map(\.maxHeartRate))
        #expect(file.workouts.map(\.activeKcal) == rows.map(\.calories))
        #expect(Set(file.workouts.map(\.sourceId)).count == rows.count)
        // Sail rows give nautical miles in column 6; column 17 (metres) is used instead.
        let sails = file.workouts.filter { $0.sportName == "Sail" }
        #expect(!sails.isEmpty && sails.map(\.distanceMeters) == rows.filter { $0.type == "Sail" }.map(\.distanceMeters))
        #expect(file.workouts.contains { $0.originalFile?.hasSuffix(".gpx.gz") == true })
        let mapped = Dictionary(file.workouts.map { ($0.sportName!, $0.activityType) }, uniquingKeysWith: { first, _ in first })
        #expect(mapped == ["Ride": "ride", "Run": "run", "Walk": "walk", "Hike": "hike", "Swim": "swim", "Weight Training": "strength",
                           "Sail": "other"])
    }

    @Test func rfc4180Quoting() throws {
        let csv = "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"multi\nline\"\r\nplain,,\n"
        let reader = CSVReader(source: MemoryByteSource(Array(csv.utf8)), fileName: "t.csv")
        #expect(try reader.nextRow() == ["a", "b", "c"])
        #expect(try reader.nextRow() == ["x, y", "say \"hi\"", "multi\nline"])
        #expect(try reader.nextRow() == ["plain", "", ""])
        #expect(try reader.nextRow() == nil)
        let open = workoutError {
            let bad = CSVReader(source: MemoryByteSource(Array("a,b\n1,\"never closed\n".utf8)), fileName: "bad.csv")
            while try bad.nextRow() != nil {}
        }
        #expect(open?.code == .malformedCSV && open?.line == 3)
        let stray = workoutError {
            let bad = CSVReader(source: MemoryByteSource(Array("\"a\"b\n".utf8)), fileName: "bad.csv")
            _ = try bad.nextRow()
        }
        #expect(stray?.code == .malformedCSV && stray?.line == 1 && stray?.column == 4)
    }

    @Test func tooFewColumnsIsUnsupported() throws {
        let steps = "type,sourceName,value,startDate\nStepCount,Phone,10,2016-01-01\n"
        let error = workoutError { _ = try StravaCSVParser().parse(bytes: Array(steps.utf8), fileName: "StepCount.csv") }
        #expect(error?.code == .unsupported && error?.line == 1)
    }
}
