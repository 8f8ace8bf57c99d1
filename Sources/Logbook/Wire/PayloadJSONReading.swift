import EventLog

/// Reads the `data` object of each event type in one pass, straight into the payload types:
/// the fields each schema version allows (anything else is an unknown field), required ones
/// present, none twice, no nulls except where null means something. Older versions come out
/// upcast to the current one.
enum PayloadJSONReading {
    static func read(_ type: EventType, schemaVersion v: UInt32, from r: inout JSONReader) throws(JSONReadError) -> DomainEvent {
        switch type {
        case .userRegistered: return .userRegistered(try userRegistered(&r))
        case .userProfileUpdated: return .userProfileUpdated(try userProfileUpdated(&r))
        case .workoutStarted: return .workoutStarted(try workoutStarted(&r))
        case .workoutPaused: return .workoutPaused(try pauseChange(&r))
        case .workoutResumed: return .workoutResumed(try pauseChange(&r))
        case .workoutFinished: return .workoutFinished(try workoutFinished(&r, version: v))
        case .workoutDiscarded: return .workoutDiscarded(try workoutReference(&r))
        case .workoutDeleted: return .workoutDeleted(try workoutReference(&r))
        case .workoutImported: return .workoutImported(try workoutImported(&r, version: v))
        case .workoutEdited: return .workoutEdited(try workoutEdited(&r))
        case .workoutTrackRecorded: return .workoutTrackRecorded(try trackRecorded(&r))
        case .stepsRecorded: return .stepsRecorded(try stepsRecorded(&r, version: v))
        case .goalSet: return .goalSet(try goalSet(&r))
        case .goalCleared: return .goalCleared(try goalCleared(&r))
        case .goalDefaultSet: return .goalDefaultSet(try goalDefaultSet(&r))
        case .placeAdded: return .placeAdded(try placeAdded(&r))
        case .placeSwiped: return .placeSwiped(try placeSwiped(&r))
        case .placeVisited: return .placeVisited(try placeVisited(&r))
        case .placeNotesEdited: return .placeNotesEdited(try placeNotesEdited(&r))
        case .placesReset: try empty(&r); return .placesReset
        case .userErased: try empty(&r); return .userErased
        }
    }

    /// The schemas' `count`: a quantity, never negative.
    private static let count = 0...Int.max
    private static let goalSteps = 1...100_000
    private static let goalMinutes = 0...1440
    /// `maxItems` of a version-2 step batch's samples.
    private static let maxStepSamples = 10_000

    private static func empty(_ r: inout JSONReader) throws(JSONReadError) {
        try r.readObject { (r, _) throws(JSONReadError) in throw r.unknownField() }
    }

