import Foundation

/// Reads Garmin Training Center XML (TCX v2): one workout per `<Activity>`.
///
/// * `activityType` from the `Sport` attribute (Running → run, Biking → ride, else other);
///   `title` is `<Notes>`; `sourceId` is `tcx:<first 32 hex of SHA-256>:<activity index>`;
/// * laps keep StartTime, TotalTimeSeconds (as `elapsedSeconds`), DistanceMeters, Calories
///   and the average/maximum heart rate;
/// * workout totals are sums over laps — elapsed = Σ TotalTimeSeconds, distance =
///   Σ DistanceMeters, kcal = Σ Calories — with the average heart rate weighted by lap time
///   and the maximum over laps; without laps they come from the track;
/// * `endedAt` is the later of start + elapsed and the last trackpoint; moving time uses the
///   trackpoints' recorded DistanceMeters (else positions) with `TrackMath`'s threshold;
/// * trackpoint speed, run cadence and watts come from the ActivityExtension v2 `TPX`
///   element, matched by namespace URI.
public struct TCXParser: WorkoutFileParser, ByteStreamParser {
    public static let format = WorkoutFileFormat.tcx

    /// Parser options.
    public var options: ParseOptions

    /// Creates a parser.
    public init(options: ParseOptions = ParseOptions()) { self.options = options }




    func stream(source: any ByteSource, name: String, _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        let hashing = try HashingByteSource(source, fileName: name)
        let reader = XMLPullReader(source: hashing, fileName: name)
        var activityReader = TCXActivityReader(options: options)
        var activities: [TCXActivityReader.Activity] = []
        try activityReader.read(reader) { activities.append($0) }
        let digest = try hashing.finish()
        var skips = activityReader.skips
        var count = 0
        for (index, activity) in activities.enumerated() {
            guard let workout = Self.workout(from: activity, sourceId: "tcx:\(digest):\(index)",
                                             includeTrack: options.includeTrack, skips: &skips) else { continue }
            count += 1
            try sink(.workout(workout))
        }
        return StreamSummary(format: .tcx, workoutCount: count, stepSampleCount: 0, skipped: skips.notes, warnings: [])
    }

    static func workout(from activity: TCXActivityReader.Activity, sourceId: String, includeTrack: Bool,
                        skips: inout SkipCounter) -> ParsedWorkout? {
        let totals = TrackMath.totals(segments: activity.segments, useRecordedDistance: true)
        let laps = activity.laps.compactMap { lap -> ParsedLap? in
            guard let start = lap.start else { return nil }
            return ParsedLap(start: start, elapsedSeconds: lap.totalTime ?? 0, movingSeconds: nil,
                             distanceMeters: lap.distance, activeKcal: lap.calories.flatMap(TextScalars.roundedInt),
                             avgHeartRate: lap.avgHeartRate, maxHeartRate: lap.maxHeartRate)
        }
        guard let start = laps.first?.start ?? activity.id ?? totals.first else {
            skips.add("TCX activity without a start time")
            return nil
        }
        let lapTime = activity.laps.compactMap(\.totalTime)
        let elapsed = lapTime.isEmpty ? (totals.last.map { $0.seconds(since: start) } ?? 0) : lapTime.reduce(0, +)
        let lapDistances = activity.laps.compactMap(\.distance)
        let lastRecorded = activity.segments.joined().last(where: { $0.distanceMeters != nil })?.distanceMeters
        let distance = lapDistances.isEmpty ? (lastRecorded ?? totals.distance) : lapDistances.reduce(0, +)
        let calories = activity.laps.compactMap(\.calories)
        var weighted = 0.0, weight = 0.0
        for lap in activity.laps {
            if let rate = lap.avgHeartRate, let time = lap.totalTime, time > 0 { weighted += Double(rate) * time; weight += time }
        }
        let lapMax = activity.laps.compactMap(\.maxHeartRate).max()
        var end = start.adding(seconds: elapsed)
        if let last = totals.last, last > end { end = last }
        return ParsedWorkout(
            sourceKind: SourceKind.file, sourceId: sourceId, activityType: ActivityTypeMapping.tcx(sport: activity.sport),
            sportName: activity.sport, title: activity.notes, startedAt: start, endedAt: end,
            elapsedSeconds: elapsed, movingSeconds: totals.moving, distanceMeters: distance,
            activeKcal: calories.isEmpty ? nil : TextScalars.roundedInt(calories.reduce(0, +)),
            avgHeartRate: weight > 0 ? TextScalars.roundedInt(weighted / weight) : totals.avgHeartRate,
            maxHeartRate: lapMax ?? totals.maxHeartRate, laps: laps,
            track: includeTrack ? Array(activity.segments.joined()) : [])
    }
}
