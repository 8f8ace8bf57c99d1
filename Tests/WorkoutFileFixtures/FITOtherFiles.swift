/// Steps taken in one interval of a monitoring file: from the previous interval of the same
/// activity type on the same local day (or from local midnight) to `end`.
public struct StepInterval: Sendable, Hashable {
    /// Unix seconds.
    public var end: Int64
    /// FIT activity_type: 6 walking, 1 running (others carry no steps).
    public var activityType: UInt8
    public var steps: Int

    public init(end: Int64, activityType: UInt8, steps: Int) {
        self.end = end
        self.activityType = activityType
        self.steps = steps
    }
}

/// A monitoring FIT file (file type 32 monitoring_b, or 15): monitoring_info, whose
/// local_timestamp states the UTC offset, and monitoring messages whose `cycles` field holds the
/// steps counted since local midnight, per activity type.
///
/// The writer varies the encoding from message to message: every third one gives its time as
/// `timestamp_16`, every other one its activity type in the low bits of
/// current_activity_type_intensity; `endOfDaySummaries` repeats each day's totals at the next local
/// midnight (a count "since midnight" taken at midnight is the day's total, and must not count twice).
public struct FITMonitoringFile: Sendable, Hashable {
    public var fileId: FITFileId
    /// monitoring_info.local_timestamp − timestamp; nil writes no monitoring_info.
    public var utcOffsetSeconds: Int32?
    public var intervals: [StepInterval]
    public var endOfDaySummaries = true
    /// Messages of other activity types (cycling, 2) with cycles that are strokes, not steps.
    public var cyclingCycles: [(end: Int64, cycles: Int)] {
        get { zip(cyclingEnds, cyclingCounts).map { ($0, $1) } }
        set { cyclingEnds = newValue.map(\.end); cyclingCounts = newValue.map(\.cycles) }
    }
    private var cyclingEnds: [Int64] = []
    private var cyclingCounts: [Int] = []

    public init(fileId: FITFileId, utcOffsetSeconds: Int32?, intervals: [StepInterval]) {
        self.fileId = fileId
        self.utcOffsetSeconds = utcOffsetSeconds
        self.intervals = intervals
    }

    /// The local day (days since 1970-01-01, local) an instant's count belongs to: a count taken at
    /// exactly midnight still belongs to the day that ends then.
    public func localDay(_ unix: Int64) -> Int64 {
        let local = unix + Int64(utcOffsetSeconds ?? 0) - 1
        return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }

    /// Unix seconds of the local midnight that starts `day`.
    public func midnight(_ day: Int64) -> Int64 { day * 86_400 - Int64(utcOffsetSeconds ?? 0) }

    public func encoded(_ options: FITWriteOptions = FITWriteOptions()) -> EncodedFIT {
        var encoder = FITEncoder(bigEndian: options.bigEndian)
        encoder.write(fileId.message, local: 0)
        let first = intervals.map(\.end).min() ?? fileId.timeCreated
        if let offset = utcOffsetSeconds {
            let info = midnight(localDay(first))
            encoder.write(FITMessage(FITGlobal.monitoringInfo, [
                .field(253, .uint32, fitTime(info)), .field(0, .uint32, fitTime(info) + Int64(offset)),
            ]), local: 1)
        }
        var totals: [UInt8: (day: Int64, count: Int)] = [:]
        var events: [(time: Int64, type: UInt8, cycles: Int)] = []
        for interval in intervals.sorted(by: { ($0.end, $0.activityType) < ($1.end, $1.activityType) }) {
            let day = localDay(interval.end)
            if endOfDaySummaries, let total = totals[interval.activityType], total.day < day {
                events.append((midnight(total.day + 1), interval.activityType, total.count))
            }
            let running = totals[interval.activityType].map { $0.day == day ? $0.count : 0 } ?? 0
            totals[interval.activityType] = (day, running + interval.steps)
            events.append((interval.end, interval.activityType, running + interval.steps))
        }
        events += zip(cyclingEnds, cyclingCounts).map { ($0, 2, $1) }
        var lastFull: Int64?
        for (index, event) in events.sorted(by: { ($0.time, $0.type) < ($1.time, $1.type) }).enumerated() {
            var fields: [FITFieldValue] = []
            if index % 3 == 2, let last = lastFull, event.time - last < 65_536 {
                fields.append(.field(26, .uint16, fitTime(event.time) & 0xFFFF))
            } else {
                fields.append(.field(253, .uint32, fitTime(event.time)))
                lastFull = event.time
            }
            fields.append(.field(3, .uint32, Int64(event.cycles)))
            if index % 2 == 0 {
                fields.append(.field(5, .enumeration, Int64(event.type)))
            } else {
                fields.append(FITFieldValue(definition: FITFieldDefinition(24, .byte), value: .integer(Int64(event.type) | 0x20)))
            }
            encoder.write(FITMessage(FITGlobal.monitoring, fields), local: 2)
        }
        return encoder.file(headerSize: options.headerSize, headerCRC: options.headerCRC)
    }
}

