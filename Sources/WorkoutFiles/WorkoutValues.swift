import EventLog

/// An instant read from a workout file, with the wall-clock UTC offset the file gave for it.
///
/// `microsecondsSinceEpoch` is always the UTC instant (Unix epoch). `utcOffsetSeconds` is the
/// offset of the athlete's local time at that instant when the file states it (`offsetKnown`),
/// and 0 otherwise. A time written as `…Z` in GPX/TCX says nothing about local time, so its
/// offset is unknown; `+02:00`, Apple Health's `+0200` and a FIT activity's local_timestamp are known.
public struct FileTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// UTC instant in microseconds since 1970-01-01T00:00:00Z.
    public var microsecondsSinceEpoch: Int64
    /// Local offset from UTC in seconds (0 when unknown).
    public var utcOffsetSeconds: Int32
    /// Whether `utcOffsetSeconds` was stated by the file.
    public var offsetKnown: Bool

    /// Creates a timestamp from its parts.
    public init(microsecondsSinceEpoch: Int64, utcOffsetSeconds: Int32 = 0, offsetKnown: Bool = false) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
        self.utcOffsetSeconds = offsetKnown ? utcOffsetSeconds : 0
        self.offsetKnown = offsetKnown
    }

    /// Creates a timestamp from whole Unix seconds.
    public init(unixSeconds: Int64, utcOffsetSeconds: Int32 = 0, offsetKnown: Bool = false) {
        self.init(microsecondsSinceEpoch: unixSeconds &* 1_000_000,
                  utcOffsetSeconds: utcOffsetSeconds, offsetKnown: offsetKnown)
    }

    /// The instant as fractional Unix seconds.
    public var unixSeconds: Double { Double(microsecondsSinceEpoch) / 1_000_000 }

    /// Returns this instant moved by `seconds` (clamped to ±10^11 s, about 3,000 years;
    /// non-finite values move nothing), keeping the offset.
    public func adding(seconds: Double) -> FileTimestamp {
        var copy = self
        guard seconds.isFinite else { return copy }
        let clamped = min(max(seconds, -1e11), 1e11)
        copy.microsecondsSinceEpoch &+= Int64((clamped * 1_000_000).rounded())
        return copy
    }

    /// Seconds from `other` to `self`.
    public func seconds(since other: FileTimestamp) -> Double {
        Double(microsecondsSinceEpoch &- other.microsecondsSinceEpoch) / 1_000_000
    }

    /// Orders by instant only.
    public static func < (lhs: FileTimestamp, rhs: FileTimestamp) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    /// ISO 8601 text of the UTC instant plus the offset when known, for logs and test output.
    public var description: String {
        let text = Timestamp(microsecondsSinceEpoch: microsecondsSinceEpoch).rfc3339
        guard offsetKnown else { return text + " (offset unknown)" }
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let magnitude = abs(Int(utcOffsetSeconds))
        let hours = magnitude / 3600, minutes = (magnitude % 3600) / 60
        return text + " (local \(sign)\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes))"
    }
}

/// One sample of a recorded track; every measurement is optional because files omit them freely.
public struct TrackPoint: Sendable, Hashable {
    /// When the sample was taken.
    public var time: FileTimestamp?
    /// WGS84 latitude in degrees.
    public var latitude: Double?
    /// WGS84 longitude in degrees.
    public var longitude: Double?
    /// Altitude in metres.
    public var altitudeMeters: Double?
    /// Cumulative distance in metres as recorded by the device (not recomputed).
    public var distanceMeters: Double?
    /// Heart rate in beats per minute.
    public var heartRate: Int?
    /// Cadence in rpm (cycling) or steps/strides per minute as the file gives it.
    public var cadence: Int?
    /// Instantaneous speed in metres per second.
    public var speedMetersPerSecond: Double?
    /// Power in watts.
    public var powerWatts: Int?

    /// Creates a point; all values default to nil.
    public init(time: FileTimestamp? = nil, latitude: Double? = nil, longitude: Double? = nil,
                altitudeMeters: Double? = nil, distanceMeters: Double? = nil, heartRate: Int? = nil,
                cadence: Int? = nil, speedMetersPerSecond: Double? = nil, powerWatts: Int? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeters = altitudeMeters
        self.distanceMeters = distanceMeters
        self.heartRate = heartRate
        self.cadence = cadence
        self.speedMetersPerSecond = speedMetersPerSecond
        self.powerWatts = powerWatts
    }
}

