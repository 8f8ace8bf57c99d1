import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Single protocol features, each exercised on purpose by a file written message by message.
@Suite struct FITProtocolTests {
    static let t0: Int64 = 1_000_000_030 // low five bits = 30, so the compressed offsets roll over

    /// file_id, a big-endian record definition with a developer field, compressed-timestamp
    /// records, local type 1 redefined as a session, and an activity with local_timestamp.
    static func sampleFile() -> [UInt8] {
        var w = FITEncoder()
        w.write(FITMessage(FITGlobal.fileId, [.field(0, .enumeration, 4), .field(1, .uint16, 32), .field(3, .uint32z, 1234),
                                              .field(4, .uint32, t0)]), local: 0) // wahoo
        // 45° = 2^29 semicircles, −90° = −2^30; heart rate 0xFF is the invalid sentinel; altitude (100 + 500) × 5.
        w.bigEndian = true
        var record = FITMessage(FITGlobal.record, [.field(253, .uint32, t0), .field(0, .sint32, 1 << 29), .field(1, .sint32, -(1 << 30)),
                                                   .field(3, .uint8, nil), .field(2, .uint16, 3000)])
        record.developerFields = [(FITDeveloperFieldDefinition(number: 0, size: 3, developerIndex: 0), [0xAB, 0xCD, 0xEF])]
        w.write(record, local: 1)
        w.bigEndian = false
        w.write(FITMessage(FITGlobal.record, [.field(253, .uint32, t0 + 1), .field(3, .uint8, 120), .field(5, .uint32, 1000)]),
                local: 2, compressTimestamp: true) // offset 31: t0 + 1
        w.write(FITMessage(FITGlobal.record, [.field(253, .uint32, t0 + 4), .field(3, .uint8, 130), .field(5, .uint32, nil)]),
                local: 2, compressTimestamp: true) // offset 2 rolls over: t0 + 4
        w.write(FITMessage(FITGlobal.session, [.field(2, .uint32, t0), .field(7, .uint32, 4500), .field(9, .uint32, 1234),
                                               .field(5, .enumeration, 1), .field(16, .uint8, nil), .field(253, .uint32, t0 + 4)]), local: 1)
        w.write(FITMessage(FITGlobal.activity, [.field(253, .uint32, t0 + 4), .field(5, .uint32, t0 + 4 + 3600)]), local: 3)
        return w.file().bytes
    }

    @Test func protocolFeatures() throws {
        let file = try FITParser().parse(bytes: Self.sampleFile(), fileName: "sample.fit")
        let run = try #require(file.workouts.first)
        #expect(file.workouts.count == 1)
        #expect(run.sourceKind == "wahoo" && run.sourceId == "fit:1234:\(Self.t0):0")
        #expect(run.activityType == "run" && run.sportName == "running")
        #expect(run.elapsedSeconds == 4.5 && run.distanceMeters == 12.34 && run.avgHeartRate == nil)
        let epoch = Int64(Self.t0) + 631_065_600
        #expect(run.startedAt == FileTimestamp(unixSeconds: epoch, utcOffsetSeconds: 3600, offsetKnown: true))
        #expect(run.track.map { $0.time?.microsecondsSinceEpoch } == [epoch, epoch + 1, epoch + 4].map { $0 * 1_000_000 })
        #expect(run.track[0].latitude == 45 && run.track[0].longitude == -90)
        #expect(run.track[0].heartRate == nil && run.track[0].altitudeMeters == 100)
        #expect(run.track[1].heartRate == 120 && run.track[1].distanceMeters == 10)
        #expect(run.track[2].heartRate == 130 && run.track[2].distanceMeters == nil)
    }

    @Test func damagedHeadersAndStreams() throws {
        let good = Self.sampleFile()
        var badHeaderCRC = good
        badHeaderCRC[12] ^= 0x01
        let headerError = workoutError { _ = try FITParser().parse(bytes: badHeaderCRC, fileName: "h.fit") }
        #expect(headerError?.code == .badCRC && headerError?.byteOffset == 12)
        var noSignature = good
        noSignature[9] = UInt8(ascii: "G")
        #expect(workoutError { _ = try FITParser().parse(bytes: noSignature, fileName: "s.fit") }?.code == .badHeader)
        let cut = workoutError { _ = try FITParser().parse(bytes: Array(good.prefix(40)), fileName: "c.fit") }
        #expect(cut?.code == .truncated && cut?.byteOffset != nil)
        #expect(workoutError { _ = try FITParser().parse(bytes: [], fileName: "e.fit") }?.code == .truncated)
        var architecture = good
        architecture[14 + 2] = 7 // architecture byte of the first definition
        #expect(workoutError { _ = try FITParser().parse(bytes: architecture, fileName: "a.fit") }?.code == .malformedFIT)
        var undefined = FITEncoder()
        undefined.writeUnchecked(local: 5, payload: [])
        let undefinedError = workoutError { _ = try FITParser().parse(bytes: undefined.file().bytes, fileName: "u.fit") }
        #expect(undefinedError?.code == .undefinedLocalMessage && undefinedError?.byteOffset == 14)
    }

    @Test func chainedCopiesDoNotDuplicateWorkouts() throws {
        let twice = Self.sampleFile() + Self.sampleFile()
        let file = try FITParser().parse(bytes: twice, fileName: "twice.fit")
        #expect(file.workouts.count == 1)
        #expect(file.skipped.contains(SkipNote(reason: "duplicate session in a chained FIT file", count: 1)))
        let noHeaderCRC = FITEncoder().file(headerCRC: false).bytes
        #expect(try FITParser().parse(bytes: noHeaderCRC, fileName: "empty-data.fit").skipped.first?.reason == "FIT file without a file_id message")
    }
}
