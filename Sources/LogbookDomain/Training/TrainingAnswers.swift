public import EventLog

/// One heart-rate zone as the user's current settings draw it: the smallest whole bpm in it
/// (zone 0 starts at 0) and the seconds spent in it.
public struct ZoneTime: Sendable, Hashable, Codable {
    /// 0 (below zone 1) to 5.
    public var zone: Int
    /// The smallest whole heart rate in the zone (bound_k rounded up; 0 for zone 0).
    public var fromBeatsPerMinute: Int
    /// The largest whole heart rate in the zone (nil for zone 5).
    public var toBeatsPerMinute: Int?
    public var seconds: Int
}

/// Time at intensity (the Training article): seconds per zone, easy/moderate/hard and the Edwards load —
/// null when the user has no maximum heart rate — and the time without any heart rate.
public struct TrainingIntensity: Sendable, Hashable, Codable {
    /// Zones 0–5 with their bounds and seconds; nil without a maximum heart rate.
    public var zones: [ZoneTime]?
    /// Moving seconds of workouts with neither track heart rates nor an average.
    public var withoutHeartRateSeconds: Int
    /// Zones 1–2.
    public var easySeconds: Int?
    /// Zone 3.
    public var moderateSeconds: Int?
    /// Zones 4–5.
    public var hardSeconds: Int?
    /// Edwards TRIMP: each workout's floor(Σ seconds in zone k × k / 60), summed.
    public var load: Int?
    /// Some of the time comes from an average heart rate, not a track.
    public var estimated: Bool
}

/// A training target as the user set it.
public struct TrainingTarget: Sendable, Hashable, Codable {
    public var targetId: String
    public var name: String
    public var activityType: ActivityType
    public var distanceMeters: Int
    public var raceDate: CivilDate
    public var goalSeconds: Int?
}

/// The target the user trains towards now (the nearest race on or after today), how far off it
/// is and the time Riegel's formula predicts from the last 42 days.
public struct ActiveTarget: Sendable, Hashable, Codable {
    public var target: TrainingTarget
    public var daysToRace: Int
    /// movingSeconds × (target distance / distance)^1.06 of the best qualifying workout (≥ 3 km,
    /// the target's activity type, in today−42 … today−1); nil without one.
    public var predictedSeconds: Int?
    /// The workout the prediction comes from.
    public var predictedFrom: String?
}

/// A user's targets.
public struct TrainingTargets: Sendable, Hashable, Codable {
    public var user: String
    /// The user's today the active target is chosen by.
    public var today: CivilDate
    /// Every target, by race date, then id (bytes).
    public var targets: [TrainingTarget]
    public var active: ActiveTarget?
}

/// What became of a planned workout: done fully, in part, missed, or still ahead.
public enum PlannedStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case completed, partial, missed, upcoming
}

/// A planned workout with its status and the workout that matched it.
public struct PlannedWorkoutStatus: Sendable, Hashable, Codable {
    public var plannedId: String
    public var date: CivilDate
    public var activityType: ActivityType
    public var kind: PlannedKind
    public var distanceMeters: Int?
    public var durationSeconds: Int?
    public var notes: String?
    public var status: PlannedStatus
    /// The counted workout matched to it (completed and partial).
    public var workoutId: String?
}

/// A counted workout no planned workout took.
public struct ExtraWorkout: Sendable, Hashable, Codable {
    public var workoutId: String
    public var date: CivilDate
    public var activityType: ActivityType
    public var distanceMeters: Int
    public var movingSeconds: Int
}

/// The plan from `from` to `to`, each planned workout with its status.
public struct TrainingPlan: Sendable, Hashable, Codable {
    public var user: String
    public var from: CivilDate
    public var to: CivilDate
    public var today: CivilDate
    public var planned: [PlannedWorkoutStatus]
    public var extra: [ExtraWorkout]
}

/// Load, acute and chronic load and their ratio on one day (nil without a maximum heart rate).
public struct TrainingLoadDay: Sendable, Hashable, Codable {
    public var date: CivilDate
    public var load: Int?
    /// The 7 days ending on the day.
    public var acute: Int?
    /// The 28 days ending on the day.
    public var chronic28: Int?
    /// acute × 4 / chronic28, rounded half away from zero to 2 decimals; nil when chronic28 is 0.
    public var acwr: Double?
}

/// Daily load from `from` to `to`, for a chart.
public struct TrainingLoad: Sendable, Hashable, Codable {
    public var user: String
    public var from: CivilDate
    public var to: CivilDate
    public var days: [TrainingLoadDay]
}

