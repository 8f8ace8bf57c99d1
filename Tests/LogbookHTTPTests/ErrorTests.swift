import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Every class of bad request gets `application/problem+json` naming what was wrong, writes
/// nothing, and leaves the server serving.
@Suite("HTTP errors")
struct ErrorTests {
    /// Sends the request, expects `status` and a problem naming `field` (or `rule`), and checks
    /// that nothing was written.
    static func expectProblem(
        _ server: TestServer, _ method: HTTPRequest.Method, _ uri: String, body: String? = nil, headers: [String: String] = [:],
        status: HTTPResponse.Status, field: String? = nil, rule: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let head = try await server.head()
        let response = try await server.call(method, uri, as: "ana", body: body, headers: headers)
        #expect(response.status == status, "\(uri): \(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
        #expect(response.json["status"] as? Int == Int(status.code), sourceLocation: sourceLocation)
        #expect((response.json["detail"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        if let field { #expect(response.json["field"] as? String == field, "\(response.text)", sourceLocation: sourceLocation) }
        if let rule { #expect(response.json["rule"] as? String == rule, "\(response.text)", sourceLocation: sourceLocation) }
        #expect(try await server.head() == head, "a refused request wrote something", sourceLocation: sourceLocation)
    }

    @Test("malformed JSON, wrong types, unknown and missing fields")
    func badBodies() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await Self.expectProblem(server, .post, "/users/ana/steps", body: "{\"samples\": [", status: .badRequest, field: "body")
            try await Self.expectProblem(server, .post, "/users/ana/steps", body: "[1,2]", status: .badRequest, field: "body")
            try await Self.expectProblem(server, .post, "/users/ana/steps", body: """
                {"samples":[{"start":"2026-11-17T08:00:00Z","end":"2026-11-17T08:01:00Z","count":"many","source":"phone"}]}
                """, status: .badRequest, field: "samples[0].count")
            try await Self.expectProblem(server, .put, "/users/ana/goals/2026-11-20", body: #"{"steps":9000,"stepz":1}"#, status: .badRequest, field: "stepz")
            try await Self.expectProblem(server, .put, "/users/ana/default-goal", body: "{}", status: .badRequest, field: "steps")
            try await Self.expectProblem(server, .post, "/users/ana/workouts", body: """
                {"workoutId":"w","activityType":"unicycle","startedAt":"2026-11-17T08:00:00Z","source":{"kind":"manual"}}
                """, status: .badRequest, field: "activityType")
            try await Self.expectProblem(server, .post, "/users/ana/places/p1/visit", body: #"{"visitedAt":"yesterday"}"#, status: .badRequest)
            try await Self.expectProblem(server, .post, "/users/ana/workouts/w/finish", body: #"{"workoutId":"other","endedAt":"2026-11-17T08:00:00Z","distanceMeters":1,"movingSeconds":1}"#,
                                         status: .badRequest, field: "workoutId")
        }
    }

    @Test("invalid ids, dates, parameters and headers")
    func badParameters() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await Self.expectProblem(server, .put, "/users/ana/goals/2026-13-40", body: #"{"steps":9000}"#, status: .badRequest, field: "date")
            try await Self.expectProblem(server, .post, "/users/ana/steps", body: "{\"samples\":[]}", headers: ["Idempotency-Key": "not a key"],
                                         status: .badRequest, field: "Idempotency-Key")
            try await Self.expectProblem(server, .put, "/users/ana/goals/2026-11-20", body: #"{"steps":9000}"#, headers: ["If-Match": "soon"],
                                         status: .badRequest, field: "If-Match")
            try await Self.expectProblem(server, .get, "/users/ana/stats/weekly", status: .badRequest, field: "date")
            try await Self.expectProblem(server, .get, "/users/ana/stats/weekly?date=tuesday", status: .badRequest, field: "date")
            try await Self.expectProblem(server, .get, "/users/ana/stats/weekly?date=2026-11-18&colour=red", status: .badRequest, field: "colour")
            try await Self.expectProblem(server, .get, "/users/ana/timeline?types=workout.exploded", status: .badRequest, field: "types")
            try await Self.expectProblem(server, .get, "/users/ana/places/saved?category=bars", status: .badRequest, field: "category")
            try await Self.expectProblem(server, .get, "/users/ana/activities?limit=0", status: .badRequest, field: "limit")
            let tooLong = String(repeating: "x", count: 300)
            try await Self.expectProblem(server, .post, "/users/ana/workouts", body: """
                {"workoutId":"\(tooLong)","activityType":"run","startedAt":"2026-11-17T08:00:00Z","source":{"kind":"manual"}}
                """, status: .badRequest)
        }
    }

