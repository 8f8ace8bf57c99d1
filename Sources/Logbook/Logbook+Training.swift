public import EventLog

/// The training queries (the Training article): cached with exact invalidation like the rest, and answerable
/// as of a past moment. "Today" (missed or upcoming, the active target, the prediction's window)
/// is the caller's, else the configured clock's in the user's time zone, and is part of the
/// cache key: the answer is a function of the log and that day.
extension Logbook {
    /// The weekly summary of the user's week containing `date`: plan against done, intensity, load and the active target.
    public func trainingWeek(user: String, containing date: CivilDate, today: CivilDate? = nil, asOf: AsOf? = nil) async throws -> TrainingWeek {
        let today = try await userToday(user, today, asOf)
        return try await query(.trainingWeek, user: user, parameters: "week \(date) \(today)", asOf: asOf, cost: { 512 + 256 * $0.planned.count }) {
            projections, txn in try projections.trainingWeek(user: user, containing: date, today: today, txn)
        }
    }

    /// The plan from `from` to `to` (at most 3 years), each planned workout with its status.
    public func trainingPlan(user: String, from: CivilDate, to: CivilDate, today: CivilDate? = nil, asOf: AsOf? = nil) async throws -> TrainingPlan {
        try Self.checkPeriod(from, to)
        let today = try await userToday(user, today, asOf)
        return try await query(.trainingPlan, user: user, parameters: "plan \(from) \(to) \(today)", asOf: asOf, cost: { 128 + 256 * $0.planned.count }) {
            projections, txn in try projections.trainingPlan(user: user, from: from, to: to, today: today, txn)
        }
    }

    /// The user's training targets and the active one.
    public func trainingTargets(user: String, today: CivilDate? = nil, asOf: AsOf? = nil) async throws -> TrainingTargets {
        let today = try await userToday(user, today, asOf)
        return try await query(.trainingTargets, user: user, parameters: "targets \(today)", asOf: asOf, cost: { 256 + 256 * $0.targets.count }) {
            projections, txn in try projections.trainingTargets(user: user, today: today, txn)
        }
    }

    /// Daily load, acute, chronic28 and ACWR from `from` to `to` (at most 3 years).
    public func trainingLoad(user: String, from: CivilDate, to: CivilDate, asOf: AsOf? = nil) async throws -> TrainingLoad {
        try Self.checkPeriod(from, to)
        return try await query(.trainingLoad, user: user, parameters: "load \(from) \(to)", asOf: asOf, cost: { 64 + 96 * $0.days.count }) {
            projections, txn in try projections.trainingLoad(user: user, from: from, to: to, txn)
        }
    }

    /// One workout's time in zones with the user's current settings (nil for a workout that does not count).
    public func workoutIntensity(user: String, workoutId: String, asOf: AsOf? = nil) async throws -> TrainingIntensity? {
        try await query(.trainingLoad, user: user, parameters: "intensity \(workoutId)", asOf: asOf, cost: { _ in 512 }) { projections, txn in
            try projections.workoutIntensity(user: user, workoutId: workoutId, txn)
        }
    }

    /// The user's today: the configured clock's day in the user's time zone.
    public func today(user: String, asOf: AsOf? = nil) async throws -> CivilDate {
        let zone = try Rules.timeZone(try await profile(user: user, asOf: asOf).timeZone)
        return Rules.local(configuration.clock.now(), zone).localDate
    }

    /// `today`, or the user's today.
    func userToday(_ user: String, _ today: CivilDate?, _ asOf: AsOf?) async throws -> CivilDate {
        if let today { return today }
        return try await self.today(user: user, asOf: asOf)
    }
}
