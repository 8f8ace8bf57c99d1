import Foundation
import Testing
@testable import WorkoutFiles

/// Writes small FIT files by hand so each protocol feature is exercised on purpose.
struct FITWriter {
    struct Field { var number: UInt8; var size: UInt8; var baseType: UInt8 }

    var body: [UInt8] = []

    static func crc(_ bytes: [UInt8]) -> UInt16 {
        var crc = FITCRC()
        bytes.withUnsafeBytes { crc.update($0) }
        return crc.value
    }

    mutating func define(local: UInt8, global: UInt16, bigEndian: Bool, fields: [Field], developer: [Field] = []) {
        body.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
        body += [0, bigEndian ? 1 : 0]
        body += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        body.append(UInt8(fields.count))
        for field in fields { body += [field.number, field.size, field.baseType] }
        if !developer.isEmpty {
            body.append(UInt8(developer.count))
            for field in developer { body += [field.number, field.size, field.baseType] }
        }
    }

    /// A data message; `values` are (value, size) pairs written in the definition's byte order.
    mutating func data(local: UInt8, bigEndian: Bool, compressedOffset: UInt8? = nil, _ values: [(UInt64, Int)]) {
        body.append(compressedOffset.map { 0x80 | (local << 5) | ($0 & 0x1F) } ?? local)
        for (value, size) in values {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
            body += bigEndian ? bytes.reversed() : bytes
        }
    }

    func file(headerCRC: Bool = true) -> [UInt8] {
        var header: [UInt8] = [14, 0x20, 0x08, 0x08]
        let size = UInt32(body.count)
        header += [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)]
        header += Array(".FIT".utf8)
        let headerValue = headerCRC ? Self.crc(header) : 0
        header += [UInt8(headerValue & 0xFF), UInt8(headerValue >> 8)]
        let all = header + body
        let fileCRC = Self.crc(all)
        return all + [UInt8(fileCRC & 0xFF), UInt8(fileCRC >> 8)]
    }
}

@Suite struct FITProtocolTests {
    static let t0: UInt64 = 1_000_000_030 // low five bits = 30, so the compressed offsets roll over

    /// file_id, a big-endian record definition with a developer field, compressed-timestamp
    /// records, local type 1 redefined as a session, and an activity with local_timestamp.
    static func sampleFile() -> [UInt8] {
        var w = FITWriter()
        w.define(local: 0, global: 0, bigEndian: false, fields: [
            .init(number: 0, size: 1, baseType: 0x00), .init(number: 1, size: 2, baseType: 0x84),
            .init(number: 3, size: 4, baseType: 0x8C), .init(number: 4, size: 4, baseType: 0x86)])
        w.data(local: 0, bigEndian: false, [(4, 1), (32, 2), (1234, 4), (t0, 4)]) // wahoo
        w.define(local: 1, global: 20, bigEndian: true, fields: [
            .init(number: 253, size: 4, baseType: 0x86), .init(number: 0, size: 4, baseType: 0x85),
            .init(number: 1, size: 4, baseType: 0x85), .init(number: 3, size: 1, baseType: 0x02),
            .init(number: 2, size: 2, baseType: 0x84)], developer: [.init(number: 0, size: 3, baseType: 0)])
        // 45° = 2^29 semicircles, −90° = −2^30; heart rate 0xFF is the invalid sentinel; altitude (100 + 500) × 5.
        w.data(local: 1, bigEndian: true, [(t0, 4), (1 << 29, 4), (UInt64(bitPattern: -(1 << 30)), 4), (0xFF, 1), (3000, 2), (0xABCDEF, 3)])
        w.define(local: 2, global: 20, bigEndian: false, fields: [
            .init(number: 3, size: 1, baseType: 0x02), .init(number: 5, size: 4, baseType: 0x86)])
        w.data(local: 2, bigEndian: false, compressedOffset: 31, [(120, 1), (1000, 4)])       // t0 + 1
        w.data(local: 2, bigEndian: false, compressedOffset: 2, [(130, 1), (0xFFFF_FFFF, 4)]) // rolls over: t0 + 4
        w.define(local: 1, global: 18, bigEndian: false, fields: [
            .init(number: 2, size: 4, baseType: 0x86), .init(number: 7, size: 4, baseType: 0x86),
            .init(number: 9, size: 4, baseType: 0x86), .init(number: 5, size: 1, baseType: 0x00),
            .init(number: 16, size: 1, baseType: 0x02), .init(number: 253, size: 4, baseType: 0x86)])
        w.data(local: 1, bigEndian: false, [(t0, 4), (4500, 4), (1234, 4), (1, 1), (0xFF, 1), (t0 + 4, 4)])
        w.define(local: 3, global: 34, bigEndian: false, fields: [
            .init(number: 253, size: 4, baseType: 0x86), .init(number: 5, size: 4, baseType: 0x86)])
        w.data(local: 3, bigEndian: false, [(t0 + 4, 4), (t0 + 4 + 3600, 4)])
        return w.file()
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
        var undefined = FITWriter()
        undefined.data(local: 5, bigEndian: false, [])
        let undefinedError = workoutError { _ = try FITParser().parse(bytes: undefined.file(), fileName: "u.fit") }
        #expect(undefinedError?.code == .undefinedLocalMessage && undefinedError?.byteOffset == 14)
    }

    @Test func chainedCopiesDoNotDuplicateWorkouts() throws {
        let twice = Self.sampleFile() + Self.sampleFile()
        let file = try FITParser().parse(bytes: twice, fileName: "twice.fit")
        #expect(file.workouts.count == 1)
        #expect(file.skipped.contains(SkipNote(reason: "duplicate session in a chained FIT file", count: 1)))
        let noHeaderCRC = FITWriter().file(headerCRC: false)
        #expect(try FITParser().parse(bytes: noHeaderCRC, fileName: "empty-data.fit").skipped.first?.reason == "FIT file without a file_id message")
    }
}