/// The weekly summary (the Training article): plan against done, intensity, load and the active target.
public struct TrainingWeek: Sendable, Hashable, Codable {
    public var user: String
    public var from: CivilDate
    public var to: CivilDate
    /// The user's today, by the query's clock in the user's time zone.
    public var today: CivilDate
    public var planned: [PlannedWorkoutStatus]
    public var extra: [ExtraWorkout]
    public var plannedSessions: Int
    public var plannedDistanceMeters: Int
    public var plannedDurationSeconds: Int
    public var doneSessions: Int
    public var doneDistanceMeters: Int
    public var doneMovingSeconds: Int
    public var completed: Int
    public var partial: Int
    public var missed: Int
    public var upcoming: Int
    /// floor(100 × completed / planned sessions); nil with nothing planned.
    public var compliancePercent: Int?
    public var intensity: TrainingIntensity
    /// Load, acute, chronic28 and ACWR as of the week's last day.
    public var load: TrainingLoadDay
    public var target: ActiveTarget?
}

// Optional values the contract calls null (the Training article: "null, not 0") are written as `null`, never
// left out, so a client reads one shape whether or not the user has heart-rate settings. An
// absent object (no active target) is left out, as generated clients read an optional object.

extension TrainingIntensity {
    enum CodingKeys: String, CodingKey { case zones, withoutHeartRateSeconds, easySeconds, moderateSeconds, hardSeconds, load, estimated }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(zones, forKey: .zones)
        try c.encode(withoutHeartRateSeconds, forKey: .withoutHeartRateSeconds)
        try c.encode(easySeconds, forKey: .easySeconds)
        try c.encode(moderateSeconds, forKey: .moderateSeconds)
        try c.encode(hardSeconds, forKey: .hardSeconds)
        try c.encode(load, forKey: .load)
        try c.encode(estimated, forKey: .estimated)
    }
}

extension ZoneTime {
    enum CodingKeys: String, CodingKey { case zone, fromBeatsPerMinute, toBeatsPerMinute, seconds }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(zone, forKey: .zone)
        try c.encode(fromBeatsPerMinute, forKey: .fromBeatsPerMinute)
        try c.encode(toBeatsPerMinute, forKey: .toBeatsPerMinute)
        try c.encode(seconds, forKey: .seconds)
    }
}

extension ActiveTarget {
    enum CodingKeys: String, CodingKey { case target, daysToRace, predictedSeconds, predictedFrom }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(target, forKey: .target)
        try c.encode(daysToRace, forKey: .daysToRace)
        try c.encode(predictedSeconds, forKey: .predictedSeconds)
        try c.encode(predictedFrom, forKey: .predictedFrom)
    }
}

extension TrainingTargets {
    enum CodingKeys: String, CodingKey { case user, today, targets, active }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(user, forKey: .user)
        try c.encode(today, forKey: .today)
        try c.encode(targets, forKey: .targets)
        try c.encodeIfPresent(active, forKey: .active)
    }
}

extension TrainingLoadDay {
    enum CodingKeys: String, CodingKey { case date, load, acute, chronic28, acwr }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(date, forKey: .date)
        try c.encode(load, forKey: .load)
        try c.encode(acute, forKey: .acute)
        try c.encode(chronic28, forKey: .chronic28)
        try c.encode(acwr, forKey: .acwr)
    }
}

extension TrainingWeek {
    enum CodingKeys: String, CodingKey {
        case user, from, to, today, planned, extra, plannedSessions, plannedDistanceMeters, plannedDurationSeconds, doneSessions
        case doneDistanceMeters, doneMovingSeconds, completed, partial, missed, upcoming, compliancePercent, intensity, load, target
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(user, forKey: .user)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
        try c.encode(today, forKey: .today)
        try c.encode(planned, forKey: .planned)
        try c.encode(extra, forKey: .extra)
        try c.encode(plannedSessions, forKey: .plannedSessions)
        try c.encode(plannedDistanceMeters, forKey: .plannedDistanceMeters)
        try c.encode(plannedDurationSeconds, forKey: .plannedDurationSeconds)
        try c.encode(doneSessions, forKey: .doneSessions)
        try c.encode(doneDistanceMeters, forKey: .doneDistanceMeters)
        try c.encode(doneMovingSeconds, forKey: .doneMovingSeconds)
        try c.encode(completed, forKey: .completed)
        try c.encode(partial, forKey: .partial)
        try c.encode(missed, forKey: .missed)
        try c.encode(upcoming, forKey: .upcoming)
        try c.encode(compliancePercent, forKey: .compliancePercent)
        try c.encode(intensity, forKey: .intensity)
        try c.encode(load, forKey: .load)
        try c.encodeIfPresent(target, forKey: .target)
    }
}
