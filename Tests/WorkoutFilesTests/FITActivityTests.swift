import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Activity, multisport, monitoring and other FIT files written with known values: each reads
/// back as exactly what was written, in every encoding a device might choose.
@Suite struct FITActivityTests {
    static let variants = FITWriteOptions.variants.map(\.name)

    static func options(_ name: String) -> FITWriteOptions { FITWriteOptions.variants.first { $0.name == name }!.options }

    @Test(arguments: variants)
    func runReadsAsWritten(_ variant: String) throws {
        let spec = SampleFIT.run
        let file = try FITParser().parse(bytes: spec.encoded(Self.options(variant)).bytes, fileName: "run.fit")
        #expect(file.workouts == spec.expectedWorkouts)
        #expect(file.skipped.isEmpty && file.warnings.isEmpty)
        let run = try #require(file.workouts.first)
        let session = spec.sessions[0]
        #expect(run.elapsedSeconds == session.elapsedSeconds && run.distanceMeters == session.distanceMeters)
        #expect(run.activeKcal == session.calories && run.activityType == "run" && run.sourceKind == "garmin")
        #expect(run.laps.count == spec.laps.count && run.track.count == spec.records.count)
        // activity.local_timestamp − timestamp gives the offset of every time in the file.
        #expect(run.startedAt.offsetKnown && run.startedAt.utcOffsetSeconds == SampleFIT.runOffset)
        #expect(run.startedAt.description.hasPrefix(FixtureTime.iso(SampleFIT.runStart)))
        // Lap elapsed times add up to the session's.
        #expect(run.laps.reduce(0) { $0 + $1.elapsedSeconds } == run.elapsedSeconds)
    }

    @Test(arguments: variants)
    func wahooRideWithPowerAndMovingTime(_ variant: String) throws {
        let spec = SampleFIT.ride
        let file = try FITParser().parse(bytes: spec.encoded(Self.options(variant)).bytes, fileName: "ride.fit")
        #expect(file.workouts == spec.expectedWorkouts)
        let ride = try #require(file.workouts.first)
        #expect(ride.sourceKind == "wahoo" && ride.activityType == "ride" && ride.sportName == "cycling/road")
        #expect(ride.movingSeconds == spec.sessions[0].movingSeconds, "total_moving_time wins over total_timer_time")
        #expect(!ride.startedAt.offsetKnown, "no local_timestamp: the offset is unknown")
        #expect(ride.track.map(\.powerWatts) == spec.records.map(\.powerWatts))
    }

    @Test func multisportKeepsSportSessionsOnly() throws {
        let spec = SampleFIT.multisport
        for (variant, options) in FITWriteOptions.variants {
            let file = try FITParser().parse(bytes: spec.encoded(options).bytes, fileName: "tri.fit")
            #expect(file.workouts == spec.expectedWorkouts, "\(variant)")
            #expect(file.skipped == spec.expectedSkips, "\(variant)")
        }
        let file = try FITParser().parse(bytes: spec.encoded().bytes, fileName: "tri.fit")
        #expect(file.workouts.map(\.activityType) == ["swim", "ride", "run"])
        let prefix = "fit:\(spec.fileId.serialNumber):\(spec.fileId.timeCreatedFIT)"
        #expect(file.workouts.map(\.sourceId) == ["\(prefix):0", "\(prefix):2", "\(prefix):4"], "indexes count transitions too")
        #expect(file.skipped.contains { $0.reason == "multisport transition session" && $0.count == 2 })
        for workout in file.workouts {
            #expect(workout.track.allSatisfy { $0.time! >= workout.startedAt && $0.time! <= workout.endedAt })
        }
    }

    @Test func manufacturerMapsToSourceKind() throws {
        for manufacturer in [FITManufacturer.garmin, FITManufacturer.wahoo, FITManufacturer.stryd, FITManufacturer.development] {
            var spec = SampleFIT.small
            spec.fileId.manufacturer = manufacturer
            let file = try FITParser().parse(bytes: spec.encoded().bytes, fileName: "m.fit")
            #expect(file.workouts.first?.sourceKind == FITManufacturer.sourceKind(manufacturer))
        }
    }

    @Test func deviceRelativeTimestampsAreFlagged() throws {
        let spec = SampleFIT.deviceRelative
        let file = try FITParser().parse(bytes: spec.encoded().bytes, fileName: "antfs.fit")
        #expect(file.workouts == spec.expectedWorkouts)
        #expect(file.warnings == ["session 0 uses device-relative timestamps (seconds since power-up), not wall-clock time"])
    }

    @Test func misalignedFieldsAreReadAsInvalid() throws {
        // A one-byte field declared uint32 (power, as one Coros file has it) reads as absent; its neighbours do not move.
        let spec = SampleFIT.small
        var encoder = FITEncoder()
        encoder.write(spec.fileId.message, local: 0)
        for record in spec.records {
            encoder.write(FITMessage(FITGlobal.record, [
                .field(253, .uint32, record.time - FixtureTime.fitEpoch),
                FITFieldValue(definition: FITFieldDefinition(7, .uint32, size: 1), value: .integer(99)),
                .field(3, .uint8, Int64(record.heartRate!)),
            ]), local: 1)
        }
        encoder.write(FITMessages.summary(spec.sessions[0], isSession: true, FITWriteOptions()), local: 2)
        let file = try FITParser().parse(bytes: encoder.file().bytes, fileName: "coros.fit")
        let run = try #require(file.workouts.first)
        #expect(run.track.allSatisfy { $0.powerWatts == nil })
        #expect(run.track.map(\.heartRate) == spec.records.map(\.heartRate))
        #expect(run.distanceMeters == spec.sessions[0].distanceMeters)
    }

