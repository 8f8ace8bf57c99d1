import EventLog
import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Workout quantities have upper limits: before them, two imports of half of Int.max metres on one
/// day overflowed the stats read model's day sum and trapped the server. Now the command is
/// refused by the rule `quantity_too_large` naming its field, and what reaches the folds can never
/// overflow a sum.
@Suite("Workout quantities beyond their limits")
struct QuantityLimitTests {
    @Test("a distance, time, energy or heart rate beyond its limit is a 422 naming the rule and the field, and nothing is written")
    func refusedByField() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let head = try await server.logbook.log.headPosition()
            for (field, value) in [("distanceMeters", "4611686018427387904"), ("distanceMeters", "100000001"), ("movingSeconds", "34560001"),
                                   ("elapsedSeconds", "9223372036854775807"), ("activeKcal", "10000001"), ("avgHeartRate", "301"),
                                   ("steps", "100000001")] {
                for workout in ["w1", "w2"] {
                    var body: [String: Any] = [
                        "workoutId": workout, "activityType": "run", "startedAt": "2026-11-16T07:00:00+01:00", "endedAt": "2026-11-16T07:45:00+01:00",
                        "distanceMeters": 8000, "movingSeconds": 2400, "source": ["kind": "garmin", "sourceId": workout],
                    ]
                    body[field] = Int(value)!
                    let text = String(decoding: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]), as: UTF8.self)
                    let response = try await server.call(.post, "/users/ana/imports", as: "ana", body: text)
                    #expect(response.status == .unprocessableContent && response.text.contains("quantity_too_large") && response.text.contains(field),
                            "\(field) \(value): \(response.status) \(response.text)")
                }
            }
            let lap = try await server.call(.post, "/users/ana/imports", as: "ana", body: """
                {"workoutId":"w3","activityType":"run","startedAt":"2026-11-16T07:00:00+01:00","endedAt":"2026-11-16T07:45:00+01:00",
                 "distanceMeters":8000,"movingSeconds":2400,"source":{"kind":"garmin","sourceId":"w3"},
                 "laps":[{"distanceMeters":8000,"movingSeconds":2400,"maxHeartRate":999}]}
                """)
            #expect(lap.status == .unprocessableContent && lap.text.contains("lap 0: maxHeartRate"), "\(lap.text)")
            #expect(try await server.logbook.log.headPosition() == head)
            // At the limits themselves, twice on one day: accepted, and the day sums them.
            for workout in ["w4", "w5"] {
                let accepted = try await server.call(.post, "/users/ana/imports", as: "ana", body: """
                    {"workoutId":"\(workout)","activityType":"run","startedAt":"2026-11-16T07:00:00+01:00","endedAt":"2026-11-16T07:45:00+01:00",
                     "distanceMeters":100000000,"movingSeconds":34560000,"avgHeartRate":300,"source":{"kind":"garmin","sourceId":"\(workout)"}}
                    """)
                #expect(accepted.status == .created, "\(accepted.text)")
            }
            let week = try await server.call(.get, "/users/ana/stats/weekly?date=2026-11-16", as: "ana")
            #expect(week.status == .ok && week.text.contains("\"distanceMeters\":200000000"), "\(week.text.prefix(300))")
        }
    }

    @Test("an NDJSON import whose step sample claims more than 100,000 steps is refused by its line and field; nothing is imported")
    func importRefusedByField() async throws {
        try await withTemporaryDirectory { directory in
            let register = #"{"position":1,"stream":"user-ana","streamVersion":0,"eventId":"5b0e4a8e-1d7c-4c5e-9a0b-2f6d8c3e1a70","type":"user.registered","schemaVersion":1,"subject":"ana","occurredAt":"2026-11-17T08:00:00Z","recordedAt":"2026-11-17T08:00:00Z","correlationId":null,"causationId":null,"metadata":{},"data":{"displayName":"Ana","timeZone":"UTC","units":"metric","weekStart":"monday"}}"#
            let steps = #"{"position":2,"stream":"steps-ana","streamVersion":0,"eventId":"0d6b1f9e-4c55-4f0a-8e2b-7a1c3d5e9f01","type":"steps.recorded","schemaVersion":2,"subject":"ana","occurredAt":"2026-11-17T09:00:00Z","recordedAt":"2026-11-17T09:00:00Z","correlationId":null,"causationId":null,"metadata":{},"data":{"samples":[{"start":"2026-11-17T08:00:00Z","end":"2026-11-17T08:30:00Z","count":4611686018427387904,"source":"phone"}]}}"#
            let file = directory + "/huge.ndjson"
            try (register + "\n" + steps + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let (status, output) = try await runLogbook(["import", "--path", directory + "/data", file], includeErrors: true)
            #expect(status != 0)
            #expect(output.contains("huge.ndjson:2") && output.contains("count") && output.contains("100000"), "\(output)")
        }
    }
}
