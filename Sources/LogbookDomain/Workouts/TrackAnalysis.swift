import EventLog
import Foundation

/// One point of a track with its distance from the start: the series splits, charts and routes use.
public struct TrackPointAlongRoute: Sendable, Hashable {
    /// Metres from the start: the device's own distance where it recorded one, else the sum of
    /// haversine distances between successive positions (mean Earth radius 6,371,008.8 m).
    public var distanceMeters: Double
    /// Seconds from the workout's start (nil where the point has no time).
    public var seconds: Double?
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeMeters: Double?
    public var heartRate: Int?
    public var speedMetersPerSecond: Double?
    /// Steps or revolutions per minute.
    public var cadence: Int?
    public var powerWatts: Int?
}

/// The smallest, time-weighted average and largest value of one measure along a track.
public struct MeasureRange: Sendable, Hashable, Codable {
    public var minimum: Double
    public var average: Double
    public var maximum: Double
}

/// What a track says of each measure it recorded (absent where it recorded none): heart rate
/// (bpm), speed (m/s), pace (seconds per km or mile, the user's units; standing left out),
/// cadence (per minute), power (W) and altitude (m).
public struct TrackRanges: Sendable, Hashable, Codable {
    public var heartRate: MeasureRange?
    public var speed: MeasureRange?
    public var pace: MeasureRange?
    public var cadence: MeasureRange?
    public var power: MeasureRange?
    public var altitude: MeasureRange?

    /// The ranges of `points`, pace per `unitMeters`.
    public init(_ points: [TrackPointAlongRoute], unitMeters: Double) {
        let speeds = TrackAnalysis.speeds(points)
        heartRate = TrackAnalysis.range(points, points.map { $0.heartRate.map(Double.init) }, places: 1)
        speed = TrackAnalysis.range(points, speeds, places: 3)
        pace = TrackAnalysis.range(points, speeds.map { TrackAnalysis.pace(speed: $0, unitMeters: unitMeters) }, places: 0)
        cadence = TrackAnalysis.range(points, points.map { $0.cadence.map(Double.init) }, places: 1)
        power = TrackAnalysis.range(points, points.map { $0.powerWatts.map(Double.init) }, places: 1)
        altitude = TrackAnalysis.range(points, points.map(\.altitudeMeters), places: 1)
    }
}

/// A split of a workout: one kilometre or one mile (the user's units); the last one may be shorter.
public struct Split: Sendable, Hashable, Codable {
    /// 1-based.
    public var index: Int
    public var distanceMeters: Int
    /// Time taken over the split.
    public var seconds: Int
    /// Seconds per kilometre or per mile (the split's unit), nil for a split without time.
    public var pace: Int?
    /// Altitude gained and lost over the split, in metres.
    public var elevationGainMeters: Int?
    public var elevationLossMeters: Int?
    public var avgHeartRate: Int?
}

/// Pure computations over a recorded track: the same samples give the same values on every
/// machine (integer inputs, a fixed order of floating-point operations, no locale).
public enum TrackAnalysis {
    /// Mean Earth radius (IUGG), metres.
    static let earthRadius = 6_371_008.8
    /// Altitude changes smaller than this are noise, not climbing (hysteresis, metres).
    public static let elevationThreshold = 3.0

