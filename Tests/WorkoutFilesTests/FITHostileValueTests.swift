import Testing
@testable import WorkoutFiles

/// FIT fields whose profile type is narrow (uint16, uint32) but whose definition makes them
/// 8 bytes wide: each of these used to overflow Int64 arithmetic and trap.
@Suite struct FITHostileValueTests {
    static let t0: UInt64 = 1_000_000_030
    static let int64Min = UInt64(bitPattern: Int64.min)

    /// A file_id of `fileType`, so the monitoring builder hears the messages that follow.
    static func header(fileType: UInt64) -> FITWriter {
        var w = FITWriter()
        w.define(local: 0, global: 0, bigEndian: false, fields: [.init(number: 0, size: 1, baseType: 0x00)])
        w.data(local: 0, bigEndian: false, [(fileType, 1)])
        return w
    }

    @Test func activityLocalTimestampAtInt64MinIsIgnored() throws {
        var w = Self.header(fileType: 4)
        // activity: timestamp (uint32), local_timestamp declared sint64.
        w.define(local: 1, global: 34, bigEndian: false, fields: [
            .init(number: 253, size: 4, baseType: 0x86), .init(number: 5, size: 8, baseType: 0x8E)])
        w.data(local: 1, bigEndian: false, [(Self.t0, 4), (Self.int64Min, 8)])
        let file = try FITParser().parse(bytes: w.file(), fileName: "activity.fit")
        #expect(file.workouts.isEmpty)
    }

    @Test func monitoringInfoLocalTimestampAtInt64MinIsIgnored() throws {
        var w = Self.header(fileType: 15)
        w.define(local: 1, global: 103, bigEndian: false, fields: [
            .init(number: 253, size: 4, baseType: 0x86), .init(number: 0, size: 8, baseType: 0x8E)])
        w.data(local: 1, bigEndian: false, [(Self.t0, 4), (Self.int64Min, 8)])
        w.define(local: 2, global: 55, bigEndian: false, fields: [
            .init(number: 253, size: 4, baseType: 0x86), .init(number: 3, size: 4, baseType: 0x86),
            .init(number: 5, size: 1, baseType: 0x00)])
        w.data(local: 2, bigEndian: false, [(Self.t0 + 60, 4), (100, 4), (6, 1)])
        let file = try FITParser().parse(bytes: w.file(), fileName: "monitoring.fit")
        #expect(file.stepSamples.count == 1)
        #expect(file.stepSamples.first?.start.offsetKnown == false)
    }

    @Test func monitoringTimestamp16AtInt64MinIsIgnored() throws {
        var w = Self.header(fileType: 15)
        w.define(local: 1, global: 55, bigEndian: false, fields: [
            .init(number: 253, size: 4, baseType: 0x86), .init(number: 3, size: 4, baseType: 0x86),
            .init(number: 5, size: 1, baseType: 0x00)])
        w.data(local: 1, bigEndian: false, [(Self.t0, 4), (100, 4), (6, 1)])
        // timestamp_16 declared sint64, holding Int64.min.
        w.define(local: 2, global: 55, bigEndian: false, fields: [
            .init(number: 26, size: 8, baseType: 0x8E), .init(number: 3, size: 4, baseType: 0x86),
            .init(number: 5, size: 1, baseType: 0x00)])
        w.data(local: 2, bigEndian: false, [(Self.int64Min, 8), (200, 4), (6, 1)])
        let file = try FITParser().parse(bytes: w.file(), fileName: "monitoring.fit")
        #expect(file.stepSamples.map(\.count) == [100])
    }

    @Test func monitoringCyclesBeyondUInt32AreIgnored() throws {
        var w = Self.header(fileType: 15)
        // cycles declared uint64: two huge counts on one day summed to more than Int64.max.
        w.define(local: 1, global: 55, bigEndian: false, fields: [
            .init(number: 253, size: 4, baseType: 0x86), .init(number: 3, size: 8, baseType: 0x8F),
            .init(number: 5, size: 1, baseType: 0x00)])
        w.data(local: 1, bigEndian: false, [(Self.t0, 4), (UInt64(Int64.max) - 1, 8), (6, 1)])
        w.data(local: 1, bigEndian: false, [(Self.t0 + 60, 4), (UInt64(Int64.max) - 2, 8), (6, 1)])
        // cycles declared sint64: Int64.min, then 1 (1 − Int64.min overflows).
        w.define(local: 2, global: 55, bigEndian: false, fields: [
            .init(number: 253, size: 4, baseType: 0x86), .init(number: 3, size: 8, baseType: 0x8E),
            .init(number: 5, size: 1, baseType: 0x00)])
        w.data(local: 2, bigEndian: false, [(Self.t0 + 120, 4), (Self.int64Min, 8), (1, 1)])
        w.data(local: 2, bigEndian: false, [(Self.t0 + 180, 4), (1, 8), (1, 1)])
        let file = try FITParser().parse(bytes: w.file(), fileName: "monitoring.fit")
        #expect(file.stepSamples.map(\.count) == [1])
    }
}
