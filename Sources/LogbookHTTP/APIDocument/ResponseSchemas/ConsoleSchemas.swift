// The JSON schemas of the console's overview (`GET /admin/overview` and its stream).
import Logbook

extension ConsoleOverview: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The log's head and writer, its storage, events by type and every read model, with the samples of the last minutes", required: [
            "backend": .enumeration("Which backend stores the log", ["lmdb", "postgres"]),
            "sampledAt": .number("When the overview was sampled, in seconds since 1970 by the server's clock"),
            "serverStartedAt": .number("When this server's sampler started, in seconds since 1970"),
            "head": .count("The log's head position"),
            "eventsPerSecond": .number("Events appended per second over the last 10 seconds of samples, by every server of the log", minimum: 0),
            "writerQueue": .count("Appends waiting for this server's writer, including the commit under way"),
            "appends": .count("Appends committed by this server since it started"),
            "rejected": .count("Appends this server refused for a conflict since it started"),
            "usedBytes": .count("Bytes in use: the map's extent for LMDB, the tables' size for PostgreSQL"),
            "eventsByType": .array("Events in the log by type, counted through typesCountedThrough, in byte order of the type",
                                   of: .reference(ConsoleOverview.TypeCount.self), maxItems: 1_025),
            "typesCountedThrough": .count("The position through which events are counted by type (it catches up with the head a chunk per sample)"),
            "readModels": .array("Every read model on this server", of: .reference(ReadModelOverview.self)),
            "servers": .array("The servers following the log, in the order they started: this one alone on an embedded store, or each one sharing the PostgreSQL log that announced itself in the last 30 s", of: .reference(ServerOverview.self)),
            "samples": .array("The samples of the last minutes, oldest first", of: .reference(OverviewSample.self), maxItems: OverviewSampler.historyLimit),
        ], optional: [
            "commitLatencyMicroseconds": .number("The mean commit latency of this server's writer over the last 10 seconds (absent: no commit then)", minimum: 0),
            "mapSize": .count("The size of LMDB's memory map, in bytes (LMDB only)"),
            "readersInUse": .count("LMDB reader slots in use (LMDB only)"),
            "maxReaders": .count("LMDB reader slots available (LMDB only)"),
        ])
    }
}

extension ConsoleOverview.TypeCount: DocumentedSchema {
    package static var schemaName: String { "EventTypeCount" }

    package static var schema: JSONSchema {
        .object("How many events of one type the log holds", required: [
            "type": .string("The event type, or (other types) past the sampler's limit of distinct types"),
            "count": .count("Events of that type"),
        ])
    }
}

extension ReadModelOverview: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One read model on this server, with stall detection", required: [
            "projection": .enumeration("The read model", ReadModelKind.self),
            "position": .count("The last log position folded"),
            "lag": .count("Events it has not folded yet"),
            "lagSeconds": .number("Seconds since the oldest event it has not folded was recorded"),
            "rebuilding": .boolean("A rebuild in place is under way"),
            "upgrading": .boolean("A next version is being built beside the live one"),
            "stalled": .boolean("Behind the log with no progress for at least the sampler's stall time (30 s)"),
            "stalledSeconds": .number("Seconds since it last moved while behind (0 when caught up or moving)", minimum: 0),
        ])
    }
}

extension ServerOverview: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A server following the log, as it last announced itself", required: [
            "id": .string("Its name and a suffix unique to this run"),
            "name": .string("Its name: host and port unless named"),
            "url": .string("Where it answers (empty when not known)"),
            "startedAt": .number("When it started, in seconds since 1970"),
            "head": .count("The log's head it saw when it last announced itself"),
            "readThrough": .count("The lowest log position its read models have folded"),
            "lag": .count("Events of the log, at this overview's head, its slowest read model has not folded"),
            "silentSeconds": .number("Seconds since it last announced itself (0 for this server)", minimum: 0),
            "thisServer": .boolean("The server answering this overview"),
            "deliversWebhooks": .boolean("It delivers the webhooks (holds their lease, on a shared log)"),
        ])
    }
}

extension OverviewSample: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One sample of the log's writer", required: [
            "at": .number("When, in seconds since 1970 by the server's clock"),
            "head": .count("The log's head position"),
            "eventsPerSecond": .number("Events appended per second since the previous sample", minimum: 0),
            "writerQueue": .count("Appends waiting for this server's writer"),
        ], optional: [
            "commitLatencyMicroseconds": .number("The mean commit latency since the previous sample (absent: no commit)", minimum: 0),
        ])
    }
}
