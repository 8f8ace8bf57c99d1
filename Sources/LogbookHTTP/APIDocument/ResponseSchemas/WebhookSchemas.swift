// The JSON schemas of the webhook routes' answers.
package import LogbookWebhooks

extension WebhookStatus: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A webhook (its secret never answered): where it stands against the log, and what went wrong", required: [
            "id": .string("The webhook's id: wh- and 16 hex digits", pattern: "^wh-[0-9a-f]{16}$"),
            "url": .string("Where its batches are POSTed: scheme, host and port, whatever follows them (the path, the query) shown as [redacted]"),
            "paused": .boolean("Paused: nothing is delivered, the checkpoint stays"),
            "createdAt": .dateTime("When it was made, by the Logbook's clock"),
            "deliveredThrough": .count("The last log position delivered (or passed over, wanting nothing there)"),
            "head": .count("The log's head when this was read"),
            "lagEvents": .count("Events of the log after deliveredThrough, wanted or not"),
            "batchesDelivered": .count("Batches the receiver took since this server started"),
            "eventsDelivered": .count("Events in those batches"),
            "failures": .count("Failed attempts in a row of the batch being delivered now"),
            "deadLetters": .array("Batches that failed every attempt, oldest first", of: .reference(DeadLetterStatus.self)),
        ], optional: [
            "eventTypes": .array("Only these event types (left out: every type)", of: .string("An event type")),
            "users": .array("Only these users' events (left out: every user)", of: .string("A user id")),
            "pausedReason": .string("Why it paused itself (its dead letters reached their limit)"),
            "lastError": .string("The last failed attempt's reason, in a coarse category (not sent: address not public; no answer in time; the receiver answered 3xx, 4xx or 5xx; …)"),
            "lastDeliveredAt": .dateTime("When a batch was last taken, by the Logbook's clock"),
            "nextAttemptAt": .dateTime("When the next attempt after a failure is due"),
            "rotationStartedAt": .dateTime("While a rotation of its secret runs (the new and the old secret both sign its batches): when it began"),
            "deliveredBy": .string("On a log several servers share: the id of the server delivering the webhooks (absent while none does, and on an embedded store)"),
        ])
    }
}

extension DeadLetterStatus: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A batch that failed every attempt: replay it or discard it", required: [
            "id": .string("dl-<first>-<last>", pattern: "^dl-[0-9]+-[0-9]+$"),
            "first": .count("The position of its first event"),
            "last": .count("The position of its last event"),
            "events": .count("Events it held"),
            "attempts": .count("Attempts made"),
            "error": .string("Why the last attempt failed, in a coarse category"),
            "failedAt": .dateTime("When the last attempt failed"),
        ])
    }
}