/// FIT files that hold no workout: what each is and how a reader should say it left it out.
public enum FITOtherFiles {
    /// A settings file (type 2): user_profile, device_settings and zones_target.
    public static func settings(serial: UInt32, created: Int64) -> EncodedFIT {
        var encoder = FITEncoder()
        encoder.write(FITFileId(type: 2, serialNumber: serial, timeCreated: created).message, local: 0)
        encoder.write(FITMessage(FITGlobal.userProfile, [
            FITFieldValue(definition: FITFieldDefinition(0, .string, size: 8), value: .text("Ana")),
            .field(1, .enumeration, 0), .field(2, .uint8, 38), .field(3, .uint8, 168), .field(4, .uint16, 590),
        ]), local: 1)
        encoder.write(FITMessage(FITGlobal.deviceSettings, [.field(1, .uint32, 7200), .field(4, .enumeration, 1)]), local: 2)
        encoder.write(FITMessage(FITGlobal.zonesTarget, [.field(1, .uint8, 190), .field(2, .uint8, 50), .field(5, .enumeration, 1)]), local: 3)
        return encoder.file()
    }

    /// A weight-scale file (type 9) with two weighings.
    public static func weight(serial: UInt32, created: Int64) -> EncodedFIT {
        var encoder = FITEncoder()
        encoder.write(FITFileId(type: 9, manufacturer: FITManufacturer.development, serialNumber: serial, timeCreated: created).message, local: 0)
        for (index, kilograms) in [7040, 7025].enumerated() {
            encoder.write(FITMessage(FITGlobal.weightScale, [
                .field(253, .uint32, fitTime(created + Int64(index) * 86_400)), .field(0, .uint16, Int64(kilograms)),
                .field(1, .uint16, 2150),
            ]), local: 1)
        }
        return encoder.file(headerSize: 12)
    }

    /// A workout-plan file (type 5): a workout and two steps.
    public static func workoutPlan(serial: UInt32, created: Int64) -> EncodedFIT {
        var encoder = FITEncoder()
        encoder.write(FITFileId(type: 5, serialNumber: serial, timeCreated: created).message, local: 0)
        encoder.write(FITMessage(FITGlobal.workout, [
            .field(4, .enumeration, 1), .field(6, .uint16, 2),
            FITFieldValue(definition: FITFieldDefinition(8, .string, size: 12), value: .text("Intervals")),
        ]), local: 1)
        for step in 0..<2 {
            encoder.write(FITMessage(FITGlobal.workoutStep, [
                .field(254, .uint16, Int64(step)), .field(1, .enumeration, 0), .field(2, .uint32, 600_000),
            ]), local: 2)
        }
        return encoder.file()
    }

    /// A chained file of the kind Garmin writes after an activity: no file_id, only `hr` messages
    /// (132: stored heart rate, eight filtered beats per minute a message) that continue the file before it.
    public static func storedHeartRate(from start: Int64, messages: Int) -> EncodedFIT {
        var encoder = FITEncoder()
        for index in 0..<messages {
            encoder.write(FITMessage(132, [
                .field(253, .uint32, fitTime(start + Int64(index * 8))),
                FITFieldValue(definition: FITFieldDefinition(6, .uint8, size: 8), value: .bytes([UInt8](repeating: 100, count: 8))),
            ]), local: 0)
        }
        return encoder.file()
    }
}
