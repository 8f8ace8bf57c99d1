import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Apple Health's export.zip (stored and deflated entries, routes in `workout-routes/`) and gzipped
/// originals, written by the fixtures (deflate by Python's zlib, every header and CRC in Swift).
@Suite struct ExportArchiveTests {
    @Test func exportZipWithRoutes() throws {
        let export = SampleExports.zippedHealth, route = SampleExports.zippedRoute.tracks[0].segments[0]
        try FixtureDirectory.with { directory in
            let url = try directory.write(try SampleExports.healthZip(), to: "export.zip")
            let file = try WorkoutFileReader.parse(url)
            #expect(file.format == .appleHealth)
            let steps = export.records.filter { $0.type.hasSuffix("StepCount") && Double($0.value)! > 0 }
            #expect(file.stepSamples.count == steps.count && file.stepSamples.reduce(0) { $0 + $1.count } == steps.reduce(0) { $0 + Int(Double($1.value)!) })
            let ride = try #require(file.workouts.first), spec = export.workouts[0]
            #expect(ride.activityType == "ride" && ride.originalFile == SampleExports.routePath)
            #expect(ride.track.count == route.count, "the route GPX read out of the zip")
            #expect(ride.track.map(\.speedMetersPerSecond) == route.map(\.speed))
            #expect(ride.track.map { $0.time?.microsecondsSinceEpoch } == route.map { $0.time!.microseconds })
            #expect(ride.distanceMeters == 12_500 && ride.activeKcal == Int((1000 / 4.184).rounded()) && ride.movingSeconds == 1800)
            #expect(ride.startedAt == FileTimestamp(unixSeconds: spec.start, utcOffsetSeconds: spec.offset, offsetKnown: true))
            // The run's route is not in the zip: kept as a reference, said in a note.
            #expect(file.workouts[1].track.isEmpty)
            #expect(file.skipped.contains(SkipNote(reason: "workout route file missing from the zip", count: 1)))
            // Streamed from the zip and read from the plain export.xml: the same steps and workouts but the route.
            let plain = try AppleHealthParser().parse(bytes: export.bytes, fileName: "export.xml")
            #expect(plain.stepSamples == file.stepSamples)
            var routeless = file.workouts
            routeless[0].track = []
            #expect(plain.workouts == routeless)
        }
    }

    @Test func damagedZips() throws {
        try FixtureDirectory.with { directory in
            // export.xml's CRC-32 is wrong: refused, at the end of the entry.
            let bad = try directory.write(try SampleExports.healthZip(exportCRCDamage: 1), to: "bad.zip")
            let crc = workoutError { _ = try AppleHealthParser().parse(bad) }
            #expect(crc?.code == .badCRC && crc?.byteOffset == Int64(SampleExports.zippedHealth.bytes.count))
            // A route's CRC-32 is wrong: the workout is kept without its track.
            let route = try directory.write(try SampleExports.healthZip(routeCRCDamage: 0x10), to: "route.zip")
            let file = try AppleHealthParser().parse(route)
            #expect(file.workouts.first?.track.isEmpty == true)
            #expect(file.skipped.contains(SkipNote(reason: "unreadable workout route file", count: 1)))
            // Cut into the end-of-central-directory record.
            let cut = try directory.write(Array(try SampleExports.healthZip().dropLast(10)), to: "cut.zip")
            #expect(workoutError { _ = try AppleHealthParser().parse(cut) }?.code == .malformedZip)
        }
    }

    @Test func gzippedOriginals() throws {
        let fit = SampleFIT.small
        let gzipped = try GzipWriter.member(fit.encoded().bytes, name: "1.fit")
        let file = try WorkoutFileReader.parse(bytes: gzipped, fileName: "1.fit.gz")
        #expect(file.format == .fit && file.workouts == fit.expectedWorkouts)
        let gpx = try WorkoutFileReader.parse(bytes: try GzipWriter.member(SampleText.gpxRun.bytes, name: "1.gpx"), fileName: "1.gpx.gz")
        #expect(gpx.format == .gpx && gpx.workouts.first?.track.count == SampleText.gpxRun.tracks[0].segments[0].count)
        let crc = workoutError { _ = try WorkoutFileReader.parse(bytes: try GzipWriter.member(fit.encoded().bytes, name: "1.fit", crcDamage: 1),
                                                                 fileName: "1.fit.gz") }
        #expect(crc?.code == .badCRC)
        var method = gzipped
        method[2] = 7
        #expect(workoutError { _ = try WorkoutFileReader.parse(bytes: method, fileName: "1.fit.gz") }?.code == .badHeader)
        #expect(workoutError { _ = try WorkoutFileReader.parse(bytes: Array(gzipped.dropLast(12)), fileName: "1.fit.gz") } != nil)
    }
}
