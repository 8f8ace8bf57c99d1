// The JSON schemas of goal answers: a goal week with its days, a day's goal, and streaks of met days.
package import Logbook

extension GoalWeek: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One week of a user's goal progress, by the user's week start", required: [
            "user": .string("The user the progress is of"),
            "weekStart": .date("First day of the week"),
            "days": .array("The week's seven days, oldest first", of: .reference(GoalDay.self), maxItems: 7),
            "daysMet": .integer("Days of the week whose goal was met", minimum: 0, maximum: 7),
            "steps": .integer("Steps over the week"),
            "activeMinutes": .integer("The sum of the days' whole active minutes"),
            "movingSeconds": .integer("The sum of the days' moving seconds"),
            "streaks": .reference(Streaks.self, "Streaks as of the week's last day (or the last day with data, if earlier)"),
        ])
    }
}

extension GoalDay: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One day of goal progress", required: [
            "date": .date("The local day"),
            "goal": .reference(Goal.self, "The goal in force that day"),
            "origin": .enumeration(
                "Where the goal came from: explicit (set for this date), default (the user's default then in force) or standard (10,000 steps)",
                ["explicit", "default", "standard"]),
            "steps": .integer("Steps of the day"),
            "activeMinutes": .integer("Moving time of the day's counted workouts, in whole minutes (movingSeconds / 60, rounded down)"),
            "movingSeconds": .integer("Moving time of the day's counted workouts, in seconds"),
            "met": .boolean("The day reached its step goal and, if the goal has one, its active minutes"),
        ])
    }
}

extension Goal: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A daily step goal, with optional active minutes", required: [
            "steps": .integer("Steps to reach in the day (commands take 1 to 100,000)"),
        ], optional: [
            "activeMinutes": .integer("Minutes of workout moving time to reach in the day (absent: no such goal; commands take 0 to 1,440)"),
        ])
    }
}

extension Streaks: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Current and longest runs of days whose goal was met", required: [
            "current": .count("Consecutive met days ending on asOf (0 if that day is not met)"),
            "longest": .count("The longest run of met days up to asOf"),
        ], optional: [
            "asOf": .date("The day the streaks are counted up to (absent: the user has no data and no day was asked for)"),
        ])
    }
}
