import Foundation
import WorkoutFileFixtures
import Testing
@testable import WorkoutFiles

/// Sizes and offsets a zip states are checked before use: each of these used to trap
/// (`Int64(UInt64)` or an overflowing `+`) and kill the process.
@Suite struct ZipHostileSizeTests {
    static func zipError(_ bytes: [UInt8]) throws -> WorkoutFileError? {
        try withTemporaryFile(bytes) { url in workoutError { _ = try WorkoutFileReader.parse(url) } }
    }

    @Test func seventyTwoByteFileWithZIP64LocatorOffsetAtUInt64Max() throws {
        let error = try Self.zipError(HostileZip.seventyTwoBytes())
        #expect(error?.code == .malformedZip)
        #expect(error?.message.contains("18446744073709551615") == true)
        #expect(error?.byteOffset == 38)
    }

    @Test func zip64RecordOffsetNearInt64MaxDoesNotOverflow() throws {
        let bytes = HostileZip.zip64Record(count: 0, size: 0, offset: 0, recordOffset: UInt64(Int64.max))
        #expect(try Self.zipError(bytes)?.code == .malformedZip)
    }

    @Test func zip64DirectorySizeAndOffsetBeyondInt64() throws {
        #expect(try Self.zipError(HostileZip.zip64Record(count: 1, size: 1 << 63, offset: 0))?.code == .limitExceeded)
        #expect(try Self.zipError(HostileZip.zip64Record(count: 1, size: 46, offset: 1 << 63))?.code == .malformedZip)
        let count = try Self.zipError(HostileZip.zip64Record(count: .max, size: 46, offset: 0))
        #expect(count?.code == .limitExceeded && count?.message.contains("18446744073709551615 entries") == true)
    }

    @Test func zip64DirectoryEndOverflowsInt64() throws {
        let bytes = HostileZip.zip64Record(count: 1, size: 0x100, offset: UInt64(Int64.max) - 0x10)
        let error = try Self.zipError(bytes)
        #expect(error?.code == .malformedZip && error?.message.contains("lies outside") == true)
    }

    @Test func zip64ExtraSizesBeyondInt64() throws {
        let compressed = try Self.zipError(HostileZip.zip64Entry(compressed: .max))
        #expect(compressed?.code == .truncated && compressed?.message.contains("export.xml") == true)
        // A declared size past the per-entry ceiling is refused before a byte is read.
        let uncompressed = try Self.zipError(HostileZip.zip64Entry(uncompressed: .max))
        #expect(uncompressed?.code == .limitExceeded && uncompressed?.message.contains("maxInflatedBytesPerEntry") == true)
    }

    @Test func zip64ExtraLocalHeaderOffsetNearInt64Max() throws {
        for offset in [UInt64(Int64.max), UInt64(Int64.max) - 29, .max] {
            let error = try Self.zipError(HostileZip.zip64Entry(localOffset: offset))
            #expect(error?.code == .malformedZip && error?.message.contains("local header offset") == true)
        }
    }

    @Test func zip64ExtraCompressedSizeOverflowsTheDataEnd() throws {
        let error = try Self.zipError(HostileZip.zip64Entry(compressed: UInt64(Int64.max) - 0x10))
        #expect(error?.code == .truncated && error?.message.contains("run past the end") == true)
    }

    @Test func wellFormedZIP64EntryStillReads() throws {
        let file = try withTemporaryFile(HostileZip.zip64Entry()) { url in try WorkoutFileReader.parse(url) }
        #expect(file.format == .appleHealth && file.workouts.isEmpty)
    }
}
