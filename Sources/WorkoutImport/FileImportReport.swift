import Foundation
public import EventLog

/// What one file held and, unless it was a dry run, what importing it wrote.
///
/// Its JSON (one object per file, `logbook import-file --json`) is a contract:
/// `{"file", "format", "workouts": [{"sourceKind", "sourceId", "activityType", "startedAt", "endedAt",
/// "elapsedSeconds", "movingSeconds", "distanceMeters", "activeKcal", "avgHeartRate", "laps",
/// "trackPoints"}], "stepSamples", "steps", "skipped": [{"reason", "count"}]}` — timestamps in
/// RFC 3339 with their offset, null where the file has no value. A real import adds `workoutId`
/// and `outcome` to each workout and a `written` object.
public struct FileImportReport: Sendable, Hashable, Encodable {
    /// One workout of the file.
    public struct Workout: Sendable, Hashable, Encodable {
        public var sourceKind: String
        public var sourceId: String
        public var activityType: String
        public var startedAt: Timestamp
        public var endedAt: Timestamp
        public var elapsedSeconds: Int?
        public var movingSeconds: Int?
        public var distanceMeters: Int?
        public var activeKcal: Int?
        public var avgHeartRate: Int?
        /// How many laps.
        public var laps: Int
        /// How many track points.
        public var trackPoints: Int
        /// The workout's id in Logbook (a real import only).
        public var workoutId: String?
        /// `imported`, or `already-imported` when an earlier import of the same source wrote it (a real import only).
        public var outcome: String?

        enum CodingKeys: String, CodingKey {
            case sourceKind, sourceId, activityType, startedAt, endedAt, elapsedSeconds, movingSeconds, distanceMeters,
                 activeKcal, avgHeartRate, laps, trackPoints, workoutId, outcome
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(sourceKind, forKey: .sourceKind)
            try c.encode(sourceId, forKey: .sourceId)
            try c.encode(activityType, forKey: .activityType)
            try c.encode(startedAt, forKey: .startedAt)
            try c.encode(endedAt, forKey: .endedAt)
            // Explicit nulls: the contract names every key.
            try c.encode(elapsedSeconds, forKey: .elapsedSeconds)
            try c.encode(movingSeconds, forKey: .movingSeconds)
            try c.encode(distanceMeters, forKey: .distanceMeters)
            try c.encode(activeKcal, forKey: .activeKcal)
            try c.encode(avgHeartRate, forKey: .avgHeartRate)
            try c.encode(laps, forKey: .laps)
            try c.encode(trackPoints, forKey: .trackPoints)
            try c.encodeIfPresent(workoutId, forKey: .workoutId)
            try c.encodeIfPresent(outcome, forKey: .outcome)
        }
    }

    /// Items left out, and why.
    public struct Skipped: Sendable, Hashable, Encodable {
        public var reason: String
        public var count: Int
    }

    /// What a real import wrote, and what was already there.
    public struct Written: Sendable, Hashable, Encodable {
        /// Workouts imported now.
        public var workouts = 0
        /// Workouts an earlier import had written.
        public var workoutsAlreadyThere = 0
        /// `steps.recorded` events written now.
        public var stepEvents = 0
        /// `steps.recorded` events an earlier import had written.
        public var stepEventsAlreadyThere = 0
        /// The log position of the last event written (read your writes with it), 0 if none.
        public var lastPosition: UInt64 = 0
    }

    public var file: String
    /// `fit`, `gpx`, `tcx`, `apple-health` or `strava-csv`.
    public var format: String
    public var workouts: [Workout] = []
    /// Step samples kept.
    public var stepSamples = 0
    /// Their steps, summed (before Logbook's per-source, per-day de-duplication).
    public var steps = 0
    public var skipped: [Skipped] = []
    /// Nil for a dry run.
    public var written: Written?

    enum CodingKeys: String, CodingKey { case file, format, workouts, stepSamples, steps, skipped, written }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(format, forKey: .format)
        try c.encode(workouts, forKey: .workouts)
        try c.encode(stepSamples, forKey: .stepSamples)
        try c.encode(steps, forKey: .steps)
        try c.encode(skipped, forKey: .skipped)
        try c.encodeIfPresent(written, forKey: .written)
    }

    /// The report as one line of JSON (keys in a fixed order).
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }
}
