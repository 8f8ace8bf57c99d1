// The JSON schema of a user's profile (`GET /users/{user}/profile`).
package import Logbook

extension Profile: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A user's profile", required: [
            "displayName": .string("The name shown to others"),
            "timeZone": .string("IANA time zone the user's days are counted in, e.g. Europe/Berlin"),
            "weekStart": .enumeration("First day of the user's week", WeekStart.self),
            "units": .enumeration("Units the user reads distances in", Units.self),
        ], optional: [
            "preferredStepSource": .string("The step source counted when several report the same day"),
            "maxHeartRate": .integer("Maximum heart rate, in beats per minute, for training zones", minimum: 100, maximum: 240),
            "restingHeartRate": .integer("Resting heart rate, in beats per minute: zones then split the heart-rate reserve", minimum: 25, maximum: 120),
            "preferredWorkoutSources": .array(
                "Workout source kinds whose recording of an activity is its primary, most preferred first",
                of: .enumeration("A workout source kind", SourceKind.self)),
        ])
    }
}
