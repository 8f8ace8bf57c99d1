import BinaryCoding
import EventLog

/// The compact storage form of track samples (`workout.track_recorded`): the point count, a
/// bit mask of the columns present, then per column a presence bitmap (one bit per point) and
/// its present values as deltas from the previous present value (zigzag varints, wrapping
/// arithmetic, so any integer round-trips). A 1 Hz track of position, altitude, distance, heart
/// rate and cadence takes about nine bytes a point.
enum TrackSampleCoding {
    static func encode(_ samples: TrackSamples, into w: inout ByteWriter) {
        w.varint(UInt64(samples.points))
        var mask: UInt64 = 0
        for column in TrackSamples.Column.allCases where samples[column] != nil { mask |= 1 << UInt64(column.rawValue) }
        w.varint(mask)
        for column in TrackSamples.Column.allCases {
            guard let values = samples[column] else { continue }
            var bits = [UInt8](repeating: 0, count: (samples.points + 7) / 8)
            for index in 0..<samples.points where index < values.count && values[index] != nil {
                bits[index >> 3] |= 1 << UInt8(index & 7)
            }
            w.append(bits)
            var previous = 0
            for index in 0..<min(samples.points, values.count) {
                guard let value = values[index] else { continue }
                w.signedVarint(Int64(value &- previous))
                previous = value
            }
        }
    }

    static func decode(_ s: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> TrackSamples {
        let points = try ByteReader.int(s, &o)
        guard points <= s.count * 8 else { throw DecodeFailure(reason: "\(points) track points") }
        let mask = try ByteReader.varint(s, &o)
        guard mask >> UInt64(TrackSamples.Column.allCases.count) == 0 else { throw DecodeFailure(reason: "unknown track columns") }
        // Points without a column (which the domain never records) would be bounded only by the
        // bytes around them, so their own, shorter encoding could fail the bound above.
        guard mask != 0 || points == 0 else { throw DecodeFailure(reason: "\(points) track points without a column") }
        var samples = TrackSamples(points: points)
        for column in TrackSamples.Column.allCases where mask & (1 << UInt64(column.rawValue)) != 0 {
            let bitmapBytes = (points + 7) / 8
            guard o + bitmapBytes <= s.count else { throw DecodeFailure(reason: "track bitmap past the end") }
            let bitmapStart = o
            o += bitmapBytes
            var values: [Int?] = []
            values.reserveCapacity(points)
            var previous = 0
            for index in 0..<points {
                if s[bitmapStart + index >> 3] & (1 << UInt8(index & 7)) == 0 {
                    values.append(nil)
                } else {
                    previous = previous &+ Int(try ByteReader.signedVarint(s, &o))
                    values.append(previous)
                }
            }
            samples[column] = values
        }
        return samples
    }
}
