import BinaryCoding
public import EventLog

/// Where a workout is in its life.
public enum WorkoutStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case running, paused, finished, discarded, deleted

    /// Running or paused: the user's active workout.
    public var isActive: Bool { self == .running || self == .paused }
    /// Finished (or imported) and not deleted: it counts in every read model.
    public var counts: Bool { self == .finished }
}

/// Another recording of the same activity: its workout and where it came from.
public struct RecordedBy: Sendable, Hashable, Codable {
    public var workoutId: String
    public var source: WorkoutSource

    public init(workoutId: String, source: WorkoutSource) {
        self.workoutId = workoutId
        self.source = source
    }
}

/// Everything known about one workout.
public struct ActivityRecord: Sendable, Hashable, Codable {
    public var workoutId: String
    public var user: String
    public var activityType: ActivityType
    public var status: WorkoutStatus
    public var startedAt: Timestamp
    public var endedAt: Timestamp?
    public var source: WorkoutSource
    public var distanceMeters: Int = 0
    public var movingSeconds: Int = 0
    public var steps: Int?
    public var activeKcal: Int?
    public var avgHeartRate: Int?
    public var laps: [Lap]?
    public var title: String?
    public var notes: String?
    /// The position of the event that made it count (finished or imported), 0 if it does not.
    public var countedPosition: UInt64 = 0
    /// Wall-clock length, pauses included, when the source gave it.
    public var elapsedSeconds: Int?
    /// Highest heart rate, when the source gave it.
    public var maxHeartRate: Int?
    /// Parts of the recorded track received so far (`workout.track_recorded`).
    public var trackParts: Int = 0
    /// Points of the recorded track received so far.
    public var trackPoints: Int = 0
    /// For the primary of a group of the same activity: the other recordings, in log
    /// order. Filled when read (not stored with the record); nil when the workout is alone.
    public var alsoRecordedBy: [RecordedBy]?
    /// For a recording that is not its group's primary: the primary, the workout that counts.
    /// Filled when read; nil for a primary or a workout that does not count.
    public var primaryWorkoutId: String?
    /// The local date it started on (and counts on), in the start's own offset.
    public var date: CivilDate { startedAt.localDate }
    /// Seconds per kilometre (nil without distance).
    public var paceSecondsPerKm: Double? {
        distanceMeters > 0 ? Double(movingSeconds) / (Double(distanceMeters) / 1000) : nil
    }
}

extension ActivityRecord: TableValue {
    func encode(into w: inout ByteWriter) {
        w.string(workoutId); w.string(user); w.enumeration(activityType); w.enumeration(status); w.timestamp(startedAt)
        if let endedAt { w.byte(1); w.timestamp(endedAt) } else { w.byte(0) }
        w.enumeration(source.kind); w.optionalString(source.sourceId)
        w.int(distanceMeters); w.int(movingSeconds); w.optionalInt(steps); w.optionalInt(activeKcal); w.optionalInt(avgHeartRate)
        BinaryEventCodec.writeLaps(laps, &w, version: 2)
        w.optionalString(title); w.optionalString(notes); w.varint(countedPosition)
        w.optionalInt(elapsedSeconds); w.optionalInt(maxHeartRate); w.int(trackParts); w.int(trackPoints)
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        workoutId = try ByteReader.string(s, &o)
        user = try ByteReader.string(s, &o)
        activityType = try FieldReader.enumeration(s, &o, ActivityType.self)
        status = try FieldReader.enumeration(s, &o, WorkoutStatus.self)
        startedAt = try FieldReader.timestamp(s, &o)
        endedAt = try ByteReader.byte(s, &o) == 0 ? nil : try FieldReader.timestamp(s, &o)
        source = WorkoutSource(kind: try FieldReader.enumeration(s, &o, SourceKind.self), sourceId: try FieldReader.optionalString(s, &o))
        distanceMeters = try FieldReader.int(s, &o)
        movingSeconds = try FieldReader.int(s, &o)
        steps = try FieldReader.optionalInt(s, &o)
        activeKcal = try FieldReader.optionalInt(s, &o)
        avgHeartRate = try FieldReader.optionalInt(s, &o)
        laps = try BinaryEventCodec.readLaps(s, &o, version: 2)
        title = try FieldReader.optionalString(s, &o)
        notes = try FieldReader.optionalString(s, &o)
        countedPosition = try ByteReader.varint(s, &o)
        elapsedSeconds = try FieldReader.optionalInt(s, &o)
        maxHeartRate = try FieldReader.optionalInt(s, &o)
        trackParts = try FieldReader.int(s, &o)
        trackPoints = try FieldReader.int(s, &o)
    }
}

/// Key of a user's list of counted workouts: newest start first, then workout id.
struct ActivityListKey: TableKey {
    let user: String
    let startInstant: Int64
    let workoutId: String
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyInt(-startInstant); w.keyString(workoutId) }
    init(_ user: String, _ startInstant: Int64, _ workoutId: String) {
        self.user = user
        self.startInstant = startInstant
        self.workoutId = workoutId
    }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        // Stored negated (newest first); no start negates to Int64.min, whose negation would trap.
        let negated = try KeyReader.int(s, &o)
        guard negated != .min else { throw DecodeFailure(reason: "a workout start out of range in a list key") }
        startInstant = -negated
        workoutId = try KeyReader.string(s, &o)
    }
    static func < (a: ActivityListKey, b: ActivityListKey) -> Bool {
        if a.user != b.user { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        if a.startInstant != b.startInstant { return a.startInstant > b.startInstant }
        return a.workoutId.utf8.lexicographicallyPrecedes(b.workoutId.utf8)
    }
}