    @Test func activityWithoutSessionsIsBuiltFromRecords() throws {
        var spec = SampleFIT.small
        spec.sessions = []
        spec.laps = []
        let file = try FITParser().parse(bytes: spec.encoded().bytes, fileName: "nosession.fit")
        let workout = try #require(file.workouts.first)
        let first = spec.records.first!, last = spec.records.last!
        #expect(workout.startedAt == spec.stamp(first.time) && workout.endedAt == spec.stamp(last.time))
        #expect(workout.elapsedSeconds == Double(last.time - first.time) && workout.distanceMeters == last.distanceMeters)
        #expect(workout.track == spec.records.map(spec.expectedPoint))
        #expect(file.skipped == [SkipNote(reason: "activity without session messages (workout built from records)", count: 1)])
        spec.records = []
        let empty = try FITParser().parse(bytes: spec.encoded().bytes, fileName: "empty.fit")
        #expect(empty.workouts.isEmpty)
        #expect(empty.skipped == [SkipNote(reason: "activity file without sessions or timed records", count: 1)])
    }

    @Test func monitoringStepsPerActivityType() throws {
        let spec = SampleFIT.monitoring
        for options in [FITWriteOptions(), FITWriteOptions(bigEndian: true, headerSize: 12)] {
            let bytes = spec.encoded(options).bytes
            // FIT activity_type 6 = walking, 1 = running; cycling (2) counts strokes and is left out.
            #expect(try FITParser().monitoringTotals(bytes: bytes, fileName: "m.fit") == spec.expectedTotals)
            let file = try FITParser().parse(bytes: bytes, fileName: "m.fit")
            #expect(file.workouts.isEmpty && file.skipped.isEmpty && file.warnings.isEmpty)
            #expect(file.stepSamples == spec.expectedSamples)
        }
        // Without monitoring_info the days split at UTC midnight, and the reader says so.
        var utc = spec
        utc.utcOffsetSeconds = nil
        let file = try FITParser().parse(bytes: utc.encoded().bytes, fileName: "m.fit")
        #expect(file.stepSamples == utc.expectedSamples)
        #expect(file.warnings == ["monitoring file without monitoring_info: days split at UTC midnight"])
        // A count lower than the one before on the same day is a device reset: the new count is the delta.
        var reset = FITEncoder()
        reset.write(spec.fileId.message, local: 0)
        let noon = spec.midnight(spec.localDay(spec.intervals[0].end)) + 43_200
        for (offset, cycles) in [(0, 500), (600, 800), (1200, 100), (1800, 350)] {
            reset.write(FITMessage(FITGlobal.monitoring, [.field(253, .uint32, noon + Int64(offset) - FixtureTime.fitEpoch),
                                                          .field(3, .uint32, Int64(cycles)), .field(5, .enumeration, 6)]), local: 1)
        }
        let counts = try FITParser().parse(bytes: reset.file().bytes, fileName: "reset.fit").stepSamples.map(\.count)
        #expect(counts == [500, 300, 100, 250])
    }

    @Test func filesWithoutWorkoutsSayWhy() throws {
        let created = FixtureTime.unix(2015, 10, 13, 8, 43, 15)
        let cases: [(EncodedFIT, String)] = [
            (FITOtherFiles.settings(serial: 1, created: created), "not an activity file (type 2 settings)"),
            (FITOtherFiles.weight(serial: 2, created: created), "not an activity file (type 9 weight)"),
            (FITOtherFiles.workoutPlan(serial: 3, created: created), "not an activity file (type 5 workout)"),
            (FITEncoder().file(headerCRC: false), "FIT file without a file_id message"),
        ]
        for (file, reason) in cases {
            let parsed = try FITParser().parse(bytes: file.bytes, fileName: "x.fit")
            #expect(parsed.workouts.isEmpty && parsed.stepSamples.isEmpty)
            #expect(parsed.skipped == [SkipNote(reason: reason, count: 1)])
        }
    }

    @Test func chainedFiles() throws {
        let spec = SampleFIT.small
        let created = FixtureTime.unix(2015, 10, 13)
        // A copy chained after itself does not give its workout twice.
        let twice = try FITParser().parse(bytes: EncodedFIT.chain([spec.encoded(), spec.encoded(FITWriteOptions(bigEndian: true))]),
                                          fileName: "twice.fit")
        #expect(twice.workouts == spec.expectedWorkouts)
        #expect(twice.skipped == [SkipNote(reason: "duplicate session in a chained FIT file", count: 1)])
        // Settings after an activity: the activity's workout, and a note for the settings.
        let settings = try FITParser().parse(bytes: EncodedFIT.chain([spec.encoded(), FITOtherFiles.settings(serial: 1, created: created)]),
                                             fileName: "activity-settings.fit")
        #expect(settings.workouts == spec.expectedWorkouts)
        #expect(settings.skipped == [SkipNote(reason: "not an activity file (type 2 settings)", count: 1)])
        // A file without file_id continues the one before it (Garmin's stored heart rate).
        let stored = FITOtherFiles.storedHeartRate(from: spec.records.last!.time, messages: 5)
        let heart = try FITParser().parse(bytes: EncodedFIT.chain([spec.encoded(), stored]), fileName: "hr.fit")
        #expect(heart.workouts == spec.expectedWorkouts)
        #expect(heart.skipped == [SkipNote(reason: "chained FIT file without file_id or activity data (e.g. stored heart rate)", count: 1)])
        // Streaming from a file gives what parsing the bytes gives.
        try FixtureDirectory.with { directory in
            let url = try directory.write(EncodedFIT.chain([spec.encoded(), stored]), to: "hr.fit")
            #expect(try FITParser().parse(url) == heart)
        }
    }
}
