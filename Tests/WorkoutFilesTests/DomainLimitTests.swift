import Foundation
import Testing
@testable import WorkoutFiles
import Zlib

/// The domain's limits (track points, laps, workouts, step samples) stop a parser as soon as
/// they are passed, with an error naming the limit; and an Apple Health route is read once.
@Suite struct DomainLimitTests {
    @Test func aTrackOfMoreThanTheDomainsPointsFailsWithTheDefaults() throws {
        // 500,001 bare points: Logbook would refuse the track, so the parser stops at point 500,001.
        var text = "<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        text += String(repeating: "<trkpt lat=\"1\" lon=\"2\"/>\n", count: 500_001)
        text += "</trkseg></trk></gpx>"
        let error = workoutError { _ = try WorkoutFileReader.parse(bytes: Array(text.utf8), fileName: "long.gpx") }
        #expect(error?.code == .limitExceeded && error?.line == 500_002)
        #expect(error?.message.contains("maxTrackPointsPerWorkout") == true)
    }

    @Test func moreWorkoutsThanAFileMayHoldFailWithTheDefaults() throws {
        var csv = (0..<18).map { "c\($0)" }.joined(separator: ",") + "\n"
        let row = ",2020-01-01T00:00:00Z" + String(repeating: ",", count: 16) + "\n"
        for id in 1...100_001 { csv += "\(id)" + row }
        let error = workoutError { _ = try WorkoutFileReader.parse(bytes: Array(csv.utf8), fileName: "activities.csv") }
        #expect(error?.code == .limitExceeded && error?.line == 100_002)
        #expect(error?.message.contains("maxWorkoutsPerFile") == true)
    }

    @Test func eachLimitStopsItsParser() throws {
        var options = ParseOptions()
        options.maxTrackPointsPerWorkout = 2
        let gpx = workoutError { _ = try GPXParser(options: options).parse(bytes: DeflateTestStreams.gpx(points: 3), fileName: "t.gpx") }
        #expect(gpx?.message.contains("maxTrackPointsPerWorkout") == true)

        options = ParseOptions()
        options.maxStepSamplesPerFile = 2
        let step = { (minute: Int) in
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"w\" value=\"10\" "
                + "startDate=\"2020-01-01 00:0\(minute):00 +0000\" endDate=\"2020-01-01 00:0\(minute):30 +0000\"/>"
        }
        let health = Array(("<HealthData>" + step(1) + step(2) + step(3) + "</HealthData>").utf8)
        let steps = workoutError { _ = try AppleHealthParser(options: options).parse(bytes: health, fileName: "export.xml") }
        #expect(steps?.code == .limitExceeded && steps?.message.contains("maxStepSamplesPerFile") == true && steps?.line == 1)

        options = ParseOptions()
        options.maxLapsPerWorkout = 1
        let lap = "<Lap StartTime=\"2020-01-01T00:00:00Z\"><TotalTimeSeconds>60</TotalTimeSeconds></Lap>"
        let tcx = "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\"><Activities>"
            + "<Activity Sport=\"Running\"><Id>2020-01-01T00:00:00Z</Id>\(lap)\(lap)</Activity></Activities></TrainingCenterDatabase>"
        let laps = workoutError { _ = try TCXParser(options: options).parse(bytes: Array(tcx.utf8), fileName: "l.tcx") }
        #expect(laps?.code == .limitExceeded && laps?.message.contains("maxLapsPerWorkout") == true)

        options = ParseOptions()
        options.maxBufferedTrackPoints = 2
        let fit = workoutError { _ = try FITParser(options: options).parse(bytes: FITProtocolTests.sampleFile(), fileName: "s.fit") }
        #expect(fit?.code == .limitExceeded && fit?.message.contains("maxBufferedTrackPoints") == true)
        options = ParseOptions()
        options.maxTrackPointsPerWorkout = 2
        let session = workoutError { _ = try FITParser(options: options).parse(bytes: FITProtocolTests.sampleFile(), fileName: "s.fit") }
        #expect(session?.code == .limitExceeded && session?.message.contains("maxTrackPointsPerWorkout") == true)
        options = ParseOptions()
        options.maxWorkoutsPerFile = 0
        let workouts = workoutError { _ = try FITParser(options: options).parse(bytes: FITProtocolTests.sampleFile(), fileName: "s.fit") }
        #expect(workouts?.code == .limitExceeded && workouts?.message.contains("maxWorkoutsPerFile") == true)
    }

    /// Three workouts naming one route: the route is decoded for the first only.
    @Test func aRouteFileIsDecodedOnce() throws {
        let workout = { (hour: Int) in
            "<Workout workoutActivityType=\"HKWorkoutActivityTypeCycling\" sourceName=\"w\" "
                + "startDate=\"2021-03-02 0\(hour):00:00 +0100\" endDate=\"2021-03-02 0\(hour):30:00 +0100\">"
                + "<WorkoutRoute><FileReference path=\"/workout-routes/route_2021-03-02_7.00am.gpx\"/></WorkoutRoute></Workout>"
        }
        let xml = Array(("<HealthData>" + workout(7) + workout(8) + workout(9) + "</HealthData>").utf8)
        var crc = CRC32()
        crc.update(xml)
        let entries = [
            ZipTestEntry(name: "apple_health_export/export.xml", method: 0, data: xml, size: xml.count, crc: crc.checksum),
            ZipTestEntry(name: "apple_health_export/workout-routes/route_2021-03-02_7.00am.gpx", method: 8,
                         data: CompressionFixtures.routeDeflated, size: CompressionFixtures.routeSize, crc: CompressionFixtures.routeCRC),
        ]
        let file = try withTemporaryFile(buildZip(entries)) { url in try WorkoutFileReader.parse(url) }
        #expect(file.workouts.map(\.track.count) == [40, 0, 0])
        #expect(file.skipped.contains(SkipNote(reason: "workout route file already read for an earlier workout (each is read once)", count: 2)))
    }
}