    @Test("rule violations are 422 naming the rule; unknown users and workouts are 404")
    func ruleViolations() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await Self.expectProblem(server, .put, "/users/ana/goals/2027-06-01", body: #"{"steps":9000}"#, status: .unprocessableContent, rule: "goal_horizon")
            try await Self.expectProblem(server, .put, "/users/ana/goals/2026-11-20", body: #"{"steps":0}"#, status: .unprocessableContent)
            try await Self.expectProblem(server, .post, "/users/ana", body: #"{"displayName":"Ana","timeZone":"Europe/Berlin","weekStart":"monday","units":"metric"}"#,
                                         status: .unprocessableContent)
            try await Self.expectProblem(server, .get, "/users/ana/activities/ghost", status: .notFound)
            try await Self.expectProblem(server, .post, "/users/ana/workouts/ghost/pause", status: .notFound)
            let stranger = try await server.call(.get, "/users/zed/profile", as: "zed")
            #expect(stranger.status == .notFound)
        }
    }

    @Test("bodies over the configured limit get 413")
    func tooLarge() async throws {
        try await withServer({ $0.maxBodyBytes = 2048 }) { server in
            try await register(server, "ana")
            let sample = #"{"start":"2026-11-17T08:00:00Z","end":"2026-11-17T08:01:00Z","count":1,"source":"phone"}"#
            let body = "{\"samples\":[" + Array(repeating: sample, count: 40).joined(separator: ",") + "]}"
            try await Self.expectProblem(server, .post, "/users/ana/steps", body: body, status: .contentTooLarge)
        }
    }

    @Test("the server keeps serving after every kind of bad request")
    func keepsServing() async throws {
        try await withServer { server in
            try await register(server, "ana")
            for body in ["", "{", "null", "\"text\"", "{\"samples\":5}", String(repeating: "[", count: 10_000)] {
                let response = try await server.call(.post, "/users/ana/steps", as: "ana", body: body)
                #expect(response.status.code >= 400 && response.status.code < 500, "\(body.prefix(20)): \(response.status)")
            }
            let good = try await server.call(.post, "/users/ana/steps", as: "ana", body: """
                {"samples":[{"start":"2026-11-17T08:00:00Z","end":"2026-11-17T08:01:00Z","count":90,"source":"phone"}]}
                """)
            #expect(good.status == .created)
        }
    }

    @Test("an unknown path or method is a problem naming it")
    func unknownRoutes() async throws {
        try await withServer { server in
            for (method, uri) in [(HTTPRequest.Method.get, "/nowhere"), (.get, "/users/ana/nothing-here"), (.delete, "/health")] {
                let response = try await server.call(method, uri, as: "ana")
                #expect(response.status == .notFound, "\(method) \(uri): \(response.status)")
                #expect(response.headers[.contentType] == "application/problem+json", "\(method) \(uri): \(response.text)")
                #expect(response.json["status"] as? Int == 404 && response.json["instance"] as? String == uri, "\(response.text)")
                #expect((response.json["detail"] as? String)?.contains("\(method.rawValue) \(uri)") == true, "\(response.text)")
            }
        }
    }
}
