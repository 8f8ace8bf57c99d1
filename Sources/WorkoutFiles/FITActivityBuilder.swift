/// Collects session, lap, record and activity messages of one FIT file and turns each
/// non-transition session into a `ParsedWorkout` with the laps and records inside its window.
struct FITActivityBuilder {
    struct Summary {
        var start: UInt32?, end: UInt32?
        var sport: Int64?, subSport: Int64?
        var elapsed: Double?, timer: Double?, moving: Double?, distance: Double?
        var calories: Int64?, avgHeartRate: Int64?, maxHeartRate: Int64?
    }

    var sessions: [Summary] = []
    var laps: [Summary] = []
    var records: [(time: UInt32?, point: TrackPoint)] = []
    var utcOffset: Int32?
    var includeTrack = true
    /// Most records held until the sessions arrive (`ParseOptions.maxBufferedTrackPoints`).
    var maxRecords = ParseOptions().maxBufferedTrackPoints
    /// Most laps held (`ParseOptions.maxLapsPerWorkout`).
    var maxLaps = ParseOptions().maxLapsPerWorkout
    /// Most sessions held (`ParseOptions.maxWorkoutsPerFile`).
    var maxSessions = ParseOptions().maxWorkoutsPerFile
    /// Most points one session's track may have (`ParseOptions.maxTrackPointsPerWorkout`).
    var maxTrackPoints = ParseOptions().maxTrackPointsPerWorkout

    init(options: ParseOptions = ParseOptions()) {
        includeTrack = options.includeTrack
        maxRecords = options.maxBufferedTrackPoints
        maxLaps = options.maxLapsPerWorkout
        maxSessions = options.maxWorkoutsPerFile
        maxTrackPoints = options.maxTrackPointsPerWorkout
    }
    private var compressedDistanceRaw: Int64?
    private var compressedDistance: Int64 = 0

    /// Reads the fields session and lap share, plus the ones that differ.
    static func summary(_ message: FITMessage, isSession: Bool) -> Summary {
        typealias F = FITProfile.Summary
        var summary = Summary()
        summary.start = message.integer(F.startTime).flatMap { UInt32(exactly: $0) }
        summary.end = message.integer(FITProfile.timestampField).flatMap { UInt32(exactly: $0) }
        summary.elapsed = message.scaled(F.elapsed, scale: 1000)
        summary.timer = message.scaled(F.timer, scale: 1000)
        summary.distance = message.scaled(F.distance, scale: 100)
        summary.calories = message.integer(F.calories)
        func rate(_ field: UInt8) -> Int64? { message.integer(field).flatMap { $0 > 0 ? $0 : nil } }
        if isSession {
            summary.sport = message.integer(FITProfile.Session.sport)
            summary.subSport = message.integer(FITProfile.Session.subSport)
            summary.avgHeartRate = rate(FITProfile.Session.avgHeartRate)
            summary.maxHeartRate = rate(FITProfile.Session.maxHeartRate)
            summary.moving = message.scaled(FITProfile.Session.movingTime, scale: 1000)
        } else {
            summary.avgHeartRate = rate(FITProfile.Lap.avgHeartRate)
            summary.maxHeartRate = rate(FITProfile.Lap.maxHeartRate)
            summary.moving = message.scaled(FITProfile.Lap.movingTime, scale: 1000)
        }
        return summary
    }

    /// Handles one activity-related message.
    mutating func take(_ message: FITMessage, fileName: String) throws {
        switch message.globalNumber {
        case FITProfile.Message.session:
            guard sessions.count < maxSessions else {
                throw WorkoutFileError.exceeded(fileName, "more than \(maxSessions) FIT sessions", option: "maxWorkoutsPerFile")
            }
            sessions.append(Self.summary(message, isSession: true))
        case FITProfile.Message.lap:
            guard laps.count < maxLaps else {
                throw WorkoutFileError.exceeded(fileName, "more than \(maxLaps) FIT laps", option: "maxLapsPerWorkout")
            }
            laps.append(Self.summary(message, isSession: false))
        case FITProfile.Message.record:
            try takeRecord(message, fileName: fileName)
        case FITProfile.Message.activity:
            if let offset = FITProfile.utcOffset(local: message.integer(FITProfile.Activity.localTimestamp), utc: message.timestamp) {
                utcOffset = offset
            }
        default:
            break
        }
    }