    private static func userRegistered(_ r: inout JSONReader) throws(JSONReadError) -> UserRegistered {
        var displayName: String?, timeZone: String?, weekStart: WeekStart?, units: Units?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "displayName": try r.read(&displayName)
            case "timeZone": try r.read(&timeZone)
            case "weekStart": try r.read(&weekStart)
            case "units": try r.read(&units)
            default: throw r.unknownField()
            }
        }
        return UserRegistered(
            displayName: try r.required(displayName, "displayName"), timeZone: try r.required(timeZone, "timeZone"),
            weekStart: try r.required(weekStart, "weekStart"), units: try r.required(units, "units"))
    }

    private static func userProfileUpdated(_ r: inout JSONReader) throws(JSONReadError) -> UserProfileUpdated {
        var event = UserProfileUpdated()
        var displayName: String?, timeZone: String?, weekStart: WeekStart?, units: Units?
        var sawSource = false
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "displayName": try r.read(&displayName)
            case "timeZone": try r.read(&timeZone)
            case "weekStart": try r.read(&weekStart)
            case "units": try r.read(&units)
            case "preferredStepSource":
                guard !sawSource else { throw r.invalidMember("duplicate field") }
                sawSource = true
                // null clears the preferred source; a string sets it.
                event.preferredStepSource = try r.consumeNull() ? .clear : .set(try r.readString())
            default: throw r.unknownField()
            }
        }
        event.displayName = displayName
        event.timeZone = timeZone
        event.weekStart = weekStart
        event.units = units
        return event
    }

    private static func source(_ r: inout JSONReader) throws(JSONReadError) -> WorkoutSource {
        var kind: SourceKind?, sourceId: String?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "kind": try r.read(&kind)
            case "sourceId": try r.read(&sourceId)
            default: throw r.unknownField()
            }
        }
        return WorkoutSource(kind: try r.required(kind, "kind"), sourceId: sourceId)
    }

    private static func workoutStarted(_ r: inout JSONReader) throws(JSONReadError) -> WorkoutStarted {
        var workoutId: String?, activityType: ActivityType?, startedAt: Timestamp?, source: WorkoutSource?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "workoutId": try r.readId(&workoutId)
            case "activityType": try r.read(&activityType)
            case "startedAt": try r.read(&startedAt)
            case "source": try r.once(source); source = try Self.source(&r)
            default: throw r.unknownField()
            }
        }
        return WorkoutStarted(
            workoutId: try r.required(workoutId, "workoutId"), activityType: try r.required(activityType, "activityType"),
            startedAt: try r.required(startedAt, "startedAt"), source: try r.required(source, "source"))
    }

    private static func pauseChange(_ r: inout JSONReader) throws(JSONReadError) -> WorkoutPauseChange {
        var workoutId: String?, at: Timestamp?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "workoutId": try r.readId(&workoutId)
            case "at": try r.read(&at)
            default: throw r.unknownField()
            }
        }
        return WorkoutPauseChange(workoutId: try r.required(workoutId, "workoutId"), at: try r.required(at, "at"))
    }

    private static func workoutReference(_ r: inout JSONReader) throws(JSONReadError) -> WorkoutReference {
        var workoutId: String?
        try r.readObject { (r, key) throws(JSONReadError) in
            guard key == "workoutId" else { throw r.unknownField() }
            try r.readId(&workoutId)
        }
        return WorkoutReference(workoutId: try r.required(workoutId, "workoutId"))
    }

    /// Laps: distance and moving time in version 1; start, elapsed time, energy and heart rates too from version 2.
    private static func laps(_ r: inout JSONReader, version: UInt32) throws(JSONReadError) -> [Lap] {
        var laps: [Lap] = []
        try r.readArray { (r, _) throws(JSONReadError) in
            var distance: Int?, moving: Int?, startedAt: Timestamp?, elapsed: Int?, kcal: Int?, avgHR: Int?, maxHR: Int?
            try r.readObject { (r, key) throws(JSONReadError) in
                switch key {
                case "distanceMeters": try r.read(&distance, within: Self.count)
                case "movingSeconds": try r.read(&moving, within: Self.count)
                case "startedAt" where version >= 2: try r.read(&startedAt)
                case "elapsedSeconds" where version >= 2: try r.read(&elapsed, within: Self.count)
                case "activeKcal" where version >= 2: try r.read(&kcal, within: Self.count)
                case "avgHeartRate" where version >= 2: try r.read(&avgHR, within: Self.count)
                case "maxHeartRate" where version >= 2: try r.read(&maxHR, within: Self.count)
                default: throw r.unknownField()
                }
            }
            laps.append(Lap(
                distanceMeters: try r.required(distance, "distanceMeters"), movingSeconds: try r.required(moving, "movingSeconds"),
                startedAt: startedAt, elapsedSeconds: elapsed, activeKcal: kcal, avgHeartRate: avgHR, maxHeartRate: maxHR))
        }
        return laps
    }

    private static func workoutFinished(_ r: inout JSONReader, version: UInt32) throws(JSONReadError) -> WorkoutFinished {
        var workoutId: String?, endedAt: Timestamp?, distance: Int?, moving: Int?, steps: Int?, kcal: Int?, avgHR: Int?
        var laps: [Lap]?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "workoutId": try r.readId(&workoutId)
            case "endedAt": try r.read(&endedAt)
            case "distanceMeters": try r.read(&distance, within: Self.count)
            case "movingSeconds": try r.read(&moving, within: Self.count)
            case "steps": try r.read(&steps, within: Self.count)
            case "activeKcal": try r.read(&kcal, within: Self.count)
            case "avgHeartRate": try r.read(&avgHR, within: Self.count)
            case "laps": try r.once(laps); laps = try Self.laps(&r, version: version)
            default: throw r.unknownField()
            }
        }
        return WorkoutFinished(
            workoutId: try r.required(workoutId, "workoutId"), endedAt: try r.required(endedAt, "endedAt"),
            distanceMeters: try r.required(distance, "distanceMeters"), movingSeconds: try r.required(moving, "movingSeconds"),
            steps: steps, activeKcal: kcal, avgHeartRate: avgHR, laps: laps)
    }

    private static func workoutImported(_ r: inout JSONReader, version: UInt32) throws(JSONReadError) -> WorkoutImported {
        var workoutId: String?, activityType: ActivityType?, startedAt: Timestamp?, endedAt: Timestamp?
        var distance: Int?, moving: Int?, steps: Int?, kcal: Int?, avgHR: Int?, laps: [Lap]?, source: WorkoutSource?
        var title: String?, elapsed: Int?, maxHR: Int?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "workoutId": try r.readId(&workoutId)
            case "activityType": try r.read(&activityType)
            case "startedAt": try r.read(&startedAt)
            case "endedAt": try r.read(&endedAt)
            case "distanceMeters": try r.read(&distance, within: Self.count)
            case "movingSeconds": try r.read(&moving, within: Self.count)
            case "steps": try r.read(&steps, within: Self.count)
            case "activeKcal": try r.read(&kcal, within: Self.count)
            case "avgHeartRate": try r.read(&avgHR, within: Self.count)
            case "laps": try r.once(laps); laps = try Self.laps(&r, version: version)
            case "source": try r.once(source); source = try Self.source(&r)
            case "title": try r.read(&title)
            case "elapsedSeconds" where version >= 2: try r.read(&elapsed, within: Self.count)
            case "maxHeartRate" where version >= 2: try r.read(&maxHR, within: Self.count)
            default: throw r.unknownField()
            }
        }
        return WorkoutImported(
            workoutId: try r.required(workoutId, "workoutId"), activityType: try r.required(activityType, "activityType"),
            startedAt: try r.required(startedAt, "startedAt"), endedAt: try r.required(endedAt, "endedAt"),
            distanceMeters: try r.required(distance, "distanceMeters"), movingSeconds: try r.required(moving, "movingSeconds"),
            steps: steps, activeKcal: kcal, avgHeartRate: avgHR, laps: laps, source: try r.required(source, "source"),
            title: title, elapsedSeconds: elapsed, maxHeartRate: maxHR)
    }

    private static func workoutEdited(_ r: inout JSONReader) throws(JSONReadError) -> WorkoutEdited {
        var workoutId: String?, title: String?, notes: String?, activityType: ActivityType?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "workoutId": try r.readId(&workoutId)
            case "title": try r.read(&title)
            case "notes": try r.read(&notes)
            case "activityType": try r.read(&activityType)
            default: throw r.unknownField()
            }
        }
        return WorkoutEdited(workoutId: try r.required(workoutId, "workoutId"), title: title, notes: notes, activityType: activityType)
    }

    private static func trackRecorded(_ r: inout JSONReader) throws(JSONReadError) -> WorkoutTrackRecorded {
        var workoutId: String?, part: Int?, parts: Int?, samples: TrackSamples?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "workoutId": try r.readId(&workoutId)
            case "part": try r.read(&part)
            case "parts": try r.read(&parts)
            case "samples": try r.once(samples); samples = try trackSamples(&r)
            default: throw r.unknownField()
            }
        }
        let track = WorkoutTrackRecorded(
            workoutId: try r.required(workoutId, "workoutId"), part: try r.required(part, "part"),
            parts: try r.required(parts, "parts"), samples: try r.required(samples, "samples"))
        for (field, value, range) in [("parts", track.parts, 1...Rules.maxTrackPoints), ("part", track.part, 0...(max(track.parts, 1) - 1))]
            where !range.contains(value) {
            var error = r.invalid("\(value) is outside \(range.lowerBound)…\(range.upperBound)")
            error.field = field
            throw error
        }
        return track
    }

    private static func trackSamples(_ r: inout JSONReader) throws(JSONReadError) -> TrackSamples {
        var samples = TrackSamples(points: 0)
        var points: Int?
        try r.readObject { (r, key) throws(JSONReadError) in
            if key == "points" { return try r.read(&points) }
            guard let column = TrackSamples.Column.named(key) else { throw r.unknownField() }
            try r.once(samples[column])
            samples[column] = try r.readNullableInts(within: column.plausible)
        }
        samples.points = try r.required(points, "points")
        let limit = 1...TrackSamples.maxPointsPerEvent
        guard limit.contains(samples.points) else {
            var error = r.invalid("\(samples.points) is outside \(limit.lowerBound)…\(limit.upperBound)")
            error.field = "points"
            throw error
        }
        guard TrackSamples.Column.allCases.contains(where: { samples[$0] != nil }) else {
            throw r.invalid("a track has at least one column of values")
        }
        if let column = TrackSamples.Column.allCases.first(where: { (samples[$0]?.count ?? samples.points) != samples.points }) {
            var error = r.invalid("must have \(samples.points) entries (samples.points)")
            error.field = column.name
            throw error
        }
        return samples
    }

    private static func stepsRecorded(_ r: inout JSONReader, version: UInt32) throws(JSONReadError) -> StepsRecorded {
        var samples: [StepSample]?
        var shared: String?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "source" where version == 1: try r.read(&shared)
            case "samples":
                try r.once(samples)
                r.skipSpace()
                let at = r.index
                var read: [StepSample] = []
                try r.readArray { (r, _) throws(JSONReadError) in read.append(try stepSample(&r, ownSource: version >= 2)) }
                try r.check(read.count, within: 1...(version >= 2 ? Self.maxStepSamples : Int.max), items: true, at: at)
                samples = read
            default: throw r.unknownField()
            }
        }
        var all = try r.required(samples, "samples")
        if version == 1 {
            // Version 1 named one source for the whole event: each sample carries it now.
            let source = try r.required(shared, "source")
            for index in all.indices { all[index].source = source }
        }
        return StepsRecorded(samples: all)
    }

    private static func stepSample(_ r: inout JSONReader, ownSource: Bool) throws(JSONReadError) -> StepSample {
        var start: Timestamp?, end: Timestamp?, count: Int?, source: String?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "start": try r.read(&start)
            case "end": try r.read(&end)
            case "count": try r.read(&count, within: Self.count)
            case "source" where ownSource: try r.read(&source)
            default: throw r.unknownField()
            }
        }
        return StepSample(
            start: try r.required(start, "start"), end: try r.required(end, "end"), count: try r.required(count, "count"),
            source: ownSource ? try r.required(source, "source") : "")
    }

    private static func goalSet(_ r: inout JSONReader) throws(JSONReadError) -> GoalSet {
        var date: CivilDate?, steps: Int?, minutes: Int?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "date": try r.read(&date)
            case "steps": try r.read(&steps, within: Self.goalSteps)
            case "activeMinutes": try r.read(&minutes, within: Self.goalMinutes)
            default: throw r.unknownField()
            }
        }
        return GoalSet(date: try r.required(date, "date"), steps: try r.required(steps, "steps"), activeMinutes: minutes)
    }

    private static func goalCleared(_ r: inout JSONReader) throws(JSONReadError) -> GoalCleared {
        var date: CivilDate?
        try r.readObject { (r, key) throws(JSONReadError) in
            guard key == "date" else { throw r.unknownField() }
            try r.read(&date)
        }
        return GoalCleared(date: try r.required(date, "date"))
    }

    private static func goalDefaultSet(_ r: inout JSONReader) throws(JSONReadError) -> GoalDefaultSet {
        var steps: Int?, minutes: Int?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "steps": try r.read(&steps, within: Self.goalSteps)
            case "activeMinutes": try r.read(&minutes, within: Self.goalMinutes)
            default: throw r.unknownField()
            }
        }
        return GoalDefaultSet(steps: try r.required(steps, "steps"), activeMinutes: minutes)
    }

    private static func placeAdded(_ r: inout JSONReader) throws(JSONReadError) -> PlaceAdded {
        var placeId: String?, name: String?, category: PlaceCategory?, subcategory: String?, latitude: Double?, longitude: Double?
        var address: String?, phone: String?, priceLevel: Int?, notes: String?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "placeId": try r.readId(&placeId)
            case "name": try r.read(&name)
            case "category": try r.read(&category)
            case "subcategory": try r.read(&subcategory)
            case "latitude": try r.read(&latitude, within: -90...90)
            case "longitude": try r.read(&longitude, within: -180...180)
            case "address": try r.read(&address)
            case "phone": try r.read(&phone)
            case "priceLevel": try r.read(&priceLevel, within: 1...4)
            case "notes": try r.read(&notes)
            default: throw r.unknownField()
            }
        }
        return PlaceAdded(
            placeId: try r.required(placeId, "placeId"), name: try r.required(name, "name"), category: try r.required(category, "category"),
            subcategory: try r.required(subcategory, "subcategory"), latitude: try r.required(latitude, "latitude"),
            longitude: try r.required(longitude, "longitude"), address: address, phone: phone, priceLevel: priceLevel, notes: notes)
    }

    private static func placeSwiped(_ r: inout JSONReader) throws(JSONReadError) -> PlaceSwiped {
        var placeId: String?, direction: SwipeDirection?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "placeId": try r.readId(&placeId)
            case "direction": try r.read(&direction)
            default: throw r.unknownField()
            }
        }
        return PlaceSwiped(placeId: try r.required(placeId, "placeId"), direction: try r.required(direction, "direction"))
    }

    private static func placeVisited(_ r: inout JSONReader) throws(JSONReadError) -> PlaceVisited {
        var placeId: String?, visitedAt: Timestamp?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "placeId": try r.readId(&placeId)
            case "visitedAt": try r.read(&visitedAt)
            default: throw r.unknownField()
            }
        }
        return PlaceVisited(placeId: try r.required(placeId, "placeId"), visitedAt: try r.required(visitedAt, "visitedAt"))
    }

    private static func placeNotesEdited(_ r: inout JSONReader) throws(JSONReadError) -> PlaceNotesEdited {
        var placeId: String?, notes: String?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "placeId": try r.readId(&placeId)
            case "notes": try r.read(&notes)
            default: throw r.unknownField()
            }
        }
        return PlaceNotesEdited(placeId: try r.required(placeId, "placeId"), notes: try r.required(notes, "notes"))
    }
}

extension TrackSamples.Column {
    /// The column with this wire name.
    static func named(_ name: String) -> Self? {
        switch name {
        case "offsetMillis": .offsetMillis
        case "latitudeE7": .latitudeE7
        case "longitudeE7": .longitudeE7
        case "altitudeCentimeters": .altitudeCentimeters
        case "distanceCentimeters": .distanceCentimeters
        case "heartRate": .heartRate
        case "cadence": .cadence
        case "speedMillimetersPerSecond": .speedMillimetersPerSecond
        case "powerWatts": .powerWatts
        default: nil
        }
    }
}
