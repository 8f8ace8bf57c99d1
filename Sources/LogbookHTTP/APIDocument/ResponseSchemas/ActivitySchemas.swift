// The JSON schemas of activity answers: pages of workouts, one workout's detail with splits, the month calendar and insights.
package import Logbook

/// The fields of an `ActivityRecord`'s own JSON: the record, the items of an activities page and
/// the activity detail all write them.
private enum RecordFields {
    static var required: [String: JSONSchema] {
        [
            "workoutId": .string("The workout's id"),
            "user": .string("The user whose workout it is"),
            "activityType": .enumeration("The kind of workout", ActivityType.self),
            "status": .enumeration(
                "Where the workout is in its life: running or paused (active), finished (counts), discarded or deleted", WorkoutStatus.self),
            "startedAt": .dateTime("When the workout started, in the offset it was recorded with"),
            "source": .reference(WorkoutSource.self, "Where the workout came from"),
            "distanceMeters": .integer("Distance covered, in metres"),
            "movingSeconds": .integer("Moving (timer) time, in seconds"),
            "countedPosition": .count("Log position of the event that made the workout count (finished or imported); 0 if it does not count"),
            "trackParts": .count("Parts of the recorded track received so far"),
            "trackPoints": .count("Points of the recorded track received so far"),
        ]
    }

    static var optional: [String: JSONSchema] {
        [
            "endedAt": .dateTime("When the workout ended (absent until it is finished or imported)"),
            "steps": .integer("Steps taken during the workout"),
            "activeKcal": .integer("Active energy burned, in kilocalories"),
            "avgHeartRate": .integer("Average heart rate, in beats per minute"),
            "maxHeartRate": .integer("Highest heart rate, in beats per minute, when the source gave it"),
            "elapsedSeconds": .integer("Wall-clock length, pauses included, in seconds, when the source gave it"),
            "laps": .array("The workout's laps, in order", of: .reference(Lap.self)),
            "title": .string("The workout's title"),
            "notes": .string("The user's notes on the workout"),
            "alsoRecordedBy": .array(
                "The other recordings of the same activity, in log order, when this workout is its group's primary",
                of: .reference(RecordedBy.self)),
            "primaryWorkoutId": .string("The recording of the same activity that counts, when this one does not"),
        ]
    }

    /// The local start date an activities page's item and the detail write beside the record's fields.
    static var date: JSONSchema { .date("Local date the workout started on (and counts on), in the start's own offset") }
}

extension ActivityRecord: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Everything known about one workout", required: RecordFields.required, optional: RecordFields.optional)
    }
}

/// An item of an activities page (Logbook's internal `DatedActivity`): the record's fields and its local start date.
enum DatedActivitySchema: DocumentedSchema {
    static var schemaName: String { "DatedActivity" }

    static var schema: JSONSchema {
        .object(
            "One workout of a list: everything known about it, with its local start date",
            required: RecordFields.required.merging(["date": RecordFields.date]) { _, new in new }, optional: RecordFields.optional)
    }
}

extension ActivityPage: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A page of a user's counted workouts, newest first", required: [
            "activities": .array("The page's workouts, newest first", of: .reference(DatedActivitySchema.self)),
        ], optional: [
            "nextCursor": .string("Pass back as cursor to get the next page (absent at the end)"),
        ])
    }
}

extension RecordedBy: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Another recording of the same activity", required: [
            "workoutId": .string("The recording's workout id"),
            "source": .reference(WorkoutSource.self, "Where the recording came from"),
        ])
    }
}

extension WorkoutSource: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Where a workout came from", required: [
            "kind": .enumeration("The kind of source", SourceKind.self),
        ], optional: [
            "sourceId": .string("The workout's id at the source, for imports"),
        ])
    }
}

extension Lap: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One lap of a workout", required: [
            "distanceMeters": .integer("Distance of the lap, in metres"),
            "movingSeconds": .integer("Timer (moving) time of the lap, in seconds"),
        ], optional: [
            "startedAt": .dateTime("When the lap began"),
            "elapsedSeconds": .integer("Wall-clock length of the lap, pauses included, in seconds"),
            "activeKcal": .integer("Active energy burned in the lap, in kilocalories"),
            "avgHeartRate": .integer("Average heart rate over the lap, in beats per minute"),
            "maxHeartRate": .integer("Highest heart rate in the lap, in beats per minute"),
        ])
    }
}

extension ActivityDetail: DocumentedSchema {
    package static var schema: JSONSchema {
        let required: [String: JSONSchema] = [
            "date": RecordFields.date,
            "splitUnit": .enumeration("The unit of the splits, the user's: km or mi", ["km", "mi"]),
            "splits": .array(
                "Splits of the recorded track, one per unit of distance (the last may be shorter)", of: .reference(Split.self),
                maxItems: TrackAnalysis.maxSplits),
            "hasRoute": .boolean("Whether a route (positions) was recorded: …/route.geojson answers it"),
            "ranges": .reference(TrackRanges.self),
        ]
        let optional: [String: JSONSchema] = [
            "elevationGainMeters": .count("Altitude gained over the track, in metres"),
            "elevationLossMeters": .count("Altitude lost over the track, in metres"),
            "avgHeartRate": .integer("Average heart rate in beats per minute: the record's when the source gave it, else the track's"),
            "maxHeartRate": .integer("Highest heart rate in beats per minute: the record's when the source gave it, else the track's"),
            "avgSpeedMetersPerSecond": .number("Distance over moving time, in metres per second"),
            "maxSpeedMetersPerSecond": .number("Highest speed along the track, in metres per second"),
            "intensity": .reference(TrainingIntensity.self, "Time in heart-rate zones by the user's current settings (a workout that counts)"),
        ]
        return .object(
            "One workout as an activity screen shows it: the record's fields with what its recorded track gives",
            required: RecordFields.required.merging(required) { _, new in new },
            optional: RecordFields.optional.merging(optional) { _, new in new })
    }
}