/// Key of one part of a workout's recorded track.
struct TrackPartKey: TableKey {
    let workoutId: String
    let part: Int
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.workoutPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(workoutId); w.keyInt(Int64(part)) }
    init(_ workoutId: String, _ part: Int) { self.workoutId = workoutId; self.part = part }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        workoutId = try KeyReader.string(s, &o)
        part = Int(try KeyReader.int(s, &o))
    }
    static func < (a: TrackPartKey, b: TrackPartKey) -> Bool {
        if a.workoutId != b.workoutId { return a.workoutId.utf8.lexicographicallyPrecedes(b.workoutId.utf8) }
        return a.part < b.part
    }
}

/// One part of a recorded track, in the storage form of its event.
struct TrackPartValue: TableValue {
    var samples: TrackSamples
    init(_ samples: TrackSamples) { self.samples = samples }
    func encode(into w: inout ByteWriter) { TrackSampleCoding.encode(samples, into: &w) }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        samples = try TrackSampleCoding.decode(s, &o)
        // The samples' bounds are judged against the record's length: nothing may follow them.
        guard o == s.count else { throw DecodeFailure(reason: "\(s.count - o) bytes after the track samples") }
    }
}

/// Key of the import index: a user's workout at an external source.
struct ImportKey: TableKey {
    let user: String
    let kind: SourceKind
    let sourceId: String
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user); w.keyString(kind.rawValue); w.keyString(sourceId) }
    init(_ user: String, _ kind: SourceKind, _ sourceId: String) { self.user = user; self.kind = kind; self.sourceId = sourceId }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
        guard let kind = SourceKind(rawValue: try KeyReader.string(s, &o)) else { throw DecodeFailure(reason: "unknown source kind") }
        self.kind = kind
        sourceId = try KeyReader.string(s, &o)
    }
    static func < (a: ImportKey, b: ImportKey) -> Bool {
        if a.user != b.user { return a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        return a.sourceId.utf8.lexicographicallyPrecedes(b.sourceId.utf8)
    }
}

/// An empty value: the key says everything.
struct Marker: TableValue {
    init() {}
    func encode(into w: inout ByteWriter) {}
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {}
}

/// The pauses of a recorded workout, in order: when each began and, unless it still lasts, when
/// the workout resumed.
struct WorkoutPauses: TableValue, Equatable {
    var pauses: [WorkoutPause] = []

    func encode(into w: inout ByteWriter) {
        w.int(pauses.count)
        for pause in pauses {
            w.timestamp(pause.pausedAt)
            if let resumedAt = pause.resumedAt { w.byte(1); w.timestamp(resumedAt) } else { w.byte(0) }
        }
    }

    init(_ pauses: [WorkoutPause] = []) { self.pauses = pauses }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        let count = try FieldReader.int(s, &o)
        // A pause takes at least three bytes: a larger count is damage, not a reason to reserve memory.
        guard count >= 0, count <= (s.count - o) / 3 else { throw DecodeFailure(reason: "pause count past the end") }
        pauses.reserveCapacity(count)
        for _ in 0..<count {
            let pausedAt = try FieldReader.timestamp(s, &o)
            let resumedAt = try ByteReader.byte(s, &o) == 0 ? nil : try FieldReader.timestamp(s, &o)
            pauses.append(WorkoutPause(pausedAt: pausedAt, resumedAt: resumedAt))
        }
        guard o == s.count else { throw DecodeFailure(reason: "\(s.count - o) bytes after the pauses") }
    }
}

/// What a workout's recorded track adds to its summary, folded as the parts arrive: the climb over
/// the parts received in order from part 0 (a part that arrives early waits in the tracks table
/// until the parts before it are there), and the sum and count of the track's heart rates.
struct TrackSummary: TableValue, Equatable {
    /// The largest part count and heart-rate sum a stored summary may hold.
    static let partLimit = 1 << 32, sumLimit = 1 << 52

    /// Parts folded into ``climb``: parts 0 ..< climbParts.
    var climbParts = 0
    var climb = ElevationClimb()
    var heartRateSum = 0
    var heartRateCount = 0

    init() {}

    /// The mean heart rate of the track's points that carry one, rounded as the activity detail rounds it.
    var meanHeartRate: Int? {
        heartRateCount > 0 ? Int((Double(heartRateSum) / Double(heartRateCount)).rounded()) : nil
    }

    func encode(into w: inout ByteWriter) {
        w.int(climbParts)
        if let reference = climb.reference { w.byte(1); w.double(reference) } else { w.byte(0) }
        w.double(climb.gain); w.double(climb.loss)
        w.int(heartRateSum); w.int(heartRateCount)
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        climbParts = try FieldReader.int(s, &o)
        let reference = try ByteReader.byte(s, &o) == 0 ? nil : try ByteReader.double(s, &o)
        let gain = try ByteReader.double(s, &o), loss = try ByteReader.double(s, &o)
        heartRateSum = try FieldReader.int(s, &o)
        heartRateCount = try FieldReader.int(s, &o)
        guard o == s.count else { throw DecodeFailure(reason: "\(s.count - o) bytes after a track summary") }
        // Bounds far beyond any track the rules admit, so folding on and rounding can never trap.
        let metres = -1e9...1e9
        guard (0...Self.partLimit).contains(climbParts), metres.contains(reference ?? 0), (0...1e12).contains(gain), (0...1e12).contains(loss),
              (0...Self.sumLimit).contains(heartRateSum), (0...Self.sumLimit).contains(heartRateCount)
        else { throw DecodeFailure(reason: "a track summary out of range") }
        climb = ElevationClimb(reference: reference, gain: gain, loss: loss)
    }
}
