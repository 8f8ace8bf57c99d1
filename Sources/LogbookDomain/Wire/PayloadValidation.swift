/// Checks of a decoded payload that its fields' types cannot state, named by the declarations
/// (`jsonValidate`) and run by the generated JSON readers.
enum PayloadValidation {
    /// A track part: `parts` in 1 ... the domain's largest track, `part` in 0 ..< `parts`.
    static func trackRecorded(_ track: WorkoutTrackRecorded, _ r: JSONReader) throws(JSONReadError) {
        for (field, value, range) in [("parts", track.parts, 1...Rules.maxTrackPoints), ("part", track.part, 0...(max(track.parts, 1) - 1))]
            where !range.contains(value) {
            var error = r.invalid("\(value) is outside \(range.lowerBound)…\(range.upperBound)")
            error.field = field
            throw error
        }
    }
}