/// One lap (split) of a workout as the file recorded it.
public struct ParsedLap: Sendable, Hashable {
    /// When the lap started.
    public var start: FileTimestamp
    /// Wall-clock length of the lap in seconds (TCX: TotalTimeSeconds).
    public var elapsedSeconds: Double
    /// Timer or moving time in seconds when the file has it.
    public var movingSeconds: Double?
    /// Lap distance in metres.
    public var distanceMeters: Double?
    /// Energy in kilocalories.
    public var activeKcal: Int?
    /// Average heart rate in bpm.
    public var avgHeartRate: Int?
    /// Maximum heart rate in bpm.
    public var maxHeartRate: Int?

    /// Creates a lap.
    public init(start: FileTimestamp, elapsedSeconds: Double, movingSeconds: Double? = nil,
                distanceMeters: Double? = nil, activeKcal: Int? = nil,
                avgHeartRate: Int? = nil, maxHeartRate: Int? = nil) {
        self.start = start
        self.elapsedSeconds = elapsedSeconds
        self.movingSeconds = movingSeconds
        self.distanceMeters = distanceMeters
        self.activeKcal = activeKcal
        self.avgHeartRate = avgHeartRate
        self.maxHeartRate = maxHeartRate
    }
}

/// One workout read from a file, in neutral units (seconds, metres, kcal, bpm).
public struct ParsedWorkout: Sendable, Hashable {
    /// "garmin", "wahoo", "healthkit", "strava" or "file" (see `SourceKind`).
    public var sourceKind: String
    /// Identifier that stays the same whenever the same content is parsed again.
    public var sourceId: String
    /// One of run, walk, ride, swim, hike, strength, yoga, other (see `ActivityTypeMapping`).
    public var activityType: String
    /// The file's own sport text (FIT sport/sub_sport name, GPX `<type>`, TCX Sport, HK type, Strava type).
    public var sportName: String?
    /// Name or notes the file gives the workout.
    public var title: String?
    /// Start instant.
    public var startedAt: FileTimestamp
    /// End instant.
    public var endedAt: FileTimestamp
    /// Wall-clock duration in seconds.
    public var elapsedSeconds: Double
    /// Moving/timer duration in seconds when known or derivable.
    public var movingSeconds: Double?
    /// Distance in metres.
    public var distanceMeters: Double?
    /// Energy in kilocalories.
    public var activeKcal: Int?
    /// Average heart rate in bpm.
    public var avgHeartRate: Int?
    /// Maximum heart rate in bpm.
    public var maxHeartRate: Int?
    /// Laps in file order (may be empty).
    public var laps: [ParsedLap]
    /// Track samples in file order (may be empty).
    public var track: [TrackPoint]
    /// Path of the original activity file named by an export (Strava `Filename`, Apple route path).
    public var originalFile: String?

    /// Creates a workout.
    public init(sourceKind: String, sourceId: String, activityType: String, sportName: String? = nil,
                title: String? = nil, startedAt: FileTimestamp, endedAt: FileTimestamp,
                elapsedSeconds: Double, movingSeconds: Double? = nil, distanceMeters: Double? = nil,
                activeKcal: Int? = nil, avgHeartRate: Int? = nil, maxHeartRate: Int? = nil,
                laps: [ParsedLap] = [], track: [TrackPoint] = [], originalFile: String? = nil) {
        self.sourceKind = sourceKind
        self.sourceId = sourceId
        self.activityType = activityType
        self.sportName = sportName
        self.title = title
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.elapsedSeconds = elapsedSeconds
        self.movingSeconds = movingSeconds
        self.distanceMeters = distanceMeters
        self.activeKcal = activeKcal
        self.avgHeartRate = avgHeartRate
        self.maxHeartRate = maxHeartRate
        self.laps = laps
        self.track = track
        self.originalFile = originalFile
    }
}

/// A count of steps over an interval (Apple Health StepCount record, or a FIT monitoring delta).
public struct ParsedStepSample: Sendable, Hashable {
    /// Interval start.
    public var start: FileTimestamp
    /// Interval end.
    public var end: FileTimestamp
    /// Steps taken in the interval.
    public var count: Int
    /// Who recorded it: Apple's sourceName, or "garmin"/"wahoo"/"file" for FIT monitoring.
    public var source: String

    /// Creates a sample.
    public init(start: FileTimestamp, end: FileTimestamp, count: Int, source: String) {
        self.start = start
        self.end = end
        self.count = count
        self.source = source
    }
}

/// The fixed vocabulary of `ParsedWorkout.sourceKind`.
public enum SourceKind {
    /// Garmin-made FIT files.
    public static let garmin = "garmin"
    /// Wahoo-made FIT files.
    public static let wahoo = "wahoo"
    /// Apple Health exports.
    public static let healthkit = "healthkit"
    /// Strava bulk-export CSV rows.
    public static let strava = "strava"
    /// Any other file (GPX, TCX, FIT from other makers).
    public static let file = "file"
}
