import Foundation
import Testing
@testable import WorkoutFiles
import Zlib

/// One layer of gzip, and bounded inflation: a bomb fails within its first megabytes.
@Suite struct CompressionLimitTests {
    @Test func gzipInsideGzipIsRefused() throws {
        let gpx = DeflateTestStreams.gpx(points: 3)
        let once = DeflateTestStreams.gzip(gpx)
        #expect(try WorkoutFileReader.parse(bytes: once, fileName: "ride.gpx.gz").workouts.count == 1)
        let twice = DeflateTestStreams.gzip(once)
        let error = workoutError { _ = try WorkoutFileReader.parse(bytes: twice, fileName: "ride.gpx.gz.gz") }
        #expect(error?.code == .unsupported && error?.message.contains("gzip inside gzip") == true)
    }

    /// 64 MiB of "a" in 406 KB of fixed-Huffman DEFLATE (159:1), gzip-wrapped.
    static let gzipBomb: [UInt8] = {
        let repeats = (64 << 20) / 258
        let data = [UInt8](repeating: UInt8(ascii: "a"), count: repeats * 258 + 1)
        return DeflateTestStreams.gzip(deflated: DeflateTestStreams.run(of: UInt8(ascii: "a"), repeats: repeats), of: data)
    }()

    @Test func gzipBombStopsAtTheRatioLimit() throws {
        let error = workoutError { _ = try WorkoutFileReader.parse(bytes: Self.gzipBomb, fileName: "bomb.gpx.gz") }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("maxCompressionRatio") == true)
        // It stopped near the 1 MiB allowance, long before the 64 MiB the stream holds.
        #expect((error?.byteOffset ?? .max) < 64 << 10)
    }

    @Test func zipBombIsRefusedByItsDeclaredSizeBeforeInflating() throws {
        let repeats = (64 << 20) / 258
        let deflated = DeflateTestStreams.run(of: UInt8(ascii: "a"), repeats: repeats)
        let entry = ZipTestEntry(name: "apple_health_export/export.xml", method: 8, data: deflated,
                                 size: repeats * 258 + 1, crc: 0)
        let error = try withTemporaryFile(buildZip([entry])) { url in workoutError { _ = try WorkoutFileReader.parse(url) } }
        #expect(error?.code == .limitExceeded && error?.message.contains("declares") == true)
        // Lying about the size does not help: the stream may not outgrow what it declared.
        let lying = ZipTestEntry(name: "export.xml", method: 8, data: deflated, size: 1000, crc: 0)
        let lie = try withTemporaryFile(buildZip([lying])) { url in workoutError { _ = try WorkoutFileReader.parse(url) } }
        #expect(lie?.code == .malformedZip && lie?.message.contains("longer than its directory size") == true)
    }

    @Test func perEntryAndPerFileCeilings() throws {
        let url = try CompressionTests.writeExportZip()
        defer { try? FileManager.default.removeItem(at: url) }
        var small = ParseOptions()
        small.maxInflatedBytesPerEntry = 10_000
        let entry = workoutError { _ = try AppleHealthParser(options: small).parse(url) }
        #expect(entry?.code == .limitExceeded && entry?.message.contains("maxInflatedBytesPerEntry") == true)
        #expect(entry?.message.contains("export.xml") == true)
        var total = ParseOptions()
        total.maxInflatedBytesPerFile = Int64(CompressionFixtures.exportSize + 1000) // export.xml fits, its route does not
        let file = workoutError { _ = try AppleHealthParser(options: total).parse(url) }
        #expect(file?.code == .limitExceeded && file?.message.contains("maxInflatedBytesPerFile") == true)
        var gzipCeiling = ParseOptions()
        gzipCeiling.maxInflatedBytesPerEntry = 100
        let member = workoutError {
            _ = try WorkoutFileReader.parse(bytes: CompressionFixtures.routeGzip, fileName: "ride.gpx.gz", options: gzipCeiling)
        }
        #expect(member?.code == .limitExceeded && member?.message.contains("maxInflatedBytesPerEntry") == true)
    }

    @Test func realCompressionRatiosPassTheDefaults() throws {
        // The export fixture is generated, repetitive XML: 54,499 bytes from about 2 KB, 27:1.
        let url = try CompressionTests.writeExportZip()
        defer { try? FileManager.default.removeItem(at: url) }
        var strict = ParseOptions()
        strict.compressionRatioAllowanceBytes = 0
        #expect(try AppleHealthParser(options: strict).parse(url).stepSamples.count == 300)
    }
}