extension MeasureRange: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The smallest, time-weighted average and largest value of one measure along a track", required: [
            "minimum": .number("The smallest value"),
            "average": .number("The average over time: each value holds until the next timed point, at most 30 s (the plain mean without times)"),
            "maximum": .number("The largest value"),
        ])
    }
}

extension TrackRanges: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Minimum, average and maximum of each measure the recorded track holds (absent where it holds none)", required: [:], optional: [
            "heartRate": .reference(MeasureRange.self, "Heart rate, in beats per minute (one decimal)"),
            "speed": .reference(MeasureRange.self, "Speed, in metres per second (three decimals): the device's, else distance over time between points"),
            "pace": .reference(MeasureRange.self, "Pace, in whole seconds per kilometre or mile (the user's units); standing (under 0.3 m/s) left out"),
            "cadence": .reference(MeasureRange.self, "Cadence, in steps or revolutions per minute (one decimal)"),
            "power": .reference(MeasureRange.self, "Power, in watts (one decimal)"),
            "altitude": .reference(MeasureRange.self, "Altitude, in metres (one decimal)"),
        ])
    }
}

extension Split: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One split of a recorded track: a kilometre or a mile (the last may be shorter)", required: [
            "index": .integer("The split's number, from 1", minimum: 1),
            "distanceMeters": .integer("Length of the split, in metres"),
            "seconds": .integer("Time taken over the split, in seconds"),
        ], optional: [
            "pace": .integer("Seconds per kilometre or per mile (the split's unit); absent for a split without time"),
            "elevationGainMeters": .count("Altitude gained over the split, in metres"),
            "elevationLossMeters": .count("Altitude lost over the split, in metres"),
            "avgHeartRate": .integer("Average heart rate over the split, in beats per minute"),
        ])
    }
}

extension MonthCalendar: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The active days of one month", required: [
            "year": .integer("The year"),
            "month": .integer("The month, 1 to 12", minimum: 1, maximum: 12),
            "activeDays": .array("Days with counted workouts, oldest first", of: .reference(MonthCalendar.Day.self), maxItems: 31),
        ])
    }
}

extension MonthCalendar.Day: DocumentedSchema {
    package static var schemaName: String { "MonthCalendarDay" }

    package static var schema: JSONSchema {
        .object("One active day of a month", required: [
            "date": .date("The local day"),
            "workouts": .integer("Counted workouts that started on the day", minimum: 1),
            "movingSeconds": .integer("Their moving time, in seconds"),
            "types": .array("Their activity types, each once, in the order of the types", of: .enumeration("An activity type", ActivityType.self)),
        ])
    }
}

extension ActivityInsights: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A summary of a user's counted workouts over the last days", required: [
            "from": .date("First day of the window (inclusive)"),
            "to": .date("Last day of the window (inclusive)"),
            "workouts": .count("Counted workouts in the window"),
            "distanceMeters": .integer("Their distance, in metres"),
            "movingSeconds": .integer("Their moving time, in seconds"),
            "byType": .array(
                "Totals per activity type, in the order of the types; types without workouts are left out", of: .reference(TypeTotals.self)),
        ], optional: [
            "averagePaceSecondsPerKm": .number(
                "Seconds per kilometre over the window's runs, walks and hikes (absent without any distance)"),
            "favoriteType": .enumeration(
                "The type with the most workouts (ties: more moving time, then the order of the types); absent without workouts",
                ActivityType.self),
        ])
    }
}

extension WorkoutPause: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One pause of a recorded workout", required: [
            "pausedAt": .dateTime("When the pause began"),
        ], optional: [
            "resumedAt": .dateTime("When the workout resumed (absent while it is paused)"),
        ])
    }
}

extension CurrentWorkout: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The running or paused workout as a live screen shows it", required: [
            "workoutId": .string("The workout's id"),
            "activityType": .enumeration("The kind of workout", ActivityType.self),
            "status": .enumeration("running or paused", WorkoutStatus.self),
            "startedAt": .dateTime("When the workout started, in the offset it was recorded with"),
            "now": .dateTime("The moment the times are measured at (the server's clock), in the start's offset"),
            "elapsedSeconds": .count("Whole seconds from the start to now, pauses included"),
            "movingSeconds": .count("Whole seconds from the start to now, pauses left out (time paused twice counts once)"),
            "pauses": .array("The pauses in order; the last lasts while the workout is paused", of: .reference(WorkoutPause.self)),
            "trackPoints": .count("Points of the track recorded so far"),
        ], optional: [
            "distanceMeters": .count("The last distance the track recorded so far, in metres (absent without a distance column)"),
        ])
    }
}
