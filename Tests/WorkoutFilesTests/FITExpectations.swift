import WorkoutFileFixtures
@testable import WorkoutFiles

/// What `FITParser` must make of a written activity, by the rules it documents: one workout per
/// session that is not a transition, `fit:<serial>:<time_created>:<session index>`, laps that start
/// inside the session, records inside it, values scaled as the FIT profile says, times with the
/// offset the activity's local_timestamp gives (unknown without one).
extension FITActivityFile {
    func stamp(_ unix: Int64) -> FileTimestamp {
        FileTimestamp(unixSeconds: unix, utcOffsetSeconds: utcOffsetSeconds ?? 0, offsetKnown: utcOffsetSeconds != nil)
    }

    /// A record as a track point.
    func expectedPoint(_ record: FITRecord) -> TrackPoint {
        let positioned = record.latitude != nil && record.longitude != nil
        return TrackPoint(
            time: stamp(record.time), latitude: positioned ? record.latitudeDegrees : nil, longitude: positioned ? record.longitudeDegrees : nil,
            altitudeMeters: record.altitudeMeters,
            distanceMeters: record.distanceMeters ?? record.compressedDistanceSixteenths.map { Double($0) / 16 },
            heartRate: record.heartRate, cadence: record.cadence,
            speedMetersPerSecond: record.speedMetersPerSecond ?? record.compressedSpeedCentimeters.map { Double($0) / 100 },
            powerWatts: record.powerWatts)
    }

    /// The sessions that become workouts, with their index among all sessions.
    var sportSessions: [(index: Int, session: FITSummary)] {
        sessions.enumerated().filter { $0.element.sport != .transition }.map { ($0.offset, $0.element) }
    }

    var expectedWorkouts: [ParsedWorkout] {
        sportSessions.map { index, session in
            let laps = self.laps.filter { $0.start >= session.start && $0.start < max(session.end, session.start + 1) }.map { lap in
                ParsedLap(start: stamp(lap.start), elapsedSeconds: lap.elapsedSeconds ?? Double(lap.end - lap.start),
                          movingSeconds: lap.movingSeconds ?? lap.timerSeconds, distanceMeters: lap.distanceMeters,
                          activeKcal: lap.calories, avgHeartRate: lap.avgHeartRate, maxHeartRate: lap.maxHeartRate)
            }
            return ParsedWorkout(
                sourceKind: FITManufacturer.sourceKind(fileId.manufacturer),
                sourceId: "fit:\(fileId.serialNumber):\(fileId.timeCreatedFIT):\(index)",
                activityType: session.sport.activityType, sportName: session.sport.name, title: nil,
                startedAt: stamp(session.start), endedAt: stamp(session.end),
                elapsedSeconds: session.elapsedSeconds ?? Double(session.end - session.start),
                movingSeconds: session.movingSeconds ?? session.timerSeconds, distanceMeters: session.distanceMeters,
                activeKcal: session.calories, avgHeartRate: session.avgHeartRate, maxHeartRate: session.maxHeartRate, laps: laps,
                track: records.filter { $0.time >= session.start && $0.time <= session.end }.map(expectedPoint))
        }
    }

    /// Records no imported session covers.
    var recordsOutsideSessions: Int {
        records.filter { record in !sportSessions.contains { record.time >= $0.session.start && record.time <= $0.session.end } }.count
    }

    /// The skip notes a parse must give: transitions, then records outside every imported session.
    var expectedSkips: [SkipNote] {
        var notes: [SkipNote] = []
        let transitions = sessions.count - sportSessions.count
        if transitions > 0 { notes.append(SkipNote(reason: "multisport transition session", count: transitions)) }
        if recordsOutsideSessions > 0 { notes.append(SkipNote(reason: "records outside every imported session", count: recordsOutsideSessions)) }
        return notes
    }
}

extension FITMonitoringFile {
    /// The step samples the intervals make: each from the previous interval of its type on the
    /// same local day (or local midnight) to its end, with the file's offset.
    var expectedSamples: [ParsedStepSample] {
        var previous: [UInt8: Int64] = [:]
        let source = FITManufacturer.sourceKind(fileId.manufacturer)
        func stamp(_ unix: Int64) -> FileTimestamp {
            FileTimestamp(unixSeconds: unix, utcOffsetSeconds: utcOffsetSeconds ?? 0, offsetKnown: utcOffsetSeconds != nil)
        }
        return intervals.sorted { ($0.end, $0.activityType) < ($1.end, $1.activityType) }.map { interval in
            let day = localDay(interval.end)
            let last = previous[interval.activityType].flatMap { localDay($0) == day ? $0 : nil }
            previous[interval.activityType] = interval.end
            return ParsedStepSample(start: stamp(last ?? midnight(day)), end: stamp(interval.end), count: interval.steps, source: source)
        }
    }

    /// Steps per FIT activity type.
    var expectedTotals: [Int64: Int64] {
        intervals.reduce(into: [:]) { $0[Int64($1.activityType), default: 0] += Int64($1.steps) }
    }
}
