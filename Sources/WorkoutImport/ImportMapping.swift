public import EventLog
public import Foundation
public import Logbook
public import WorkoutFiles

/// Turns what a workout file holds (``ParsedWorkout``, ``ParsedStepSample``) into Logbook's commands:
/// units rounded to the events' integers, implausible device values dropped, times given the
/// user's offset where the file states none, and ids derived from the content so that the same
/// file sent again names the same workout and the same step events (a no-op).
public struct ImportMapping: Sendable {
    /// The user the workouts and steps are recorded for.
    public var user: String
    /// The user's time zone: the offset of a time the file gives without one (GPX and TCX `Z` times,
    /// Strava's UTC dates), so a workout counts on the user's local day.
    public var timeZone: TimeZone

    public init(user: String, timeZone: TimeZone) {
        self.user = user
        self.timeZone = timeZone
    }

    /// A file's time as a Logbook timestamp: its own offset when it states one, else the user's.
    public func timestamp(_ time: FileTimestamp) -> Timestamp {
        let offset = time.offsetKnown
            ? time.utcOffsetSeconds
            : Int32(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(time.microsecondsSinceEpoch / 1_000_000))))
        return Timestamp(microsecondsSinceEpoch: time.microsecondsSinceEpoch, utcOffsetSeconds: offset)
    }

    /// The workout id of an import: the same for the same user, source kind and source id.
    public func workoutId(kind: WorkoutSourceKind, sourceId: String) -> String {
        WorkoutImported.derivedWorkoutId(user: user, kind: kind, sourceId: sourceId)
    }

    /// The source id as stored: the file's own when it is text Logbook keeps (no control
    /// characters, not blank, at most 256 bytes), else a digest of it.
    static func storedSourceId(_ sourceId: String) -> String {
        let keepable = sourceId.utf8.count <= 256 && !sourceId.trimmingCharacters(in: .whitespaces).isEmpty
            && !sourceId.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        return keepable ? sourceId : "sha256:" + DerivedIds.hex([sourceId])
    }

    /// A parsed item as what Logbook records: a workout's import with its track, or the step samples kept.
    public enum Item: Sendable, Hashable {
        case workout(WorkoutImported, track: TrackSamples?)
        case steps([StepSample])
    }

    /// `event` mapped once: the import of its workout, or its step samples (counting in `skipped`
    /// the samples left out, by reason).
    public func item(_ event: WorkoutFileEvent, skipped: inout [String: Int]) -> Item {
        switch event {
        case .workout(let parsed):
            let (imported, track) = workout(parsed)
            return .workout(imported, track: track)
        case .stepSamples(let batch):
            return .steps(steps(batch, skipped: &skipped))
        }
    }

    /// The import command of `workout`, with its track when the file has one.
    public func command(_ workout: ParsedWorkout) -> Command {
        let (imported, track) = self.workout(workout)
        return .importWorkout(user: user, imported, track: track)
    }

    /// The import of `workout` and its track (nil when the file has none).
    func workout(_ workout: ParsedWorkout) -> (WorkoutImported, TrackSamples?) {
        let kind = WorkoutSourceKind(rawValue: workout.sourceKind) ?? .file
        let sourceId = Self.storedSourceId(workout.sourceId)
        let startedAt = timestamp(workout.startedAt)
        var endedAt = timestamp(workout.endedAt)
        if endedAt.instant <= startedAt.instant {
            // A workout ends after it starts; a file with a zero-length workout gets one second.
            endedAt = Timestamp(microsecondsSinceEpoch: startedAt.instant + 1_000_000, utcOffsetSeconds: endedAt.utcOffsetSeconds)
        }
        let imported = WorkoutImported(
            workoutId: workoutId(kind: kind, sourceId: sourceId),
            activityType: ActivityType(rawValue: workout.activityType) ?? .other,
            startedAt: startedAt, endedAt: endedAt,
            distanceMeters: Self.count(workout.distanceMeters, "distanceMeters") ?? 0,
            movingSeconds: Self.count(workout.movingSeconds ?? workout.elapsedSeconds, "movingSeconds") ?? 0,
            activeKcal: Self.count(workout.activeKcal.map(Double.init), "activeKcal"),
            avgHeartRate: Self.heartRate(workout.avgHeartRate),
            // Logbook keeps at most 10,000 laps a workout; a file with more keeps its totals and track.
            laps: workout.laps.isEmpty || workout.laps.count > 10_000 ? nil : workout.laps.map(lap),
            source: WorkoutSource(kind: kind, sourceId: sourceId),
            title: workout.title.map { String($0.prefix(200)) }.flatMap { Self.cleanText($0) },
            elapsedSeconds: Self.count(workout.elapsedSeconds, "elapsedSeconds"),
            maxHeartRate: Self.heartRate(workout.maxHeartRate))
        return (imported, track(workout.track, from: workout.startedAt))
    }

    private func lap(_ lap: ParsedLap) -> Lap {
        Lap(distanceMeters: Self.count(lap.distanceMeters, "distanceMeters") ?? 0,
            movingSeconds: Self.count(lap.movingSeconds ?? lap.elapsedSeconds, "movingSeconds") ?? 0,
            startedAt: timestamp(lap.start), elapsedSeconds: Self.count(lap.elapsedSeconds, "elapsedSeconds"),
            activeKcal: Self.count(lap.activeKcal.map(Double.init), "activeKcal"), avgHeartRate: Self.heartRate(lap.avgHeartRate),
            maxHeartRate: Self.heartRate(lap.maxHeartRate))
    }

    /// The track as integer columns; values a device cannot record (sentinels, glitches) become null,
    /// a point earlier than the one before it loses its time. Nil without points.
    public func track(_ points: [TrackPoint], from start: FileTimestamp) -> TrackSamples? {
        guard !points.isEmpty else { return nil }
        let count = min(points.count, 500_000)
        var samples = TrackSamples(points: count)
        func column(_ column: TrackSamples.Column, _ value: (TrackPoint) -> Double?) {
            var values: [Int?] = []
            values.reserveCapacity(count)
            var any = false
            for point in points.prefix(count) {
                let number = value(point).flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0.rounded()) : nil }
                let kept = number.flatMap { column.plausible.contains($0) ? $0 : nil }
                any = any || kept != nil
                values.append(kept)
            }
            if any { samples[column] = values }
        }
        column(.offsetMillis) { point in point.time.map { $0.seconds(since: start) * 1000 } }
        column(.latitudeE7) { point in point.latitude.flatMap { point.longitude == nil ? nil : $0 * 1e7 } }
        column(.longitudeE7) { point in point.longitude.flatMap { point.latitude == nil ? nil : $0 * 1e7 } }
        column(.altitudeCentimeters) { $0.altitudeMeters.map { $0 * 100 } }
        column(.distanceCentimeters) { $0.distanceMeters.map { $0 * 100 } }
        column(.heartRate) { $0.heartRate.map(Double.init) }
        column(.cadence) { $0.cadence.map(Double.init) }
        column(.speedMillimetersPerSecond) { $0.speedMetersPerSecond.map { $0 * 1000 } }
        column(.powerWatts) { $0.powerWatts.map(Double.init) }
        // A track with no value a device can record in any column is no track.
        guard TrackSamples.Column.allCases.contains(where: { samples[$0] != nil }) else { return nil }
        if var offsets = samples.offsetMillis {
            var latest = Int.min
            for index in offsets.indices {
                guard let value = offsets[index] else { continue }
                if value < latest { offsets[index] = nil } else { latest = value }
            }
            samples.offsetMillis = offsets
        }
        return samples
    }

    /// Step samples as Logbook's, and why any was left out (an empty or backwards interval, an
    /// impossible count, a source name that is not text Logbook keeps).
    public func steps(_ samples: [ParsedStepSample], skipped: inout [String: Int]) -> [StepSample] {
        var kept: [StepSample] = []
        kept.reserveCapacity(samples.count)
        for sample in samples {
            let start = timestamp(sample.start)
            var end = timestamp(sample.end)
            if end.instant == start.instant {
                // Apple Health keeps instantaneous records (start = end); Logbook's samples last: one second.
                end = Timestamp(microsecondsSinceEpoch: start.instant + 1_000_000, utcOffsetSeconds: end.utcOffsetSeconds)
            }
            if end.instant < start.instant {
                skipped["step sample that ends before it starts", default: 0] += 1
            } else if sample.count <= 0 || sample.count > 100_000 {
                skipped[sample.count <= 0 ? "step sample of no steps" : "step sample of more than 100,000 steps", default: 0] += 1
            } else if let source = Self.sourceName(sample.source) {
                kept.append(StepSample(start: start, end: end, count: sample.count, source: source))
            } else {
                skipped["step sample without a source name", default: 0] += 1
            }
        }
        return kept
    }

    /// The event id of a batch of step samples: the same samples for the same user give the same
    /// id, so sending the file again is a retry that writes nothing. Instants only, not offsets
    /// (the DomainRules article: two offsets naming one instant are one instant), so a file whose
    /// times lack an offset gives the same id after the user changes time zone.
    public func stepsEventId(_ samples: [StepSample]) -> UUID {
        var parts = ["steps", user]
        for sample in samples {
            parts.append("\(sample.source)|\(sample.start.instant)|\(sample.end.instant)|\(sample.count)")
        }
        return DerivedIds.uuid(parts)
    }

    /// A non-negative whole number from a measured value, within the domain's limit for `field`
    /// (`Rules.quantityLimits`: a stray timestamp that makes a GPX track last 20 years, a CSV's
    /// absurd elapsed time): nil for none or nonsense, so one implausible value costs the file
    /// that value, never the import.
    static func count(_ value: Double?, _ field: String) -> Int? {
        guard let value, value.isFinite, value >= 0, value < 1e12 else { return nil }
        let whole = Int(value.rounded())
        return whole <= Rules.quantityLimits[field] ?? Int.max ? whole : nil
    }

    static func heartRate(_ value: Int?) -> Int? {
        guard let value, (1...300).contains(value) else { return nil }
        return value
    }

    /// A step source's name as the rules take it: without control characters, in NFC (sources
    /// are compared as bytes), at most 64 Unicode scalars (nil if nothing is left).
    static func sourceName(_ text: String) -> String? {
        guard let cleaned = cleanText(text) else { return nil }
        var name = String.UnicodeScalarView(cleaned.inNormalizationFormC.unicodeScalars.prefix(64))
        // Cut after normalizing, the text stays NFC in every case met so far; this makes sure.
        while !String(name).isInNormalizationFormC { name.removeLast() }
        let result = String(name)
        return result.trimmingCharacters(in: .whitespaces).isEmpty ? nil : result
    }

    /// Text without control characters other than tab and newline (Logbook refuses them), nil when empty.
    static func cleanText(_ text: String) -> String? {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\n" || $0 == "\t" }))
        return cleaned.trimmingCharacters(in: .whitespaces).isEmpty ? nil : cleaned
    }
}
