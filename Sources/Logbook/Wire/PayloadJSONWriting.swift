import EventLog

/// Writes the canonical `data` object of each event type: keys in sorted order, absent optionals
/// left out, no white space — byte for byte what the payloads' `Codable` form gives with
/// `JSONEncoder`'s `.sortedKeys` (the tests hold the two together), without building anything
/// but the output bytes.
enum PayloadJSONWriting {
    static func write(_ event: DomainEvent, to w: inout JSONWriter) {
        w.beginObject()
        switch event {
        case .userRegistered(let e):
            w.key("displayName"); w.string(e.displayName)
            w.key("timeZone"); w.string(e.timeZone)
            w.key("units"); w.string(e.units.rawValue)
            w.key("weekStart"); w.string(e.weekStart.rawValue)
        case .userProfileUpdated(let e):
            if let value = e.displayName { w.key("displayName"); w.string(value) }
            switch e.preferredStepSource {
            case .unchanged: break
            case .clear: w.key("preferredStepSource"); w.null()
            case .set(let source): w.key("preferredStepSource"); w.string(source)
            }
            if let value = e.timeZone { w.key("timeZone"); w.string(value) }
            if let value = e.units { w.key("units"); w.string(value.rawValue) }
            if let value = e.weekStart { w.key("weekStart"); w.string(value.rawValue) }
        case .workoutStarted(let e):
            w.key("activityType"); w.string(e.activityType.rawValue)
            w.key("source"); source(e.source, &w)
            w.key("startedAt"); w.timestamp(e.startedAt)
            w.key("workoutId"); w.string(e.workoutId)
        case .workoutPaused(let e), .workoutResumed(let e):
            w.key("at"); w.timestamp(e.at)
            w.key("workoutId"); w.string(e.workoutId)
        case .workoutFinished(let e):
            optional("activeKcal", e.activeKcal, &w)
            optional("avgHeartRate", e.avgHeartRate, &w)
            w.key("distanceMeters"); w.int(e.distanceMeters)
            w.key("endedAt"); w.timestamp(e.endedAt)
            if let laps = e.laps { w.key("laps"); w.array(laps, lap) }
            w.key("movingSeconds"); w.int(e.movingSeconds)
            optional("steps", e.steps, &w)
            w.key("workoutId"); w.string(e.workoutId)
        case .workoutDiscarded(let e), .workoutDeleted(let e):
            w.key("workoutId"); w.string(e.workoutId)
        case .workoutImported(let e):
            optional("activeKcal", e.activeKcal, &w)
            w.key("activityType"); w.string(e.activityType.rawValue)
            optional("avgHeartRate", e.avgHeartRate, &w)
            w.key("distanceMeters"); w.int(e.distanceMeters)
            optional("elapsedSeconds", e.elapsedSeconds, &w)
            w.key("endedAt"); w.timestamp(e.endedAt)
            if let laps = e.laps { w.key("laps"); w.array(laps, lap) }
            optional("maxHeartRate", e.maxHeartRate, &w)
            w.key("movingSeconds"); w.int(e.movingSeconds)
            w.key("source"); source(e.source, &w)
            w.key("startedAt"); w.timestamp(e.startedAt)
            optional("steps", e.steps, &w)
            if let title = e.title { w.key("title"); w.string(title) }
            w.key("workoutId"); w.string(e.workoutId)
        case .workoutEdited(let e):
            if let value = e.activityType { w.key("activityType"); w.string(value.rawValue) }
            if let value = e.notes { w.key("notes"); w.string(value) }
            if let value = e.title { w.key("title"); w.string(value) }
            w.key("workoutId"); w.string(e.workoutId)
        case .workoutTrackRecorded(let e):
            w.key("part"); w.int(e.part)
            w.key("parts"); w.int(e.parts)
            w.key("samples"); samples(e.samples, &w)
            w.key("workoutId"); w.string(e.workoutId)
        case .stepsRecorded(let e):
            w.key("samples")
            w.array(e.samples) { w, sample in
                w.beginObject()
                w.key("count"); w.int(sample.count)
                w.key("end"); w.timestamp(sample.end)
                w.key("source"); w.string(sample.source)
                w.key("start"); w.timestamp(sample.start)
                w.endObject()
            }
        case .goalSet(let e):
            optional("activeMinutes", e.activeMinutes, &w)
            w.key("date"); w.date(e.date)
            w.key("steps"); w.int(e.steps)
        case .goalCleared(let e):
            w.key("date"); w.date(e.date)
        case .goalDefaultSet(let e):
            optional("activeMinutes", e.activeMinutes, &w)
            w.key("steps"); w.int(e.steps)
        case .placeAdded(let e):
            if let value = e.address { w.key("address"); w.string(value) }
            w.key("category"); w.string(e.category.rawValue)
            w.key("latitude"); w.double(e.latitude)
            w.key("longitude"); w.double(e.longitude)
            w.key("name"); w.string(e.name)
            if let value = e.notes { w.key("notes"); w.string(value) }
            if let value = e.phone { w.key("phone"); w.string(value) }
            w.key("placeId"); w.string(e.placeId)
            optional("priceLevel", e.priceLevel, &w)
            w.key("subcategory"); w.string(e.subcategory)
        case .placeSwiped(let e):
            w.key("direction"); w.string(e.direction.rawValue)
            w.key("placeId"); w.string(e.placeId)
        case .placeVisited(let e):
            w.key("placeId"); w.string(e.placeId)
            w.key("visitedAt"); w.timestamp(e.visitedAt)
        case .placeNotesEdited(let e):
            w.key("notes"); w.string(e.notes)
            w.key("placeId"); w.string(e.placeId)
        case .placesReset, .userErased:
            break
        }
        w.endObject()
    }

    private static func optional(_ name: String, _ value: Int?, _ w: inout JSONWriter) {
        guard let value else { return }
        w.key(name)
        w.int(value)
    }

    private static func source(_ source: WorkoutSource, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("kind"); w.string(source.kind.rawValue)
        if let id = source.sourceId { w.key("sourceId"); w.string(id) }
        w.endObject()
    }

    private static func lap(_ w: inout JSONWriter, _ lap: Lap) {
        w.beginObject()
        optional("activeKcal", lap.activeKcal, &w)
        optional("avgHeartRate", lap.avgHeartRate, &w)
        w.key("distanceMeters"); w.int(lap.distanceMeters)
        optional("elapsedSeconds", lap.elapsedSeconds, &w)
        optional("maxHeartRate", lap.maxHeartRate, &w)
        w.key("movingSeconds"); w.int(lap.movingSeconds)
        if let start = lap.startedAt { w.key("startedAt"); w.timestamp(start) }
        w.endObject()
    }

    /// The columns in their names' sorted order, `points` among them.
    private static func samples(_ samples: TrackSamples, _ w: inout JSONWriter) {
        func column(_ column: TrackSamples.Column) {
            guard let values = samples[column] else { return }
            w.key(column.name)
            w.raw(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { w.raw(UInt8(ascii: ",")) }
                if let value { w.int(value) } else { w.null() }
            }
            w.raw(UInt8(ascii: "]"))
        }
        w.beginObject()
        column(.altitudeCentimeters)
        column(.cadence)
        column(.distanceCentimeters)
        column(.heartRate)
        column(.latitudeE7)
        column(.longitudeE7)
        column(.offsetMillis)
        w.key("points"); w.int(samples.points)
        column(.powerWatts)
        column(.speedMillimetersPerSecond)
        w.endObject()
    }
}
