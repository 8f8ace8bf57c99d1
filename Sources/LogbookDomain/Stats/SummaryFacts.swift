import BinaryCoding
import EventLog

/// What the stats summary sums of one listed workout, kept as the value of its entry in the
/// user's list of counted workouts: the record's numbers and its track's climb and mean heart
/// rate, as they stand. A summary over years then reads the list alone, a few bytes a workout,
/// where it read each workout's whole record and track summary.
///
/// The fold keeps them as the record and the track summary hold them, and refreshes them whenever
/// either changes while the workout is listed; they are checked when summed
/// (``SummaryWorkout/init(id:startInstant:_:)``), as the record's own numbers were.
struct SummaryFacts: TableValue, Equatable {
    /// The local date the workout started on (days since 1970), in the start's own offset.
    var day: Int32
    var type: ActivityType
    var distanceMeters: Int
    var movingSeconds: Int
    /// The source's elapsed time, when it gave one.
    var elapsedSeconds: Int?
    /// When the workout ended (microseconds since 1970), when known.
    var endedAt: Int64?
    var activeKcal: Int?
    /// The source's average heart rate, when it gave one.
    var avgHeartRate: Int?
    /// The track's climb, rounded (nil without altitudes).
    var climbGainMeters: Int?
    /// The mean of the track's heart rates (nil without any).
    var trackMeanHeartRate: Int?

    init(_ record: ActivityRecord, track: TrackSummary?) {
        day = record.startedAt.localDay
        type = record.activityType
        distanceMeters = record.distanceMeters
        movingSeconds = record.movingSeconds
        elapsedSeconds = record.elapsedSeconds
        endedAt = record.endedAt?.instant
        activeKcal = record.activeKcal
        avgHeartRate = record.avgHeartRate
        climbGainMeters = track?.climb.gainMeters
        trackMeanHeartRate = track?.meanHeartRate
    }

    /// The local date the workout started on.
    var date: CivilDate { CivilDate(daysSinceEpoch: Int(day)) }

    func encode(into w: inout ByteWriter) {
        w.date(date); w.enumeration(type); w.int(distanceMeters); w.int(movingSeconds)
        w.optionalInt(elapsedSeconds); w.optionalInt(endedAt.map { Int($0) }); w.optionalInt(activeKcal)
        w.optionalInt(avgHeartRate); w.optionalInt(climbGainMeters); w.optionalInt(trackMeanHeartRate)
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        day = Int32(try FieldReader.date(s, &o).daysSinceEpoch)
        type = try FieldReader.enumeration(s, &o, ActivityType.self)
        distanceMeters = try FieldReader.int(s, &o)
        movingSeconds = try FieldReader.int(s, &o)
        elapsedSeconds = try FieldReader.optionalInt(s, &o)
        endedAt = try FieldReader.optionalInt(s, &o).map { Int64($0) }
        activeKcal = try FieldReader.optionalInt(s, &o)
        avgHeartRate = try FieldReader.optionalInt(s, &o)
        climbGainMeters = try FieldReader.optionalInt(s, &o)
        trackMeanHeartRate = try FieldReader.optionalInt(s, &o)
        guard o == s.count else { throw DecodeFailure(reason: "\(s.count - o) bytes after a listed workout's facts") }
    }
}

/// The value of an entry in a user's list of counted workouts: the workout's ``SummaryFacts``,
/// or none in an entry that a code version from before they were kept wrote (its value is
/// empty). Queries over such tables, while an upgrade builds their successors, read the facts
/// from the workout's record and track summary instead (``facts(of:_:_:)``).
struct ListedWorkout: TableValue, Equatable {
    var facts: SummaryFacts?

    init(_ facts: SummaryFacts?) { self.facts = facts }

    func encode(into w: inout ByteWriter) { facts?.encode(into: &w) }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        facts = s.isEmpty ? nil : try SummaryFacts(decoding: s)
    }
}

extension ActivitiesReadModel {
    /// The facts of the listed workout `key`, from its entry's value `listed`, or — for an entry
    /// that holds none — from its record and track summary (nil if the record is missing).
    mutating func facts(of key: ActivityListKey, _ listed: ListedWorkout, _ txn: (any TableReader)?) throws -> SummaryFacts? {
        if let facts = listed.facts { return facts }
        guard let record = try workouts.get(WorkoutKey(key.workoutId), txn) else { return nil }
        return try facts(of: record, txn)
    }

    /// The facts `record` and its track summary make (a workout without track parts has none to read).
    mutating func facts(of record: ActivityRecord, _ txn: (any TableReader)?) throws -> SummaryFacts {
        SummaryFacts(record, track: record.trackParts > 0 ? try trackSummaries.get(WorkoutKey(record.workoutId), txn) : nil)
    }
}