    private mutating func takeRecord(_ message: FITMessage, fileName: String) throws {
        typealias R = FITProfile.Record
        guard records.count < maxRecords else {
            throw WorkoutFileError.exceeded(fileName, "more than \(maxRecords) FIT records held before the sessions",
                                            option: "maxBufferedTrackPoints")
        }
        var point = TrackPoint()
        if let lat = message.integer(R.latitude), let lon = message.integer(R.longitude) {
            point.latitude = Double(lat) * FITProfile.degreesPerSemicircle
            point.longitude = Double(lon) * FITProfile.degreesPerSemicircle
        }
        point.altitudeMeters = message.scaled(R.enhancedAltitude, scale: 5, offset: 500)
            ?? message.scaled(R.altitude, scale: 5, offset: 500)
        point.speedMetersPerSecond = message.scaled(R.enhancedSpeed, scale: 1000) ?? message.scaled(R.speed, scale: 1000)
        point.distanceMeters = message.scaled(R.distance, scale: 100)
        if let packed = message.bytes(R.compressedSpeedDistance), packed.count >= 3 {
            // 12 bits speed (1/100 m/s) then 12 bits rolling distance (1/16 m), little-endian nibbles.
            let speedRaw = Int(packed[0]) | (Int(packed[1]) & 0x0F) << 8
            let distanceRaw = Int64(packed[1] >> 4) | Int64(packed[2]) << 4
            if point.speedMetersPerSecond == nil { point.speedMetersPerSecond = Double(speedRaw) / 100 }
            if let last = compressedDistanceRaw {
                compressedDistance += (distanceRaw - last) & 0xFFF
            } else {
                compressedDistance = distanceRaw
            }
            compressedDistanceRaw = distanceRaw
            if point.distanceMeters == nil { point.distanceMeters = Double(compressedDistance) / 16 }
        }
        point.heartRate = message.integer(R.heartRate).flatMap { $0 > 0 ? Int($0) : nil }
        point.cadence = message.integer(R.cadence).map { Int($0) }
        point.powerWatts = message.integer(R.power).map { Int($0) }
        if !includeTrack { point = TrackPoint() }
        records.append((message.timestamp, point))
    }

    /// Converts raw FIT seconds to a timestamp with this file's offset.
    func stamp(_ raw: UInt32) -> FileTimestamp {
        FileTimestamp(unixSeconds: Int64(raw) + FITProfile.epochOffset,
                      utcOffsetSeconds: utcOffset ?? 0, offsetKnown: utcOffset != nil)
    }

    /// Builds workouts; `idPrefix` is "fit:<serial>:<time_created>".
    func workouts(idPrefix: String, firstIndex: Int = 0, sourceKind: String, fileName: String, skips: inout SkipCounter,
                  warnings: inout WarningList) throws -> [ParsedWorkout] {
        var result: [ParsedWorkout] = []
        var sessionList = sessions
        if sessionList.isEmpty {
            let times = records.compactMap(\.time)
            if let first = times.min(), let last = times.max(), last > first {
                sessionList = [Summary(start: first, end: last, elapsed: Double(last - first),
                                       distance: records.last(where: { $0.point.distanceMeters != nil })?.point.distanceMeters)]
                skips.add("activity without session messages (workout built from records)")
            } else {
                skips.add("activity file without sessions or timed records")
                return []
            }
        }
        var used = 0
        for (index, session) in sessionList.enumerated() {
            if session.sport == 3 {
                skips.add("multisport transition session")
                continue
            }
            guard let start = session.start ?? records.first(where: { $0.time != nil })?.time else {
                skips.add("session without a start time")
                continue
            }
            let end = session.end ?? start &+ UInt32(max(0, min(Double(UInt32.max - start), session.elapsed ?? 0)))
            if Int64(start) < FITProfile.minimumWallClock {
                warnings.append("session \(index) uses device-relative timestamps (seconds since power-up), not wall-clock time")
            }
            let inside = records.filter { record in
                guard let time = record.time else { return false }
                return time >= start && time <= end
            }
            used += inside.count
            guard inside.count <= maxTrackPoints else {
                throw WorkoutFileError.exceeded(fileName, "session \(index) has more than \(maxTrackPoints) track points",
                                                option: "maxTrackPointsPerWorkout")
            }
            let sessionLaps = laps.filter { lap in
                guard let lapStart = lap.start else { return false }
                return lapStart >= start && lapStart < max(end, start &+ 1)
            }
            let parsedLaps = sessionLaps.map { lap in
                ParsedLap(start: stamp(lap.start!),
                          elapsedSeconds: lap.elapsed ?? lap.end.map { Double($0) - Double(lap.start!) } ?? 0,
                          movingSeconds: lap.moving ?? lap.timer, distanceMeters: lap.distance,
                          activeKcal: lap.calories.map { Int($0) }, avgHeartRate: lap.avgHeartRate.map { Int($0) },
                          maxHeartRate: lap.maxHeartRate.map { Int($0) })
            }
            let track = includeTrack ? inside.map { record -> TrackPoint in
                var point = record.point
                point.time = stamp(record.time!)
                return point
            } : []
            result.append(ParsedWorkout(
                sourceKind: sourceKind, sourceId: "\(idPrefix):\(firstIndex + index)",
                activityType: ActivityTypeMapping.fit(sport: session.sport, subSport: session.subSport),
                sportName: FITProfile.sportText(sport: session.sport, subSport: session.subSport),
                title: nil, startedAt: stamp(start), endedAt: stamp(end),
                elapsedSeconds: session.elapsed ?? Double(end) - Double(start),
                movingSeconds: session.moving ?? session.timer, distanceMeters: session.distance,
                activeKcal: session.calories.map { Int($0) }, avgHeartRate: session.avgHeartRate.map { Int($0) },
                maxHeartRate: session.maxHeartRate.map { Int($0) }, laps: parsedLaps, track: track))
        }
        skips.add("records outside every imported session", count: records.count - used)
        return result
    }
}
