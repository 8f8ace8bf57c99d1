package import EventLog

/// Every query Logbook answers, as a read of the read models in one transaction (`txn`, or
/// memory when nil): the domain's side of the query API. The embedded `Logbook` adds caching,
/// as-of folding and the clock around these; a host with a store of its own calls them with its
/// own ``TableReader``.
extension ReadModelSet {
    /// The user's profile; ``LogbookError/Code/notFound`` when the user is not registered.
    package mutating func requireProfile(_ user: String, _ txn: (any TableReader)?) throws -> Profile {
        guard let profile = try profiles.profile(user, txn) else { throw LogbookError.notFound(kind: "user", id: user) }
        return profile
    }

    // MARK: Stats

    /// Statistics of the week containing `date`, by the user's week start.
    package mutating func weeklyStats(user: String, containing date: CivilDate, _ txn: (any TableReader)?) throws -> PeriodStats {
        let profile = try requireProfile(user, txn)
        let start = StatsReadModel.weekStart(containing: date, weekStart: profile.weekStart)
        return try stats.period(user: user, from: start, to: start.adding(days: 6), preferredSource: profile.preferredStepSource, txn)
    }

    /// Statistics of every day from `from` to `to`.
    package mutating func periodStats(user: String, from: CivilDate, to: CivilDate, _ txn: (any TableReader)?) throws -> PeriodStats {
        let profile = try requireProfile(user, txn)
        return try stats.period(user: user, from: from, to: to, preferredSource: profile.preferredStepSource, txn)
    }

    /// The stats tab: `user`'s counted workouts (of `type`, if given) in `period` buckets, every
    /// bucket holding a day of `from` … `to` (`from` nil: the 12 buckets ending with `to`'s, or for
    /// `all` the first day with a workout). Weeks follow the user's week start.
    package mutating func statsSummary(
        user: String, period: SummaryPeriod, from: CivilDate?, to: CivilDate, type: ActivityType?, _ txn: (any TableReader)?
    ) throws -> StatsSummary {
        let profile = try requireProfile(user, txn)
        let summed = !olderTables.contains(.activities)
        let first = try from ?? SummaryBuckets.defaultFrom(
            period, today: to, first: period == .all ? activities.firstWorkoutDate(user: user, summed: summed, txn) : nil,
            weekStart: profile.weekStart)
        guard first <= to else { throw LogbookError.invalidArgument(name: "from", reason: "\(first) is after to (\(to))") }
        guard to.daysSinceEpoch - first.daysSinceEpoch < SummaryBuckets.maximumDays else {
            throw LogbookError.invalidArgument(name: "to", reason: "a summary spans at most \(SummaryBuckets.maximumDays) days (100 years)")
        }
        let ranges = SummaryBuckets.buckets(period, from: first, to: to, weekStart: profile.weekStart)
        guard let start = ranges.first?.from, let end = ranges.last?.to, start.year >= 1, end.year <= 9999 else {
            throw LogbookError.invalidArgument(name: "from", reason: "the buckets must lie within the years 1 to 9999")
        }
        return try activities.summary(
            user: user, period: period, from: first, to: to, type: type, weekStart: profile.weekStart, summed: summed, txn)
    }

    // MARK: Goals

    /// Goal progress of the week containing `date`, with streaks.
    package mutating func goalWeek(user: String, containing date: CivilDate, _ txn: (any TableReader)?) throws -> GoalWeek {
        let profile = try requireProfile(user, txn)
        return try goalWeek(user: user, profile: profile, containing: date, txn)
    }

    /// Current and longest streaks as of `day` (nil: the last day with data).
    package mutating func streaks(user: String, asOf day: CivilDate?, _ txn: (any TableReader)?) throws -> Streaks {
        let profile = try requireProfile(user, txn)
        return try streaks(user: user, profile: profile, asOf: day, txn)
    }

    // MARK: Places

    /// One catalog place as the user sees it; ``LogbookError/Code/notFound`` if the catalog has none.
    package mutating func place(user: String, placeId: String, _ txn: (any TableReader)?) throws -> PlaceView {
        _ = try requireProfile(user, txn)
        guard let view = try places.place(user: user, placeId: placeId, txn) else { throw LogbookError.notFound(kind: "place", id: placeId) }
        return view
    }

    /// Places the user has not seen yet, in catalog order. With `index` (the live read models'
    /// search index) a search costs what it finds, not the catalog.
    package mutating func placesDeck(
        user: String, limit: Int, search: PlaceSearch = .init(), index: CatalogIndex.Pinned? = nil, _ txn: (any TableReader)?
    ) throws -> [PlaceView] {
        _ = try requireProfile(user, txn)
        return try places.deck(user: user, limit: max(0, limit), search: search, index: index, txn)
    }

    /// The user's saved places of `category`, by name.
    package mutating func savedPlaces(
        user: String, category: PlaceCategory, search: PlaceSearch = .init(), index: CatalogIndex.Pinned? = nil, _ txn: (any TableReader)?
    ) throws -> [PlaceView] {
        _ = try requireProfile(user, txn)
        return try places.saved(user: user, category: category, search: search, index: index, txn)
    }

