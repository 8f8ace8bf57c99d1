/// The FIT files the tests share, as specs (their values are what tests expect back).
public enum SampleFIT {
    /// 2015-08-16T02:00:00Z: 21:00 on 2015-08-15 at the run's −05:00 (a user in Berlin would put it on the 16th).
    public static let runStart = FixtureTime.unix(2015, 8, 16, 2)
    public static let runOffset: Int32 = -5 * 3600

    /// A Garmin run: 902 records every 3 s for 9,008.22 m northwards (10 m a record, the last 8.22 m)
    /// with heart rate, cadence, speed and rolling altitude; four laps of 3 km (the last 8.22 m);
    /// one session; the activity's local_timestamp gives −05:00.
    public static var run: FITActivityFile {
        let start = runStart
        var records: [FITRecord] = []
        for index in 0...901 {
            let meters = index <= 900 ? Double(index * 10) : 9008.22
            let hill = index % 40 < 20 ? index % 40 : 40 - index % 40
            var record = FITRecord(
                time: start + Int64(index * 3), latitude: 477_218_000 + Int32(index <= 900 ? index * 1073 : 900 * 1073 + 882),
                longitude: 101_834_000, altitudeMeters: Double(100 + hill), heartRate: 120 + index % 50, cadence: 80 + index % 10,
                distanceMeters: meters, speedMetersPerSecond: 3.333)
            record.developerValue = UInt16(200 + index % 7)
            records.append(record)
        }
        let laps = [
            FITSummary(start: start, end: start + 900, elapsedSeconds: 900, timerSeconds: 899.5, distanceMeters: 3000, calories: 170,
                       avgHeartRate: 142, maxHeartRate: 169),
            FITSummary(start: start + 900, end: start + 1800, elapsedSeconds: 900, timerSeconds: 897.25, distanceMeters: 3000,
                       calories: 172, avgHeartRate: 146, maxHeartRate: 169),
            FITSummary(start: start + 1800, end: start + 2700, elapsedSeconds: 900, timerSeconds: 898.75, distanceMeters: 3000,
                       calories: 171, avgHeartRate: 147, maxHeartRate: 169),
            FITSummary(start: start + 2700, end: start + 2703, elapsedSeconds: 3, timerSeconds: 3, distanceMeters: 8.22, calories: 3,
                       avgHeartRate: 151, maxHeartRate: 152),
        ]
        let session = FITSummary(start: start, end: start + 2703, elapsedSeconds: 2703, timerSeconds: 2698.5, distanceMeters: 9008.22,
                                 calories: 516, avgHeartRate: 145, maxHeartRate: 169, sport: .running)
        return FITActivityFile(fileId: FITFileId(serialNumber: 3_888_000_123, timeCreated: start), sessions: [session], laps: laps,
                               records: records, utcOffsetSeconds: runOffset)
    }

    /// A Wahoo road ride with power and total_moving_time, no local_timestamp (offset unknown).
    public static var ride: FITActivityFile {
        let start = FixtureTime.unix(2019, 2, 17, 6, 26, 44)
        let records = (0..<240).map { index in
            FITRecord(time: start + Int64(index * 5), latitude: 457_000_000 + Int32(index * 4000), longitude: 171_000_000 - Int32(index * 2500),
                      altitudeMeters: Double(300 + index / 6), heartRate: 130 + index % 30, cadence: 85 + index % 8,
                      distanceMeters: Double(index * 4125) / 100, speedMetersPerSecond: 8.25, powerWatts: 180 + index % 60)
        }
        let end = start + 239 * 5
        let session = FITSummary(start: start, end: end, elapsedSeconds: 1195, timerSeconds: 1190.5, movingSeconds: 1188.25,
                                 distanceMeters: 9858.75, calories: 301, avgHeartRate: 144, maxHeartRate: 159, sport: .roadCycling)
        return FITActivityFile(fileId: FITFileId(manufacturer: FITManufacturer.wahoo, product: 31, serialNumber: 1_740_899_583,
                                                 timeCreated: start),
                               sessions: [session], laps: [session], records: records)
    }

