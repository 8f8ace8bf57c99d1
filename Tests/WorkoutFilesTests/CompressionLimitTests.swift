import Foundation
import Testing
@testable import WorkoutFiles
import Zlib

/// Only one layer of gzip is read.
@Suite struct CompressionLimitTests {
    @Test func gzipInsideGzipIsRefused() throws {
        let gpx = DeflateTestStreams.gpx(points: 3)
        let once = DeflateTestStreams.gzip(gpx)
        #expect(try WorkoutFileReader.parse(bytes: once, fileName: "ride.gpx.gz").workouts.count == 1)
        let twice = DeflateTestStreams.gzip(once)
        let error = workoutError { _ = try WorkoutFileReader.parse(bytes: twice, fileName: "ride.gpx.gz.gz") }
        #expect(error?.code == .unsupported && error?.message.contains("gzip inside gzip") == true)
    }
}
