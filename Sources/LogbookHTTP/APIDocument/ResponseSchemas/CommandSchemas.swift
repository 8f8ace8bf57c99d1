// The JSON schema of a command's answer: what it wrote, or had written before.
package import Logbook

extension CommandResult: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("What a command wrote (or, for a retry or a repeated import, had written before)", required: [
            "stream": .string("The stream the command's events went to, e.g. user-alice, workout-w1 or catalog"),
            "firstPosition": .count("Log position of the first event the command wrote (or, for a retry, had written); 0 if not known (a repeated import)"),
            "lastPosition": .count("Log position of its last event, to pass as minPosition to read this write; 0 if not known (a repeated import)"),
            "streamVersion": .count("The stream's version after the command (also the answer's entity tag)"),
            "alreadyApplied": .boolean("Nothing was written: the command had already been applied"),
        ], optional: [
            "workoutId": .string("For workout commands: the workout (for a repeated import, the existing one)"),
        ])
    }
}
