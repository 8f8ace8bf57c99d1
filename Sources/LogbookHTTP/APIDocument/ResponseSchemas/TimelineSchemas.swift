// The JSON schemas of the audit timeline: a page of entries and one entry.
package import Logbook

extension TimelinePage: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A page of a user's audit timeline", required: [
            "entries": .array("The page's entries, in the order asked for (newest first by default)", of: .reference(TimelineEntry.self)),
        ], optional: [
            "nextCursor": .string("Pass back as cursor for the next page (a log position); absent when there is nothing more"),
        ])
    }
}

extension TimelineEntry: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One line of a user's audit timeline: an event of theirs, described", required: [
            "position": .integer("The event's position in the log", minimum: 1),
            "eventId": .string(
                "The event's id, a UUID in lower case", format: "uuid",
                pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"),
            "type": .enumeration("The event's type", EventType.self),
            "stream": .string("The stream the event belongs to, e.g. workout-w1 or goals-alice"),
            "occurredAt": .dateTime("When the event happened, in the offset it was recorded with"),
            "recordedAt": .dateTime("When the log recorded the event"),
            "description": .string("What happened, in one or more sentences"),
        ])
    }
}
