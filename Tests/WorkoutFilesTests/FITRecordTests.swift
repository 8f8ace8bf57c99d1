import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Record by record: every field a record message can carry reads back as written (positions in
/// semicircles, altitude scale 5 offset 500, speed scale 1000, distance scale 100, the packed
/// compressed_speed_distance), absent and invalid values read as nil, and layouts may change from
/// one record to the next.
@Suite struct FITRecordTests {
    static func track(_ spec: FITActivityFile, _ options: FITWriteOptions = FITWriteOptions()) throws -> [TrackPoint] {
        try FITParser().parse(bytes: spec.encoded(options).bytes, fileName: "records.fit").workouts.flatMap(\.track)
    }

    @Test(arguments: FITActivityTests.variants)
    func everyColumnReadsAsWritten(_ variant: String) throws {
        let spec = SampleFIT.run
        let points = try Self.track(spec, FITActivityTests.options(variant))
        try #require(points.count == spec.records.count)
        #expect(points.map { $0.time?.microsecondsSinceEpoch } == spec.records.map { $0.time * 1_000_000 })
        #expect(points.map(\.latitude) == spec.records.map(\.latitudeDegrees))
        #expect(points.map(\.longitude) == spec.records.map(\.longitudeDegrees))
        #expect(points.map(\.altitudeMeters) == spec.records.map(\.altitudeMeters))
        #expect(points.map(\.heartRate) == spec.records.map(\.heartRate))
        #expect(points.map(\.cadence) == spec.records.map(\.cadence))
        #expect(points.map(\.speedMetersPerSecond) == spec.records.map(\.speedMetersPerSecond))
        #expect(points.map(\.distanceMeters) == spec.records.map(\.distanceMeters))
        #expect(points.map(\.powerWatts) == spec.records.map(\.powerWatts))
    }

    @Test(arguments: FITActivityTests.variants)
    func compressedSpeedAndDistance(_ variant: String) throws {
        // 12-bit speed in cm/s; 12-bit distance in 1/16 m that rolls over every 256 m (this file passes 4.4 km).
        let spec = SampleFIT.compressedSpeedDistance
        let points = try Self.track(spec, FITActivityTests.options(variant))
        #expect(points == spec.records.map(spec.expectedPoint))
        #expect(points.map(\.distanceMeters) == spec.records.map { Double($0.compressedDistanceSixteenths!) / 16 })
        #expect(points.map(\.speedMetersPerSecond) == spec.records.map { Double($0.compressedSpeedCentimeters!) / 100 })
        #expect(points.last?.distanceMeters == spec.sessions[0].distanceMeters)
    }

    @Test func absentAndInvalidValuesReadAsNil() throws {
        var spec = SampleFIT.small
        let start = spec.records[0].time
        spec.records = [
            FITRecord(time: start),
            FITRecord(time: start + 1, latitude: 500_000_000),  // a latitude without longitude is no position
            FITRecord(time: start + 2, heartRate: 0),  // heart rate 0: no reading
            FITRecord(time: start + 3, latitude: -1 << 30, longitude: 1 << 29, altitudeMeters: -500, heartRate: 254, cadence: 0,
                      distanceMeters: 0, speedMetersPerSecond: 0, powerWatts: 0),
        ]
        for options in [FITWriteOptions(), FITWriteOptions(absentAsInvalid: true), FITWriteOptions(bigEndian: true, absentAsInvalid: true)] {
            let points = try Self.track(spec, options)
            #expect(points[0] == TrackPoint(time: spec.stamp(start)))
            #expect(points[1] == TrackPoint(time: spec.stamp(start + 1)))
            #expect(points[2] == TrackPoint(time: spec.stamp(start + 2)))
            #expect(points[3] == TrackPoint(time: spec.stamp(start + 3), latitude: -90, longitude: 45, altitudeMeters: -500,
                                            distanceMeters: 0, heartRate: 254, cadence: 0, speedMetersPerSecond: 0, powerWatts: 0))
        }
    }

    @Test func layoutsChangeBetweenRecords() throws {
        // Each record carries a different set of fields, so local type 1 is defined again and again.
        var spec = SampleFIT.small
        spec.records = spec.records.enumerated().map { index, record in
            var copy = record
            if index % 2 == 1 { copy.latitude = nil; copy.longitude = nil }
            if index % 3 == 1 { copy.heartRate = nil }
            if index % 5 == 2 { copy.cadence = 90; copy.powerWatts = 250 }
            return copy
        }
        let encoded = spec.encoded()
        #expect(encoded.records.filter { $0.kind == .definition && $0.global == FITGlobal.record }.count > 10)
        #expect(try Self.track(spec) == spec.records.map(spec.expectedPoint))
        #expect(try Self.track(spec, FITWriteOptions(compressedTimestamps: true)) == spec.records.map(spec.expectedPoint))
    }

    @Test func compressedTimestampsRollOver() throws {
        // Records 1 s apart from a time whose low five bits are 30: the offsets wrap from 31 to 0.
        var spec = SampleFIT.small
        let base = ((spec.records[0].time - FixtureTime.fitEpoch) | 0x1F) - 1 + FixtureTime.fitEpoch
        spec.records = (0..<70).map { FITRecord(time: base + Int64($0), heartRate: 100 + $0 % 50) }
        spec.sessions[0].start = base
        spec.sessions[0].end = base + 69
        spec.laps = []
        let encoded = spec.encoded(FITWriteOptions(compressedTimestamps: true))
        #expect(encoded.records.filter { $0.kind == .compressedTimestampData }.count >= 60)
        #expect(try Self.track(spec, FITWriteOptions(compressedTimestamps: true)) == spec.records.map(spec.expectedPoint))
    }
}