    /// The user's visited places of `category`, most recent visit first.
    package mutating func visitedPlaces(
        user: String, category: PlaceCategory, search: PlaceSearch = .init(), index: CatalogIndex.Pinned? = nil, _ txn: (any TableReader)?
    ) throws -> [PlaceView] {
        _ = try requireProfile(user, txn)
        return try places.visited(user: user, category: category, search: search, index: index, txn)
    }

    // MARK: Activities

    /// A page of the user's counted workouts, newest first (`limit` clamped to 1…500).
    package mutating func activityPage(
        user: String, filter: ActivityFilter, limit: Int, cursor: String?, _ txn: (any TableReader)?
    ) throws -> ActivityPage {
        _ = try requireProfile(user, txn)
        return try activities.page(user: user, filter: filter, limit: min(max(1, limit), 500), cursor: cursor, txn)
    }

    /// The user whose workout `workoutId` is, as its record in the activities read model names
    /// it (nil: no record), whatever its status.
    package mutating func workoutOwner(_ workoutId: String, _ txn: (any TableReader)?) throws -> String? {
        try activities.workouts.get(WorkoutKey(workoutId), txn)?.user
    }

    /// One of the user's workouts (not deleted); ``LogbookError/Code/notFound`` otherwise, whoever it belongs to.
    package mutating func activity(user: String, workoutId: String, _ txn: (any TableReader)?) throws -> ActivityRecord {
        guard let record = try activities.workouts.get(WorkoutKey(workoutId), txn), record.user == user, record.status != .deleted
        else { throw LogbookError.notFound(kind: "workout", id: workoutId) }
        return try activities.grouped(record, txn)
    }

    /// One of the user's workouts with its whole track (nil when none was recorded).
    package mutating func activityWithTrack(user: String, workoutId: String, _ txn: (any TableReader)?) throws -> ActivityWithTrack {
        let record = try activity(user: user, workoutId: workoutId, txn)
        let parts = try activities.tracks.records(in: TrackPartKey(workoutId, .min)...TrackPartKey(workoutId, .max), txn)
        return ActivityWithTrack(activity: record, track: parts.isEmpty ? nil : TrackSamples.joined(parts.map(\.1.samples)))
    }

    /// The active days of a month.
    package mutating func calendar(user: String, year: Int, month: Int, _ txn: (any TableReader)?) throws -> MonthCalendar {
        _ = try requireProfile(user, txn)
        return try activities.calendar(user: user, year: year, month: month, txn)
    }

    /// Insights over the `days` days ending `today`.
    package mutating func insights(user: String, days: Int, today: CivilDate, _ txn: (any TableReader)?) throws -> ActivityInsights {
        _ = try requireProfile(user, txn)
        return try activities.insights(user: user, days: days, today: today, txn)
    }

    // MARK: Collectibles and records

    /// The milestones the user has earned.
    package mutating func collectibles(user: String, _ txn: (any TableReader)?) throws -> [Collectible] {
        let profile = try requireProfile(user, txn)
        return try collectibles(user: user, profile: profile, txn)
    }

    /// The user's personal records per activity type (see ``PersonalRecords``).
    package mutating func personalRecords(user: String, _ txn: (any TableReader)?) throws -> PersonalRecords {
        _ = try requireProfile(user, txn)
        var types: [ActivityTypeRecords] = []
        for type in ActivityType.allCases {
            let holders = try records.records(user: user, type: type, txn)
            let records = RecordKind.allCases.compactMap { kind -> PersonalRecord? in
                guard let holder = holders[kind] else { return nil }
                let entry = holder.entry
                return PersonalRecord(
                    kind: kind, workoutId: entry.workoutId, date: entry.date, distanceMeters: entry.distanceMeters,
                    movingSeconds: entry.movingSeconds,
                    paceSecondsPerKm: entry.distanceMeters > 0 ? Double(entry.movingSeconds) * 1000 / Double(entry.distanceMeters) : nil,
                    position: holder.position)
            }
            if !records.isEmpty { types.append(ActivityTypeRecords(activityType: type, records: records)) }
        }
        return PersonalRecords(user: user, activityTypes: types)
    }

    // MARK: Timeline

    /// The timeline line of `user`'s `event` (decoded as `domainEvent`): its description with the
    /// context the timeline read model kept and the notes other read models add.
    package mutating func timelineEntry(
        user: String, event: RecordedEvent, _ domainEvent: DomainEvent, _ txn: (any TableReader)?
    ) throws -> TimelineEntry {
        let position = event.position.rawValue
        let details = try timeline.context.get(UserPositionKey(user, position), txn)
        let line = TimelineDescriptions.describe(domainEvent, occurredAt: event.occurredAt, context: details)
        let notes = try timelineNotes(user: user, position: position, txn)
        return TimelineEntry(
            position: position, eventId: event.eventId, type: event.type, stream: event.stream,
            occurredAt: event.occurredAt, recordedAt: event.recordedAt,
            description: ([line] + notes).joined(separator: ". "))
    }
}

/// A workout and its whole track, as one cached answer.
package struct ActivityWithTrack: Sendable {
    package var activity: ActivityRecord
    package var track: TrackSamples?
}
