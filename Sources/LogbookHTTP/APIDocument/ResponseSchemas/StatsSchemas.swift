// The JSON schemas of statistics answers: a period's totals with its days, and per-type totals.
package import Logbook

extension PeriodStats: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A user's statistics over a range of days, with one row per day", required: [
            "user": .string("The user the statistics are of"),
            "from": .date("First day of the range (inclusive)"),
            "to": .date("Last day of the range (inclusive)"),
            "days": .array("Every day of the range, oldest first", of: .reference(DayStats.self)),
            "steps": .integer("Steps over the range, each day's from its counted step source"),
            "totals": .reference(ActivityTotals.self, "Counted workouts over the range, all types together"),
            "byType": .array(
                "Totals per activity type, in the order of the types; types without workouts are left out", of: .reference(TypeTotals.self)),
            "averageStepsPerDay": .number("Average steps per day over the whole range"),
        ])
    }
}

extension DayStats: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One local day of a user's statistics", required: [
            "date": .date("The local day"),
            "steps": .integer("Steps of the day, from the preferred step source (else the largest single source)"),
            "workouts": .count("Counted workouts that started on the day"),
            "distanceMeters": .integer("Distance of the day's workouts, in metres"),
            "movingSeconds": .integer("Moving time of the day's workouts, in seconds"),
            "byType": .array(
                "The day's totals per activity type, in the order of the types; types without workouts are left out",
                of: .reference(TypeTotals.self)),
            "lastPosition": .count("The last log position that changed this day (workouts or steps); 0 if none"),
        ])
    }
}

extension TypeTotals: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The totals of one activity type", required: [
            "type": .enumeration("The activity type", ActivityType.self),
            "totals": .reference(ActivityTotals.self, "Workouts, distance and moving time of this type"),
        ], optional: [
            "paceSecondsPerKm": .number("Average pace in seconds per kilometre, for run, walk and hike (absent without distance)"),
            "speedKmh": .number("Average speed in kilometres per hour, for rides (absent without moving time)"),
        ])
    }
}

extension ActivityTotals: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Totals of counted workouts", required: [
            "workouts": .count("Number of counted workouts"),
            "distanceMeters": .integer("Their distance, in metres"),
            "movingSeconds": .integer("Their moving time, in seconds"),
        ])
    }
}
