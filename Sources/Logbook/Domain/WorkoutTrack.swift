/// `workout.track_recorded`: one part of the track a device recorded during a workout.
///
/// A track of more than ``TrackSamples/maxPointsPerEvent`` points is split into consecutive parts
/// (`part` 0 ..< `parts`), appended together with the workout's `workout.imported` event in its
/// stream. Parts concatenated in order give the whole track.
public struct WorkoutTrackRecorded: Sendable, Hashable, Codable {
    public var workoutId: String
    /// This part's index, from 0.
    public var part: Int
    /// How many parts the track has.
    public var parts: Int
    public var samples: TrackSamples

    public init(workoutId: String, part: Int, parts: Int, samples: TrackSamples) {
        self.workoutId = workoutId
        self.part = part
        self.parts = parts
        self.samples = samples
    }

    /// How many events a track of `points` points takes.
    public static func partCount(points: Int) -> Int {
        max(1, (points + TrackSamples.maxPointsPerEvent - 1) / TrackSamples.maxPointsPerEvent)
    }

    /// `track` as the events that record it for `workoutId`: one per ``TrackSamples/maxPointsPerEvent`` points.
    public static func events(workoutId: String, track: TrackSamples) -> [WorkoutTrackRecorded] {
        let chunk = TrackSamples.maxPointsPerEvent
        let count = partCount(points: track.points)
        return (0..<count).map { part in
            let range = (part * chunk)..<min(track.points, (part + 1) * chunk)
            return WorkoutTrackRecorded(workoutId: workoutId, part: part, parts: count, samples: track[range])
        }
    }
}

/// Samples of a recorded track in columns of integers (exact, compact, and the same bytes on
/// every replay): a column is absent when the device recorded none of it, and an entry is null
/// where one sample lacks the value.
public struct TrackSamples: Sendable, Hashable, Codable {
    /// Points per `workout.track_recorded` event (a 1 MiB event holds far more; smaller parts keep
    /// reads and HTTP answers light).
    public static let maxPointsPerEvent = 4000

    /// Number of samples; every present column has this many entries.
    public var points: Int
    /// Milliseconds from the workout's `startedAt` (negative before it), non-decreasing where present.
    public var offsetMillis: [Int?]?
    /// WGS84 latitude in units of 10⁻⁷ degree.
    public var latitudeE7: [Int?]?
    /// WGS84 longitude in units of 10⁻⁷ degree.
    public var longitudeE7: [Int?]?
    /// Altitude in centimetres.
    public var altitudeCentimeters: [Int?]?
    /// Cumulative distance from the start, in centimetres, as the device measured it.
    public var distanceCentimeters: [Int?]?
    /// Beats per minute.
    public var heartRate: [Int?]?
    /// Revolutions or strides per minute, as the device reports it.
    public var cadence: [Int?]?
    /// Instantaneous speed in millimetres per second.
    public var speedMillimetersPerSecond: [Int?]?
    /// Watts.
    public var powerWatts: [Int?]?

    public init(
        points: Int, offsetMillis: [Int?]? = nil, latitudeE7: [Int?]? = nil, longitudeE7: [Int?]? = nil,
        altitudeCentimeters: [Int?]? = nil, distanceCentimeters: [Int?]? = nil, heartRate: [Int?]? = nil,
        cadence: [Int?]? = nil, speedMillimetersPerSecond: [Int?]? = nil, powerWatts: [Int?]? = nil
    ) {
        self.points = points
        self.offsetMillis = offsetMillis
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
        self.altitudeCentimeters = altitudeCentimeters
        self.distanceCentimeters = distanceCentimeters
        self.heartRate = heartRate
        self.cadence = cadence
        self.speedMillimetersPerSecond = speedMillimetersPerSecond
        self.powerWatts = powerWatts
    }

    /// The columns in their fixed order (the order of the binary layout), with their names.
    public enum Column: Int, Sendable, CaseIterable {
        case offsetMillis, latitudeE7, longitudeE7, altitudeCentimeters, distanceCentimeters, heartRate, cadence,
             speedMillimetersPerSecond, powerWatts

        /// The column's name on the wire.
        public var name: String {
            switch self {
            case .offsetMillis: "offsetMillis"
            case .latitudeE7: "latitudeE7"
            case .longitudeE7: "longitudeE7"
            case .altitudeCentimeters: "altitudeCentimeters"
            case .distanceCentimeters: "distanceCentimeters"
            case .heartRate: "heartRate"
            case .cadence: "cadence"
            case .speedMillimetersPerSecond: "speedMillimetersPerSecond"
            case .powerWatts: "powerWatts"
            }
        }

        /// The values a device can plausibly record (commands outside them are refused).
        public var plausible: ClosedRange<Int> {
            switch self {
            case .offsetMillis: -86_400_000...(400 * 86_400_000)
            case .latitudeE7: -900_000_000...900_000_000
            case .longitudeE7: -1_800_000_000...1_800_000_000
            case .altitudeCentimeters: -50_000...1_000_000
            case .distanceCentimeters: 0...10_000_000_000
            case .heartRate: 1...300
            case .cadence: 0...500
            case .speedMillimetersPerSecond: 0...200_000
            case .powerWatts: 0...5000
            }
        }
    }

    /// A column's values (nil when absent).
    public subscript(column: Column) -> [Int?]? {
        get {
            switch column {
            case .offsetMillis: offsetMillis
            case .latitudeE7: latitudeE7
            case .longitudeE7: longitudeE7
            case .altitudeCentimeters: altitudeCentimeters
            case .distanceCentimeters: distanceCentimeters
            case .heartRate: heartRate
            case .cadence: cadence
            case .speedMillimetersPerSecond: speedMillimetersPerSecond
            case .powerWatts: powerWatts
            }
        }
        set {
            switch column {
            case .offsetMillis: offsetMillis = newValue
            case .latitudeE7: latitudeE7 = newValue
            case .longitudeE7: longitudeE7 = newValue
            case .altitudeCentimeters: altitudeCentimeters = newValue
            case .distanceCentimeters: distanceCentimeters = newValue
            case .heartRate: heartRate = newValue
            case .cadence: cadence = newValue
            case .speedMillimetersPerSecond: speedMillimetersPerSecond = newValue
            case .powerWatts: powerWatts = newValue
            }
        }
    }

    /// The samples in `range` (of `0..<points`).
    public subscript(range: Range<Int>) -> TrackSamples {
        var slice = TrackSamples(points: range.count)
        for column in Column.allCases {
            if let values = self[column] { slice[column] = Array(values[range]) }
        }
        return slice
    }

    /// The parts' samples one after the other.
    public static func joined(_ parts: [TrackSamples]) -> TrackSamples {
        var whole = TrackSamples(points: parts.reduce(0) { $0 + $1.points })
        for column in Column.allCases where parts.contains(where: { $0[column] != nil }) {
            var values: [Int?] = []
            values.reserveCapacity(whole.points)
            for part in parts { values += part[column] ?? Array(repeating: nil, count: part.points) }
            whole[column] = values
        }
        return whole
    }

    /// The value of `column` at `index`, nil when absent (a column shorter than `points` reads as nil past its end).
    public func value(_ column: Column, _ index: Int) -> Int? {
        guard let values = self[column], index < values.count else { return nil }
        return values[index]
    }
}
