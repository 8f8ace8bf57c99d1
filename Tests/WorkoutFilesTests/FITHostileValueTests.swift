import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// FIT fields whose profile type is narrow (uint16, uint32) but whose definition makes them
/// 8 bytes wide: each of these used to overflow Int64 arithmetic and trap.
@Suite struct FITHostileValueTests {
    static let t0: Int64 = 1_000_000_030

    /// A file of `fileType` (its file_id first, so the monitoring builder hears what follows),
    /// then `messages`, each as its own local type.
    static func file(fileType: Int64, _ messages: [WorkoutFileFixtures.FITMessage]) -> [UInt8] {
        var encoder = FITEncoder()
        encoder.write(WorkoutFileFixtures.FITMessage(0, [.field(0, .enumeration, fileType)]), local: 0)
        for (index, message) in messages.enumerated() { encoder.write(message, local: UInt8(1 + index % 14)) }
        return encoder.file().bytes
    }

    @Test func activityLocalTimestampAtInt64MinIsIgnored() throws {
        // activity: timestamp (uint32), local_timestamp declared sint64.
        let bytes = Self.file(fileType: 4, [WorkoutFileFixtures.FITMessage(34, [.field(253, .uint32, Self.t0), .field(5, .sint64, .min)])])
        let file = try FITParser().parse(bytes: bytes, fileName: "activity.fit")
        #expect(file.workouts.isEmpty)
    }

    @Test func monitoringInfoLocalTimestampAtInt64MinIsIgnored() throws {
        let bytes = Self.file(fileType: 15, [
            WorkoutFileFixtures.FITMessage(103, [.field(253, .uint32, Self.t0), .field(0, .sint64, .min)]),
            WorkoutFileFixtures.FITMessage(55, [.field(253, .uint32, Self.t0 + 60), .field(3, .uint32, 100), .field(5, .enumeration, 6)]),
        ])
        let file = try FITParser().parse(bytes: bytes, fileName: "monitoring.fit")
        #expect(file.stepSamples.count == 1)
        #expect(file.stepSamples.first?.start.offsetKnown == false)
    }

    @Test func monitoringTimestamp16AtInt64MinIsIgnored() throws {
        let bytes = Self.file(fileType: 15, [
            WorkoutFileFixtures.FITMessage(55, [.field(253, .uint32, Self.t0), .field(3, .uint32, 100), .field(5, .enumeration, 6)]),
            // timestamp_16 declared sint64, holding Int64.min.
            WorkoutFileFixtures.FITMessage(55, [.field(26, .sint64, .min), .field(3, .uint32, 200), .field(5, .enumeration, 6)]),
        ])
        let file = try FITParser().parse(bytes: bytes, fileName: "monitoring.fit")
        #expect(file.stepSamples.map(\.count) == [100])
    }

    @Test func monitoringCyclesBeyondUInt32AreIgnored() throws {
        let bytes = Self.file(fileType: 15, [
            // cycles declared uint64: two huge counts on one day summed to more than Int64.max.
            WorkoutFileFixtures.FITMessage(55, [.field(253, .uint32, Self.t0), .field(3, .uint64, .max - 1), .field(5, .enumeration, 6)]),
            WorkoutFileFixtures.FITMessage(55, [.field(253, .uint32, Self.t0 + 60), .field(3, .uint64, .max - 2), .field(5, .enumeration, 6)]),
            // cycles declared sint64: Int64.min, then 1 (1 − Int64.min overflows).
            WorkoutFileFixtures.FITMessage(55, [.field(253, .uint32, Self.t0 + 120), .field(3, .sint64, .min), .field(5, .enumeration, 1)]),
            WorkoutFileFixtures.FITMessage(55, [.field(253, .uint32, Self.t0 + 180), .field(3, .sint64, 1), .field(5, .enumeration, 1)]),
        ])
        let file = try FITParser().parse(bytes: bytes, fileName: "monitoring.fit")
        #expect(file.stepSamples.map(\.count) == [1])
    }
}
