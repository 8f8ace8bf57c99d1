// The JSON schemas of a workout file import's answer: what the file held and what importing it wrote.
import Logbook
import WorkoutFiles
package import WorkoutImport

extension FileImportReport: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("What one workout file held and, unless it was a dry run, what importing it wrote", required: [
            "file": .string("The file's name (the X-File-Name header, else upload)"),
            "format": .enumeration("The format the file was read as", WorkoutFileFormat.self),
            "workouts": .array("The file's workouts, in file order", of: .reference(FileImportReport.Workout.self)),
            "stepSamples": .count("Step samples kept"),
            "steps": .count("Their steps, summed (before the per-source, per-day de-duplication)"),
            "skipped": .array("Items left out, by reason", of: .reference(FileImportReport.Skipped.self)),
        ], optional: [
            "written": .reference(FileImportReport.Written.self, "What the import wrote and what was already there (absent for a dry run)"),
        ])
    }
}

extension FileImportReport.Workout: DocumentedSchema {
    package static var schemaName: String { "FileImportWorkout" }

    package static var schema: JSONSchema {
        .object("One workout of an imported file; null where the file has no value", required: [
            "sourceKind": .enumeration("The kind of source the file comes from", WorkoutSourceKind.self),
            "sourceId": .string("The workout's id at the source (what makes a repeated import a no-op)"),
            "activityType": .enumeration("The kind of workout", ActivityType.self),
            "startedAt": .dateTime("When the workout started"),
            "endedAt": .dateTime("When the workout ended"),
            "elapsedSeconds": .count("Wall-clock length, pauses included, in seconds").orNull,
            "movingSeconds": .count("Moving (timer) time in seconds, as the file gives it").orNull,
            "distanceMeters": .count("Distance in metres, as the file gives it").orNull,
            "activeKcal": .count("Active energy burned, in kilocalories").orNull,
            "avgHeartRate": .count("Average heart rate, in beats per minute").orNull,
            "laps": .count("How many laps"),
            "trackPoints": .count("How many track points"),
        ], optional: [
            "workoutId": .string("The workout's id in Logbook (a real import only)"),
            "outcome": .enumeration(
                "imported, or already-imported when an earlier import of the same source wrote it (a real import only)",
                ["imported", "already-imported"]),
        ])
    }
}

extension FileImportReport.Skipped: DocumentedSchema {
    package static var schemaName: String { "FileImportSkipped" }

    package static var schema: JSONSchema {
        .object("Items of a file left out, and why", required: [
            "reason": .string("Why they were left out"),
            "count": .integer("How many were left out", minimum: 1),
        ])
    }
}

extension FileImportReport.Written: DocumentedSchema {
    package static var schemaName: String { "FileImportWritten" }

    package static var schema: JSONSchema {
        .object("What a real import wrote, and what was already there", required: [
            "workouts": .count("Workouts imported now"),
            "workoutsAlreadyThere": .count("Workouts an earlier import had written"),
            "stepEvents": .count("steps.recorded events written now"),
            "stepEventsAlreadyThere": .count("steps.recorded events an earlier import had written"),
            "lastPosition": .count("The log position of the last event written (read your writes with it); 0 if none"),
        ])
    }
}
