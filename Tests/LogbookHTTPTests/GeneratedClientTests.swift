import Foundation
import HTTPTypes
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import Testing

/// A client generated from `Schemas/openapi.json` by swift-openapi-generator (at build time, by
/// its plugin) compiles and talks to a real `logbook serve` over the demo data set: the document
/// is exact enough for a generator, not just for people.
@Suite("Generated client")
struct GeneratedClientTests {
    @Test("a generated client reads health, a profile, a week's statistics and goals from a real server")
    func generatedClientCallsTheServer() async throws {
        try await withTemporaryDirectory { directory in try await ServerProcessTests.withDemoServer(users: 2, in: directory) { base in
            let token = try await TokenKeys(secret: testSecret).token(user: "u-1000")
            let client = Client(serverURL: try #require(URL(string: base)), transport: AsyncHTTPClientTransport(), middlewares: [Bearer(token: token)])

            let health = try await client.getHealth().ok.body.json
            #expect(health.status == .ok)

            let profile = try await client.getUsersUserProfile(path: .init(user: "u-1000")).ok.body.json
            #expect(profile.timeZone == "Europe/Berlin")
            #expect(!profile.displayName.isEmpty)

            let week = try await client.getUsersUserStatsWeekly(path: .init(user: "u-1000"), query: .init(date: "2026-10-28")).ok.body.json
            #expect(week.days.count == 7)
            #expect(week.from <= "2026-10-28" && week.to >= "2026-10-28")
            #expect(week.days.map(\.steps).reduce(0, +) == week.steps)

            let goals = try await client.getUsersUserGoalsWeek(path: .init(user: "u-1000"), query: .init(date: "2026-10-28")).ok.body.json
            #expect(goals.days.count == 7)
            #expect(goals.days.filter(\.met).count == goals.daysMet)
            #expect(goals.weekStart == week.from)

            // A refusal comes back as the documented problem.
            let refused = try await client.getUsersUserProfile(path: .init(user: "u-1001"))
            guard case .forbidden(let forbidden) = refused else { Issue.record("expected 403, got \(refused)"); return }
            #expect(try forbidden.body.application_problem_plus_json.status == 403)
        } }
    }
}

extension GeneratedClientTests {
    @Test("the generated client sends commands with their bodies and reads the user's events in the log's page")
    func generatedClientSendsCommands() async throws {
        try await withTemporaryDirectory { directory in try await ServerProcessTests.withDemoServer(users: 2, in: directory) { served in
            let base = try #require(URL(string: served))
            let token = try await TokenKeys(secret: testSecret).token(user: "u-1000")
            let client = Client(serverURL: base, transport: AsyncHTTPClientTransport(), middlewares: [Bearer(token: token)])

            let goal = try await client.putUsersUserGoalsDate(path: .init(user: "u-1000", date: "2026-10-28"), body: .json(.init(steps: 12_345)))
            #expect(try goal.created.body.json.streamVersion >= 0)
            let week = try await client.getUsersUserGoalsWeek(path: .init(user: "u-1000"), query: .init(date: "2026-10-28")).ok.body.json
            #expect(week.days.first { $0.date == "2026-10-28" }?.goal.steps == 12_345)

            let workout = try await client.postUsersUserWorkouts(path: .init(user: "u-1000"), body: .json(.init(
                activityType: .run, source: .init(kind: .manual), startedAt: "2026-10-28T07:00:00+01:00", workoutId: "generated-1")))
            #expect(try workout.created.body.json.streamVersion >= 0)

            // The log's page of events: each in the wire form, as the bundled Event component describes it.
            let events = try await client.getUsersUserEvents(path: .init(user: "u-1000"), query: .init(limit: 1000)).ok.body.json.events
            #expect(events.contains { $0._type == .goal_period_set })
            #expect(events.contains { $0._type == .workout_period_started })

            // An administrator's command on the catalog, a route the event declarations give.
            let admin = try await TokenKeys(secret: testSecret).token(user: "op", admin: true)
            let operators = Client(serverURL: base, transport: AsyncHTTPClientTransport(), middlewares: [Bearer(token: admin)])
            let place = try await operators.patchCatalogPlacesPlaceId(path: .init(placeId: "p-r1"), body: .json(.init(name: "Renamed")))
            #expect(try place.created.body.json.streamVersion >= 0)
        } }
    }
}

/// Adds the bearer token to every request of the generated client.
private struct Bearer: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}
