// The JSON schemas of personal records and collectibles (milestones earned).
package import Logbook

extension PersonalRecords: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A user's personal records, per activity type", required: [
            "user": .string("The user the records are of"),
            "activityTypes": .array(
                "Records per activity type, in the order of the types; types without counted workouts are left out",
                of: .reference(ActivityTypeRecords.self)),
        ])
    }
}

extension ActivityTypeRecords: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A user's personal records for one activity type", required: [
            "activityType": .enumeration("The activity type", ActivityType.self),
            "records": .array(
                "Every record the type has a holder for, in the order of the kinds", of: .reference(PersonalRecord.self),
                maxItems: RecordKind.allCases.count),
        ])
    }
}

extension PersonalRecord: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One personal record: what it is, and the workout and day that set it", required: [
            "kind": .enumeration(
                "The record: best average pace over a workout of at least 1, 5 or 10 km, the longest distance or the longest moving time",
                RecordKind.self),
            "workoutId": .string("The workout that set the record"),
            "date": .date("Local date the workout started on"),
            "distanceMeters": .integer("The workout's distance, in metres"),
            "movingSeconds": .integer("The workout's moving time, in seconds"),
            "position": .count("The log position at which the workout came to count"),
        ], optional: [
            "paceSecondsPerKm": .number("The workout's average pace, in seconds per kilometre (absent without distance)"),
        ])
    }
}

extension Collectible: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A milestone a user earned, with the event and the day that earned it", required: [
            "id": .enumeration("Which milestone", Milestone.all.map(\.id)),
            "title": .string("The milestone's name, for people"),
            "position": .count("The log position of the event that earned it"),
            "date": .date("The local day it was earned on"),
        ])
    }
}

extension CollectibleProgress: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A milestone on the way: the user's progress towards it, and when it was earned if it was", required: [
            "id": .enumeration("Which milestone", Milestone.all.map(\.id)),
            "title": .string("The milestone's name, for people"),
            "earnedBy": .string("What earns it, for people"),
            "progress": .count("How far the user has come, in unit (the target once earned; at most the target)"),
            "target": .integer("The measure that earns it, in unit", minimum: 1),
            "unit": .enumeration("The measure's unit", ["workouts", "m", "steps", "days"]),
            "earned": .boolean("Whether the user has earned it"),
        ], optional: [
            "position": .count("The log position of the event that earned it (absent until earned)"),
            "date": .date("The local day it was earned on (absent until earned)"),
        ])
    }
}
