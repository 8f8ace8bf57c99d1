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

extension StatsSummary: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The stats tab: counted workouts per week, month or year, or over all time, with each bucket's bests", required: [
            "user": .string("The user the summary is of"),
            "period": .enumeration("How the range is cut", SummaryPeriod.self),
            "from": .date("First day of the first bucket"),
            "to": .date("Last day of the last bucket"),
            "weekStart": .enumeration("The week start weeks follow (the user's)", WeekStart.self),
            "buckets": .array("Every bucket of the range, oldest first; empty ones are present with zeros", of: .reference(SummaryBucket.self)),
            "totals": .reference(SummaryBucket.self, "All buckets together: the range's totals and bests"),
        ], optional: [
            "type": .enumeration("Only workouts of this type", ActivityType.self),
        ])
    }
}

extension SummaryBucket: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The counted workouts that started (local day) within one bucket", required: [
            "from": .date("First day of the bucket"),
            "to": .date("Last day of the bucket"),
            "workouts": .count("Counted workouts"),
            "distanceMeters": .count("Their distance, in metres"),
            "movingSeconds": .count("Their moving time, in seconds"),
            "elapsedSeconds": .count("Their wall-clock time, pauses included, in seconds"),
            "elevationGainMeters": .count("Their climb over their tracks, in metres (each workout's as its detail reports it)"),
            "activeKcal": .count("Their active kilocalories, where the source gave them"),
        ], optional: [
            "avgHeartRate": .number("Average heart rate weighted by moving time, over the workouts with one, to one decimal"),
            "longest": .reference(SummaryBest.self, "The workout with the longest distance"),
            "fastestPace": .reference(SummaryBest.self, "The run, walk or hike of at least 1 km with the fastest average pace"),
            "fastestSpeed": .reference(SummaryBest.self, "The ride of at least 1 km with the highest average speed"),
        ])
    }
}

extension SummaryBest: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A workout that holds one of a bucket's bests", required: [
            "workoutId": .string("The workout"),
            "date": .date("The local day it started"),
            "activityType": .enumeration("Its activity type", ActivityType.self),
            "distanceMeters": .count("Its distance, in metres"),
            "movingSeconds": .count("Its moving time, in seconds"),
        ], optional: [
            "paceSecondsPerKm": .number("Its average pace in seconds per kilometre (run, walk, hike)"),
            "speedKmh": .number("Its average speed in kilometres per hour (ride)"),
        ])
    }
}
