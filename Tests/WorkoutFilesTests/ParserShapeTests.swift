import Foundation
import Testing
@testable import WorkoutFiles

/// Every format's parser reads through the one path of ``WorkoutFileReader``: what that path
/// does (one gzip layer unwrapped, the inflation limit, typed errors naming the file) each
/// parser does too, with its format pinned.
@Suite struct ParserShapeTests {
    static let parsers: [any WorkoutFileParser.Type] = [FITParser.self, GPXParser.self, TCXParser.self, AppleHealthParser.self, StravaCSVParser.self]

    @Test("each parser names its own format, and the reader's table gives that parser for it")
    func formatsAndParsersAgree() {
        #expect(Set(Self.parsers.map { $0.format }) == Set(WorkoutFileFormat.allCases))
        for parser in Self.parsers {
            #expect(type(of: parser.format.parser(options: ParseOptions())) == parser)
        }
    }

    @Test("a parser called directly unwraps a gzip layer and stops a gzip bomb, as the reader does")
    func parsersShareGzipAndItsLimits() throws {
        let gpx = DeflateTestStreams.gpx(points: 3)
        let parsed = try GPXParser().parse(bytes: DeflateTestStreams.gzip(gpx), fileName: "ride.gpx.gz")
        #expect(parsed.workouts.count == 1)
        #expect(parsed.workouts == (try GPXParser().parse(bytes: gpx, fileName: "ride.gpx.gz").workouts))
        // A text format reads on until the inflation limit stops it; FIT refuses the inflated bytes'
        // header first. Either way a typed error naming the file, long before the bomb's 64 MiB.
        let bomb = workoutError { _ = try GPXParser().parse(bytes: CompressionLimitTests.gzipBomb, fileName: "bomb.gz") }
        #expect(bomb?.code == .limitExceeded && bomb?.message.contains("maxCompressionRatio") == true)
        for parser in Self.parsers {
            let error = workoutError { _ = try parser.init(options: ParseOptions()).parse(bytes: CompressionLimitTests.gzipBomb, fileName: "bomb.gz") }
            #expect(error?.fileName == "bomb.gz", "\(parser)")
            #expect((error?.byteOffset ?? .max) < 64 << 10, "\(parser): \(String(describing: error))")
        }
    }

    @Test("every parser refuses an empty file with a typed error that names it")
    func emptyFilesAreRefusedAlike() {
        for parser in Self.parsers where parser != AppleHealthParser.self {
            let error = workoutError { _ = try parser.init(options: ParseOptions()).parse(bytes: [], fileName: "empty") }
            #expect(error != nil && error?.fileName == "empty", "\(parser): \(String(describing: error))")
        }
    }
}