    /// Great-circle distance by the haversine formula, metres.
    public static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let φ1 = lat1 * .pi / 180, φ2 = lat2 * .pi / 180
        let dφ = (lat2 - lat1) * .pi / 180, dλ = (lon2 - lon1) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }

    /// The track's points with their distance from the start.
    public static func points(_ track: TrackSamples) -> [TrackPointAlongRoute] {
        let useDevice = track.distanceCentimeters?.contains { $0 != nil } ?? false
        var result: [TrackPointAlongRoute] = []
        result.reserveCapacity(track.points)
        var travelled = 0.0
        var lastPosition: (Double, Double)?
        for index in 0..<track.points {
            let latitude = track.value(.latitudeE7, index).map { Double($0) / 1e7 }
            let longitude = track.value(.longitudeE7, index).map { Double($0) / 1e7 }
            if useDevice {
                if let centimeters = track.value(.distanceCentimeters, index) { travelled = max(travelled, Double(centimeters) / 100) }
            } else if let latitude, let longitude {
                if let (lastLat, lastLon) = lastPosition { travelled += haversine(lastLat, lastLon, latitude, longitude) }
                lastPosition = (latitude, longitude)
            }
            result.append(TrackPointAlongRoute(
                distanceMeters: travelled, seconds: track.value(.offsetMillis, index).map { Double($0) / 1000 },
                latitude: latitude, longitude: longitude, altitudeMeters: track.value(.altitudeCentimeters, index).map { Double($0) / 100 },
                heartRate: track.value(.heartRate, index),
                speedMetersPerSecond: track.value(.speedMillimetersPerSecond, index).map { Double($0) / 1000 },
                cadence: track.value(.cadence, index), powerWatts: track.value(.powerWatts, index)))
        }
        return result
    }

    /// Total climb and descent with a hysteresis of ``elevationThreshold`` metres (nil without an altitude).
    public static func elevation(_ points: some Sequence<TrackPointAlongRoute>) -> (gain: Double, loss: Double)? {
        var climb = ElevationClimb()
        for point in points { if let altitude = point.altitudeMeters { climb.add(altitude) } }
        return climb.reference == nil ? nil : (climb.gain, climb.loss)
    }

    /// Each point's speed in metres per second: the device's where it recorded one, else the
    /// distance from the point before over the time between them (nil where time does not move on).
    public static func speeds(_ points: [TrackPointAlongRoute]) -> [Double?] {
        var result: [Double?] = []
        result.reserveCapacity(points.count)
        var previous: TrackPointAlongRoute?
        for point in points {
            var speed = point.speedMetersPerSecond
            if speed == nil, let previous, let t0 = previous.seconds, let t1 = point.seconds, t1 > t0 {
                speed = (point.distanceMeters - previous.distanceMeters) / (t1 - t0)
            }
            result.append(speed)
            previous = point
        }
        return result
    }

    /// Slower than this (metres per second) is standing, not a pace.
    public static let slowestPaceSpeed = 0.3

    /// Seconds per `unitMeters` at `speed`, nil when standing, at most an hour.
    public static func pace(speed: Double?, unitMeters: Double) -> Double? {
        guard let speed, speed > slowestPaceSpeed else { return nil }
        return min(unitMeters / speed, 3_600)
    }

    /// The longest a value holds for the average: a gap in the recording counts as this much.
    public static let longestHold = 30.0

    /// Minimum, time-weighted average and maximum of `values` (one per point, nil where the point
    /// has none), rounded to `places` decimals; nil when no point has a value. A value holds from
    /// its point to the next point with a time, at most ``longestHold`` seconds; without any such
    /// time the average is the plain mean.
    public static func range(_ points: [TrackPointAlongRoute], _ values: [Double?], places: Int) -> MeasureRange? {
        var low = Double.infinity, high = -Double.infinity
        var sum = 0.0, count = 0.0
        var weighted = 0.0, weight = 0.0
        var held: (value: Double, seconds: Double)?
        for (point, value) in zip(points, values) {
            if let seconds = point.seconds {
                if let (value, since) = held {
                    let span = min(max(seconds - since, 0), longestHold)
                    weighted += value * span
                    weight += span
                }
                held = nil
            }
            guard let value, value.isFinite else { continue }
            low = min(low, value)
            high = max(high, value)
            sum += value
            count += 1
            if let seconds = point.seconds { held = (value, seconds) }
        }
        guard count > 0 else { return nil }
        let average = weight > 0 ? weighted / weight : sum / count
        return MeasureRange(minimum: rounded(low, places), average: rounded(average, places), maximum: rounded(high, places))
    }

    /// `value` rounded half away from zero to `places` decimals.
    static func rounded(_ value: Double, _ places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// Most splits one workout shows (a 1,000 km ride); a track claiming more (glitched positions)
    /// shows the first ones.
    public static let maxSplits = 1000

    /// Splits of `unitMeters` (1,000 or 1,609.344); times interpolated at each boundary.
    public static func splits(_ points: [TrackPointAlongRoute], unitMeters: Double) -> [Split] {
        let timed = points.filter { $0.seconds != nil }
        guard let first = timed.first, let last = timed.last, last.distanceMeters > first.distanceMeters else { return [] }
        var splits: [Split] = []
        var boundary = first.distanceMeters + unitMeters
        var splitStart = (distance: first.distanceMeters, seconds: first.seconds!)
        var inSplit: [TrackPointAlongRoute] = [first]
        func close(at distance: Double, seconds: Double) {
            let length = distance - splitStart.distance
            let taken = seconds - splitStart.seconds
            let climb = elevation(inSplit)
            let rates = inSplit.compactMap(\.heartRate)
            splits.append(Split(
                index: splits.count + 1, distanceMeters: Int(length.rounded()), seconds: Int(taken.rounded()),
                pace: length > 0 && taken > 0 ? Int((taken * unitMeters / length).rounded()) : nil,
                elevationGainMeters: climb.map { Int($0.gain.rounded()) }, elevationLossMeters: climb.map { Int($0.loss.rounded()) },
                avgHeartRate: rates.isEmpty ? nil : Int((Double(rates.reduce(0, +)) / Double(rates.count)).rounded())))
            splitStart = (distance, seconds)
        }
        for (previous, point) in zip(timed, timed.dropFirst()) {
            while point.distanceMeters >= boundary, point.distanceMeters > previous.distanceMeters, splits.count < maxSplits {
                let fraction = (boundary - previous.distanceMeters) / (point.distanceMeters - previous.distanceMeters)
                let seconds = previous.seconds! + fraction * (point.seconds! - previous.seconds!)
                close(at: boundary, seconds: seconds)
                inSplit = [previous]
                boundary += unitMeters
            }
            inSplit.append(point)
        }
        if splits.count < maxSplits, last.distanceMeters - splitStart.distance >= 1 { close(at: last.distanceMeters, seconds: last.seconds!) }
        return splits
    }

    /// The route as a GeoJSON Feature (a LineString of [longitude, latitude, altitude?] in degrees
    /// with seven decimals — the samples' own precision — and metres), or nil without positions.
    public static func geoJSON(_ track: TrackSamples, workoutId: String, activityType: ActivityType) -> String? {
        var coordinates: [String] = []
        for index in 0..<track.points {
            guard let latitude = track.value(.latitudeE7, index), let longitude = track.value(.longitudeE7, index) else { continue }
            var point = "[\(decimal(longitude, places: 7)),\(decimal(latitude, places: 7))"
            if let altitude = track.value(.altitudeCentimeters, index) { point += ",\(decimal(altitude, places: 2))" }
            coordinates.append(point + "]")
        }
        guard !coordinates.isEmpty else { return nil }
        let id = workoutId.unicodeScalars.map { $0 == "\"" || $0 == "\\" || $0.value < 0x20 ? "_" : String($0) }.joined()
        return "{\"type\":\"Feature\",\"properties\":{\"workoutId\":\"\(id)\",\"activityType\":\"\(activityType.rawValue)\",\"points\":\(coordinates.count)},"
            + "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(coordinates.joined(separator: ","))]}}"
    }

    /// `value / 10^places` written exactly, trailing zeros dropped ("47.5", "-0.0001234").
    public static func decimal(_ value: Int, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let magnitude = value.magnitude
        let whole = magnitude / UInt(scale), fraction = magnitude % UInt(scale)
        var text = "\(value < 0 ? "-" : "")\(whole)"
        if fraction > 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: places - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text
    }
}
