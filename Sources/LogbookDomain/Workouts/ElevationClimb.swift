/// Climb and descent along a sequence of altitudes, with a hysteresis of
/// ``TrackAnalysis/elevationThreshold`` metres: the running state, so a track folded part by part
/// (the activities read model, as `workout.track_recorded` parts arrive) gives exactly what the
/// whole track gives (the activity detail) — the same operations in the same order.
public struct ElevationClimb: Sendable, Hashable {
    /// The altitude changes are measured from (nil before the first altitude).
    public private(set) var reference: Double?
    /// Metres climbed so far.
    public private(set) var gain = 0.0
    /// Metres descended so far.
    public private(set) var loss = 0.0

    /// Nothing seen yet.
    public init() {}

    /// A state stored earlier.
    init(reference: Double?, gain: Double, loss: Double) {
        self.reference = reference
        self.gain = gain
        self.loss = loss
    }

    /// Takes the next altitude, in metres.
    public mutating func add(_ altitude: Double) {
        guard let base = reference else { reference = altitude; return }
        if altitude - base >= TrackAnalysis.elevationThreshold {
            gain += altitude - base
            reference = altitude
        } else if base - altitude >= TrackAnalysis.elevationThreshold {
            loss += base - altitude
            reference = altitude
        }
    }

    /// Takes every altitude of `track`'s points, in order.
    public mutating func add(_ track: TrackSamples) {
        for index in 0..<track.points {
            if let centimeters = track.value(.altitudeCentimeters, index) { add(Double(centimeters) / 100) }
        }
    }

    /// Metres climbed, rounded (nil when no altitude was seen).
    public var gainMeters: Int? { reference == nil ? nil : Int(gain.rounded()) }
    /// Metres descended, rounded (nil when no altitude was seen).
    public var lossMeters: Int? { reference == nil ? nil : Int(loss.rounded()) }
}
