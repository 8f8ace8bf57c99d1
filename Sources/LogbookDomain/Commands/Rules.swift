package import EventLog
package import Foundation

/// The field-level rules of the DomainRules article and the limits on ids and texts.
package enum Rules {
    static func id(_ value: String, _ name: String) throws(LogbookError) {
        if let reason = IdRule.violation(value) { throw .invalidArgument(name: name, reason: reason) }
    }

    static func text(_ value: String, _ name: String, required: Bool = false, limit: Int = 200) throws(LogbookError) {
        if required, value.trimmingCharacters(in: .whitespaces).isEmpty { throw .invalidArgument(name: name, reason: "must not be empty") }
        // Counted in Unicode scalars, as JSON Schema's maxLength counts (the documented limit is exact).
        guard value.unicodeScalars.count <= limit else { throw .ruleViolation(rule: .textTooLong, message: "\(name) is longer than \(limit) characters") }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }) else {
            throw .invalidArgument(name: name, reason: "must not contain control characters")
        }
    }

    /// A step source's name (a sample's `source`, a profile's preferred step source): text of 1 to
    /// 64 characters in Unicode Normalization Form C. Sources key the day's steps and are compared
    /// as bytes, so a source sent once composed and once decomposed would otherwise be two sources
    /// to the stored records and one to a `String` comparison.
    static func stepSource(_ value: String, _ name: String) throws(LogbookError) {
        try text(value, name, required: true, limit: 64)
        guard value.isInNormalizationFormC else { throw .invalidArgument(name: name, reason: AppendLimits.notNFC) }
    }

    /// The named IANA time zone.
    package static func timeZone(_ identifier: String) throws(LogbookError) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else {
            throw .ruleViolation(rule: .invalidTimeZone, message: "\"\(identifier)\" is not an IANA time zone")
        }
        return zone
    }

    /// `now` written in the offset `zone` has at that instant.
    package static func local(_ now: Timestamp, _ zone: TimeZone) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: now.instant, utcOffsetSeconds: Int32(zone.secondsFromGMT(for: now.date)))
    }

    /// `now` written with a given offset.
    package static func local(_ now: Timestamp, _ offset: Int32) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: now.instant, utcOffsetSeconds: offset)
    }

    /// The most a workout or a lap may claim, far beyond any real one (100,000 km, 400 days,
    /// 10 million kcal, 300 bpm), so no sum of them in a read model can overflow. The event
    /// declarations give the published schemas and the NDJSON import's reader the same `max` (an
    /// imported line over one is refused by its field); a command over one, from a request body or
    /// a workout built in Swift, is refused by this rule. File imports drop such a value first.
    package static let quantityLimits: [String: Int] = [
        "distanceMeters": 100_000_000, "movingSeconds": 34_560_000, "elapsedSeconds": 34_560_000, "steps": 100_000_000,
        "activeKcal": 10_000_000, "avgHeartRate": 300, "maxHeartRate": 300,
    ]

    /// A workout's totals and laps: each quantity 0 … its ``quantityLimits`` entry, at most 10,000 laps.
    static func totals(
        distance: Int, moving: Int, steps: Int?, kcal: Int?, heartRate: Int?, laps: [Lap]?, elapsed: Int? = nil, maxHeartRate: Int? = nil
    ) throws(LogbookError) {
        try quantities([("distanceMeters", distance), ("movingSeconds", moving), ("steps", steps), ("activeKcal", kcal),
                        ("avgHeartRate", heartRate), ("elapsedSeconds", elapsed), ("maxHeartRate", maxHeartRate)], of: nil)
        guard (laps ?? []).count <= 10_000 else {
            throw .ruleViolation(rule: .nonNegativeQuantity, message: "a workout holds at most 10,000 laps (got \(laps?.count ?? 0))")
        }
        for (index, lap) in (laps ?? []).enumerated() {
            try quantities([("distanceMeters", lap.distanceMeters), ("movingSeconds", lap.movingSeconds), ("elapsedSeconds", lap.elapsedSeconds),
                            ("activeKcal", lap.activeKcal), ("avgHeartRate", lap.avgHeartRate), ("maxHeartRate", lap.maxHeartRate)],
                           of: "lap \(index)")
        }
    }

    /// Each present quantity within 0 … its limit; the error names it (and its lap).
    private static func quantities(_ values: [(String, Int?)], of part: String?) throws(LogbookError) {
        for (name, value) in values {
            guard let value else { continue }
            let limit = quantityLimits[name] ?? Int.max
            let place = part.map { "\($0): " } ?? ""
            guard value >= 0 else {
                throw .ruleViolation(rule: .nonNegativeQuantity, message: "\(place)\(name) must not be negative (got \(value))")
            }
            guard value <= limit else {
                throw .ruleViolation(rule: .quantityTooLarge, message: "\(place)\(name) must be at most \(limit) (got \(value))")
            }
        }
    }

    /// Most points one workout's track may have (a day at one point a second is 86,400), whether
    /// it arrives whole or live in pieces.
    static let maxTrackPoints = 500_000

    /// Most pauses one recorded workout may have: each is kept with the workout.
    static let maxPausesPerWorkout = 1_000

    /// A recorded track: 1 to ``maxTrackPoints`` points, every column as long as the track, times
    /// that never go backwards, values a device can record (``TrackSamples/Column/plausible``).
    static func track(_ track: TrackSamples) throws(LogbookError) {
        guard (1...maxTrackPoints).contains(track.points) else {
            throw .ruleViolation(rule: .trackInvalid, message: "a track holds 1 to \(maxTrackPoints) points (got \(track.points))")
        }
        guard TrackSamples.Column.allCases.contains(where: { track[$0] != nil }) else {
            throw .ruleViolation(rule: .trackInvalid, message: "a track has at least one column of values")
        }
        for column in TrackSamples.Column.allCases {
            guard let values = track[column] else { continue }
            guard values.count == track.points else {
                throw .ruleViolation(rule: .trackInvalid, message: "track column \(column.name) has \(values.count) entries for \(track.points) points")
            }
            var previous = Int.min
            for (index, value) in values.enumerated() {
                guard let value else { continue }
                guard column.plausible.contains(value) else {
                    throw .ruleViolation(rule: .trackInvalid, message: "track point \(index): \(column.name) \(value) is outside \(column.plausible)")
                }
                if column == .offsetMillis {
                    guard value >= previous else {
                        throw .ruleViolation(rule: .trackInvalid, message: "track point \(index) is earlier than the point before it")
                    }
                    previous = value
                }
            }
        }
    }

    static func samples(_ samples: [StepSample]) throws(LogbookError) {
        guard !samples.isEmpty, samples.count <= 10_000 else {
            throw .ruleViolation(rule: .stepSampleInvalid, message: "a batch holds 1 to 10,000 samples (got \(samples.count))")
        }
        for (index, sample) in samples.enumerated() {
            guard sample.count >= 0 else {
                throw .ruleViolation(rule: .nonNegativeQuantity, message: "sample \(index) has a negative count (\(sample.count))")
            }
            guard sample.end.instant > sample.start.instant else {
                throw .ruleViolation(rule: .endsAfterStart, message: "sample \(index) ends before it starts")
            }
            guard sample.count <= 100_000 else {
                throw .ruleViolation(rule: .stepSampleInvalid, message: "sample \(index) claims \(sample.count) steps")
            }
            // Sources repeat: check each one once.
            if index == 0 || !sample.source.hasSameBytes(as: samples[index - 1].source) {
                try stepSource(sample.source, "samples[\(index)].source")
            }
        }
    }

    static func goal(steps: Int, minutes: Int?) throws(LogbookError) {
        guard (1...100_000).contains(steps) else {
            throw .ruleViolation(rule: .goalStepsRange, message: "a step goal is 1 to 100,000 steps (got \(steps))")
        }
        if let minutes, !(0...1440).contains(minutes) {
            throw .ruleViolation(rule: .goalMinutesRange, message: "an active-minutes goal is 0 to 1,440 minutes (got \(minutes))")
        }
    }

    static func place(_ place: PlaceAdded) throws(LogbookError) {
        try id(place.placeId, "placeId")
        try placeFields(name: place.name, subcategory: place.subcategory, latitude: place.latitude, longitude: place.longitude,
                        priceLevel: place.priceLevel, texts: [("address", place.address), ("phone", place.phone), ("notes", place.notes)])
    }

    /// A catalog place's fields, each checked when given (a new place gives all its required
    /// ones; an edit only those it changes): name and subcategory present and within their
    /// limits, coordinates on the globe, price level 1–4, texts of at most 1,000 characters.
    static func placeFields(
        name: String?, subcategory: String?, latitude: Double?, longitude: Double?, priceLevel: Int?, texts: [(String, String?)]
    ) throws(LogbookError) {
        if let name { try text(name, "name", required: true) }
        if let subcategory { try text(subcategory, "subcategory", required: true, limit: 64) }
        guard latitude.map({ (-90...90).contains($0) }) ?? true, longitude.map({ (-180...180).contains($0) }) ?? true else {
            throw .ruleViolation(rule: .placeInvalid, message: "latitude must be within ±90 and longitude within ±180")
        }
        if let level = priceLevel, !(1...4).contains(level) {
            throw .ruleViolation(rule: .placeInvalid, message: "priceLevel is 1 to 4 (got \(level))")
        }
        for (name, value) in texts {
            if let value { try text(value, name, limit: 1000) }
        }
    }
}
