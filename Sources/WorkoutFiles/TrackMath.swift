import Sodium
import Foundation

/// Distance and time figures derived from track points (GPX, TCX and Apple routes).
///
/// Distance is the sum of great-circle distances between consecutive points of a segment,
/// by the haversine formula on a sphere of the mean Earth radius 6,371,008.8 m (IUGG R1).
/// Moving time is the sum of the intervals between consecutive timed, positioned points of a
/// segment whose average speed is at least `movingSpeedThreshold` = 0.5 m/s (1.8 km/h,
/// below walking pace, above GPS drift at rest).
public enum TrackMath {
    /// Mean Earth radius in metres (IUGG).
    public static let earthRadiusMeters = 6_371_008.8
    /// Minimum interval speed counted as moving, m/s.
    public static let movingSpeedThreshold = 0.5

    /// Great-circle distance in metres between two WGS84 positions (haversine).
    public static func haversineMeters(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let s1 = sin(dLat / 2), s2 = sin(dLon / 2)
        let a = s1 * s1 + cos(lat1 * radians) * cos(lat2 * radians) * s2 * s2
        return 2 * earthRadiusMeters * asin(min(1, sqrt(max(0, a))))
    }

    /// Totals over segments of points.
    struct Totals {
        var distance: Double?
        var moving: Double?
        var first: FileTimestamp?
        var last: FileTimestamp?
        var avgHeartRate: Int?
        var maxHeartRate: Int?
    }

    /// Computes distance, moving time, time span and heart-rate figures.
    static func totals(segments: [[TrackPoint]], useRecordedDistance: Bool = false) -> Totals {
        var totals = Totals()
        var distance = 0.0, moving = 0.0
        var hasDistance = false, hasMoving = false
        var heartSum = 0, heartCount = 0, heartMax = 0
        for segment in segments {
            var previous: TrackPoint?
            for point in segment {
                if let time = point.time {
                    if totals.first == nil || time < totals.first! { totals.first = time }
                    if totals.last == nil || time > totals.last! { totals.last = time }
                }
                if let rate = point.heartRate, rate > 0 {
                    heartSum += rate; heartCount += 1; heartMax = max(heartMax, rate)
                }
                defer { previous = point }
                guard let before = previous else { continue }
                var step: Double?
                if useRecordedDistance, let d0 = before.distanceMeters, let d1 = point.distanceMeters {
                    step = max(0, d1 - d0)
                } else if let lat0 = before.latitude, let lon0 = before.longitude,
                          let lat1 = point.latitude, let lon1 = point.longitude {
                    step = haversineMeters(lat1: lat0, lon1: lon0, lat2: lat1, lon2: lon1)
                }
                guard let step, step.isFinite else { continue }
                distance += step
                hasDistance = true
                if let t0 = before.time, let t1 = point.time {
                    let seconds = t1.seconds(since: t0)
                    hasMoving = true
                    if seconds > 0, step / seconds >= movingSpeedThreshold { moving += seconds }
                }
            }
        }
        totals.distance = hasDistance ? distance : nil
        totals.moving = hasMoving ? moving : nil
        if heartCount > 0 {
            totals.avgHeartRate = Int((Double(heartSum) / Double(heartCount)).rounded())
            totals.maxHeartRate = heartMax
        }
        return totals
    }
}

/// A `ByteSource` that feeds everything it reads into SHA-256 (content-derived ids), by libsodium.
final class HashingByteSource: ByteSource {
    private let base: any ByteSource
    @exclusivity(unchecked) private var hasher: SHA256Hasher

    init(_ base: any ByteSource, fileName: String) throws {
        self.base = base
        do {
            hasher = try SHA256Hasher()
        } catch {
            throw WorkoutFileError(code: .io, fileName: fileName, message: "cannot hash the file: \(error)")
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        if count > 0 { hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
        return count
    }

    /// Drains the rest of the input and returns the first 32 hex digits (128 bits) of the digest.
    func finish() throws -> String {
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        while try scratch.withUnsafeMutableBytes({ try read(into: $0) }) > 0 {}
        let hex = hasher.finalize().lazy.map { byte in String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16) }.joined()
        return String(hex.prefix(32))
    }
}