    /// A triathlon: swim, transition, ride, transition, run; a record every 20 s throughout.
    public static var multisport: FITActivityFile {
        let start = FixtureTime.unix(2024, 6, 2, 7)
        let legs: [(FITSport, Int64, Int64, Double)] = [
            (.openWaterSwimming, 0, 1200, 1500), (.transition, 1200, 1320, 0), (.roadCycling, 1320, 4920, 40_000),
            (.transition, 4920, 5000, 0), (.running, 5000, 7400, 10_000),
        ]
        let sessions = legs.map { sport, from, to, meters in
            FITSummary(start: start + from, end: start + to, elapsedSeconds: Double(to - from), timerSeconds: Double(to - from),
                       distanceMeters: meters, calories: Int(to - from) / 10, sport: sport)
        }
        let records = stride(from: 0, through: 7400, by: 20).map { second in
            FITRecord(time: start + Int64(second), heartRate: 110 + second % 60, distanceMeters: Double(second) * 7)
        }
        return FITActivityFile(fileId: FITFileId(serialNumber: 3_915_525_118, timeCreated: start), sessions: sessions,
                               records: records, utcOffsetSeconds: 7200)
    }

    /// A Garmin Edge ride whose records carry only compressed_speed_distance (12-bit speed in cm/s
    /// and a 12-bit rolling distance in 1/16 m), heart rate and cadence: 300 records every 2 s at
    /// 7.5 m/s, so the distance field rolls over every 256 m.
    public static var compressedSpeedDistance: FITActivityFile {
        let start = FixtureTime.unix(2011, 9, 25, 13, 0, 22)
        let records = (0..<300).map { index in
            var record = FITRecord(time: start + Int64(index * 2), heartRate: 100 + index % 70, cadence: 70 + index % 20)
            record.compressedSpeedCentimeters = 750 + index % 11
            record.compressedDistanceSixteenths = index * 240  // 15 m a record
            return record
        }
        let session = FITSummary(start: start, end: start + 598, elapsedSeconds: 598, timerSeconds: 598, distanceMeters: 4485,
                                 sport: .cycling)
        return FITActivityFile(fileId: FITFileId(product: 1036, serialNumber: 3_827_340_020, timeCreated: start), sessions: [session],
                               records: records)
    }

    /// A file whose clock never was set: times are seconds since the device was switched on.
    public static var deviceRelative: FITActivityFile {
        let start = FixtureTime.fitEpoch + 20_000
        let records = (0..<30).map { FITRecord(time: start + Int64($0 * 2), heartRate: 90 + $0) }
        return FITActivityFile(fileId: FITFileId(serialNumber: 63, timeCreated: start),
                               sessions: [FITSummary(start: start, end: start + 58, elapsedSeconds: 58, sport: .running)], records: records)
    }

    /// A monitoring_b file over two local days at UTC−6: walking and running intervals, cycling
    /// cycles (strokes, not steps) and end-of-day summaries.
    public static var monitoring: FITMonitoringFile {
        let midnight = FixtureTime.unix(2014, 12, 26) + 6 * 3600
        var intervals: [StepInterval] = []
        for hour in 8...20 { intervals.append(StepInterval(end: midnight + Int64(hour) * 3600, activityType: 6, steps: 100 + 37 * hour)) }
        intervals.append(StepInterval(end: midnight + 7 * 3600 + 1800, activityType: 1, steps: 1500))
        intervals.append(StepInterval(end: midnight + 18 * 3600 + 900, activityType: 1, steps: 800))
        for hour in 9...12 { intervals.append(StepInterval(end: midnight + 86_400 + Int64(hour) * 3600, activityType: 6, steps: 250 + hour)) }
        intervals.append(StepInterval(end: midnight + 86_400 + 10 * 3600 + 60, activityType: 1, steps: 31))
        var file = FITMonitoringFile(fileId: FITFileId(type: 32, serialNumber: 3_871_412_322, timeCreated: midnight + 3600),
                                     utcOffsetSeconds: -6 * 3600, intervals: intervals)
        file.cyclingCycles = [(midnight + 10 * 3600 + 300, 500), (midnight + 11 * 3600 + 300, 900)]
        return file
    }

    /// A small activity for chaining and damage: one session of 40 records.
    public static var small: FITActivityFile {
        let start = FixtureTime.unix(2013, 2, 6, 12, 11, 14)
        let records = (0..<40).map {
            FITRecord(time: start + Int64($0), latitude: 500_000_000 + Int32($0 * 500), longitude: 50_000_000, heartRate: 100 + $0,
                      distanceMeters: Double($0 * 3))
        }
        let session = FITSummary(start: start, end: start + 39, elapsedSeconds: 39, timerSeconds: 39, distanceMeters: 117,
                                 calories: 4, sport: .running)
        return FITActivityFile(fileId: FITFileId(serialNumber: 1_234_567_890, timeCreated: start), sessions: [session],
                               laps: [session], records: records, utcOffsetSeconds: 3600)
    }
}
