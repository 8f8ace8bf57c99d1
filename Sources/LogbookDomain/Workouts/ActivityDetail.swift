import EventLog

/// A workout as an activity screen shows it: the record (totals, laps, title, notes) plus what
/// its recorded track gives — splits in the user's units, climb, heart rate and speed.
///
/// Encodes as the record's own fields with the derived ones beside them, so a client of the
/// plain record reads this unchanged.
public struct ActivityDetail: Sendable, Hashable, Encodable {
    public var activity: ActivityRecord
    /// `km` or `mi`: the unit of ``splits`` (the user's units).
    public var splitUnit: String
    public var splits: [Split]
    public var elevationGainMeters: Int?
    public var elevationLossMeters: Int?
    /// From the record when the source gave it, else from the track.
    public var avgHeartRateFromTrack: Int?
    public var maxHeartRateFromTrack: Int?
    /// Distance over moving time.
    public var avgSpeedMetersPerSecond: Double?
    public var maxSpeedMetersPerSecond: Double?
    /// Whether a route (positions) was recorded: `…/route.geojson` answers it.
    public var hasRoute: Bool
    /// Time in heart-rate zones with the user's current settings (the Training article), for a workout that counts.
    public var intensity: TrainingIntensity?
    /// Minimum, time-weighted average and maximum of each measure the track recorded.
    public var ranges: TrackRanges

    enum CodingKeys: String, CodingKey {
        case splitUnit, splits, elevationGainMeters, elevationLossMeters, avgSpeedMetersPerSecond, maxSpeedMetersPerSecond, hasRoute
        case maxHeartRate, avgHeartRate, intensity, ranges
    }

    public func encode(to encoder: any Encoder) throws {
        try DatedActivity(record: activity).encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(splitUnit, forKey: .splitUnit)
        try c.encode(splits, forKey: .splits)
        try c.encodeIfPresent(elevationGainMeters, forKey: .elevationGainMeters)
        try c.encodeIfPresent(elevationLossMeters, forKey: .elevationLossMeters)
        try c.encodeIfPresent(activity.avgHeartRate ?? avgHeartRateFromTrack, forKey: .avgHeartRate)
        try c.encodeIfPresent(activity.maxHeartRate ?? maxHeartRateFromTrack, forKey: .maxHeartRate)
        try c.encodeIfPresent(avgSpeedMetersPerSecond, forKey: .avgSpeedMetersPerSecond)
        try c.encodeIfPresent(maxSpeedMetersPerSecond, forKey: .maxSpeedMetersPerSecond)
        try c.encode(hasRoute, forKey: .hasRoute)
        try c.encodeIfPresent(intensity, forKey: .intensity)
        try c.encode(ranges, forKey: .ranges)
    }

    /// The detail of `record` with its `track` (nil without one), splits in `units`.
    public init(record: ActivityRecord, track: TrackSamples?, units: Units, intensity: TrainingIntensity? = nil) {
        self.intensity = intensity
        activity = record
        splitUnit = units == .imperial ? "mi" : "km"
        let unitMeters = units == .imperial ? 1609.344 : 1000
        let points = track.map(TrackAnalysis.points) ?? []
        splits = TrackAnalysis.splits(points, unitMeters: unitMeters)
        ranges = TrackRanges(points, unitMeters: unitMeters)
        let climb = TrackAnalysis.elevation(points)
        elevationGainMeters = climb.map { Int($0.gain.rounded()) }
        elevationLossMeters = climb.map { Int($0.loss.rounded()) }
        let rates = points.compactMap(\.heartRate)
        avgHeartRateFromTrack = rates.isEmpty ? nil : Int((Double(rates.reduce(0, +)) / Double(rates.count)).rounded())
        maxHeartRateFromTrack = rates.max()
        avgSpeedMetersPerSecond = record.movingSeconds > 0 && record.distanceMeters > 0
            ? (Double(record.distanceMeters) / Double(record.movingSeconds) * 1000).rounded() / 1000 : nil
        maxSpeedMetersPerSecond = points.compactMap(\.speedMetersPerSecond).max()
        hasRoute = points.contains { $0.latitude != nil }
    }
}
