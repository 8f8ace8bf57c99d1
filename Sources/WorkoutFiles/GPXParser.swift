import Foundation

/// Reads GPX 1.0 and 1.1 files: one workout per `<trk>` that has timed points.
///
/// * `sourceKind` "file"; `sourceId` `gpx:<first 32 hex digits of the file's SHA-256>:<track index>`
///   (the index counts every `<trk>`, kept or not, so ids do not shift);
/// * `activityType` from the track's `<type>` through `ActivityTypeMapping.freeText`
///   (Strava's numeric GPX codes 1 = ride and 9 = run are recognised too); `title` is `<name>`;
/// * start/end are the earliest/latest point times; distance and moving time come from
///   `TrackMath` (haversine, 0.5 m/s threshold); heart rate averages over points that have one;
/// * waypoints and routes are reported as skipped. Laps are empty.
///
/// Workouts are delivered after the whole file is read (the id needs the file's hash).
public struct GPXParser: WorkoutFileParser, ByteStreamParser {
    public static let format = WorkoutFileFormat.gpx

    /// Parser options.
    public var options: ParseOptions

    /// Creates a parser.
    public init(options: ParseOptions = ParseOptions()) { self.options = options }




    func stream(source: any ByteSource, name: String, _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        let hashing = try HashingByteSource(source, fileName: name)
        let reader = XMLPullReader(source: hashing, fileName: name)
        var trackReader = GPXTrackReader(options: options)
        var tracks: [GPXTrackReader.Track] = []
        try trackReader.read(reader) { tracks.append($0) }
        let digest = try hashing.finish()
        var skips = trackReader.skips
        var warnings: [String] = []
        var count = 0
        for (index, track) in tracks.enumerated() {
            guard let workout = Self.workout(from: track, sourceId: "gpx:\(digest):\(index)",
                                             includeTrack: options.includeTrack, skips: &skips) else { continue }
            let points = track.segments.reduce(0) { $0 + $1.count }
            if workout.elapsedSeconds < 1, points > 2 {
                warnings.append("track \(index): \(points) points span less than one second (the file's timestamps do not advance)")
            }
            count += 1
            try sink(.workout(workout))
        }
        return StreamSummary(format: .gpx, workoutCount: count, stepSampleCount: 0, skipped: skips.notes, warnings: warnings)
    }

    /// Turns one GPX track into a workout, or notes why not.
    static func workout(from track: GPXTrackReader.Track, sourceId: String, includeTrack: Bool,
                        skips: inout SkipCounter) -> ParsedWorkout? {
        let points = track.segments.joined()
        guard !points.isEmpty else {
            skips.add("GPX track without points")
            return nil
        }
        let totals = TrackMath.totals(segments: track.segments)
        guard let first = totals.first, let last = totals.last else {
            skips.add("GPX track without timestamps")
            return nil
        }
        let activity: String
        switch track.type?.trimmingSpaces() {
        case "1": activity = "ride"
        case "9": activity = "run"
        default: activity = ActivityTypeMapping.freeText(track.type)
        }
        return ParsedWorkout(
            sourceKind: SourceKind.file, sourceId: sourceId, activityType: activity, sportName: track.type,
            title: track.name, startedAt: first, endedAt: last, elapsedSeconds: last.seconds(since: first),
            movingSeconds: totals.moving, distanceMeters: totals.distance, activeKcal: nil,
            avgHeartRate: totals.avgHeartRate, maxHeartRate: totals.maxHeartRate, laps: [],
            track: includeTrack ? Array(points) : [])
    }
}
