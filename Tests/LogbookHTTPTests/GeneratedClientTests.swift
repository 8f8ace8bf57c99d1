import Crypto
import Foundation
import HTTPTypes
import Logbook
import LogbookClient
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import OpenAPIRuntime
import Testing

/// LogbookClient's typed calls, generated from `Schemas/openapi.json` by swift-openapi-generator,
/// talk to a real `logbook serve` over the demo data set through URLSession: the document is exact
/// enough for a generator, not just for people.
@Suite("Generated client")
struct GeneratedClientTests {
    @Test("a generated client reads health, a profile, a week's statistics and goals from a real server")
    func generatedClientCallsTheServer() async throws {
        try await withTemporaryDirectory { directory in try await ServerProcessTests.withDemoServer(users: 2, in: directory) { base in
            let token = try await TokenKeys(secret: testSecret).token(user: "u-1000")
            let client = Client(logbook: try #require(URL(string: base)), tokens: FixedAccessToken(token))

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
            let client = Client(logbook: base, tokens: FixedAccessToken(token))

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
            let operators = Client(logbook: base, tokens: FixedAccessToken(admin))
            let place = try await operators.patchCatalogPlacesPlaceId(path: .init(placeId: "p-r1"), body: .json(.init(name: "Renamed")))
            #expect(try place.created.body.json.streamVersion >= 0)
        } }
    }
}

extension GeneratedClientTests {
    @Test("the generated client calls every query and the commands of a workout's life, the goals and the places, as an app would",
          arguments: KilledBackend.allCases)
    func generatedClientCallsEveryQueryAndCommand(backend: KilledBackend) async throws {
        try await withTemporaryDirectory { directory in
            let server = try await KilledServer.start(try await backend.serveArguments(in: directory))
            defer { server.stop() }
            let base = try #require(URL(string: server.base))
            let keys = await TokenKeys(secret: testSecret)
            let client = Client(logbook: base, tokens: FixedAccessToken(try await keys.token(user: "u-9")))
            let user = "u-9"
            // The catalog's two restaurants the user swipes.
            let catalog = Client(logbook: base, tokens: FixedAccessToken(try await keys.token(user: "op", admin: true)))
            for (place, longitude) in [("p-r1", 13.40), ("p-r2", 13.41)] {
                _ = try await catalog.postCatalogPlaces(body: .json(.init(
                    category: .restaurant, latitude: 52.5, longitude: longitude, name: "Restaurant \(place)", placeId: place, subcategory: "bistro"))).created
            }

            // Commands: register, profile, a workout from start to delete, steps, goals, places.
            _ = try await client.postUsersUser(path: .init(user: user), body: .json(.init(
                displayName: "Nine", timeZone: "Europe/Berlin", units: .metric, weekStart: .monday))).created
            _ = try await client.patchUsersUserProfile(path: .init(user: user), body: .json(.init(displayName: "Nine B"))).created
            _ = try await client.postUsersUserWorkouts(path: .init(user: user), body: .json(.init(
                activityType: .run, source: .init(kind: .manual), startedAt: "2026-10-27T07:00:00+01:00", workoutId: "w9"))).created
            _ = try await client.postUsersUserWorkoutsWorkoutIdPause(path: .init(user: user, workoutId: "w9"),
                                                                    body: .json(.init(at: "2026-10-27T07:10:00+01:00"))).created
            _ = try await client.postUsersUserWorkoutsWorkoutIdResume(path: .init(user: user, workoutId: "w9"),
                                                                     body: .json(.init(at: "2026-10-27T07:12:00+01:00"))).created
            _ = try await client.postUsersUserWorkoutsWorkoutIdFinish(path: .init(user: user, workoutId: "w9"), body: .json(.init(
                distanceMeters: 8_000, endedAt: "2026-10-27T07:50:00+01:00", movingSeconds: 2_700))).created
            _ = try await client.patchUsersUserWorkoutsWorkoutId(path: .init(user: user, workoutId: "w9"), body: .json(.init(title: "Tempo"))).created
            _ = try await client.postUsersUserWorkouts(path: .init(user: user), body: .json(.init(
                activityType: .walk, source: .init(kind: .manual), startedAt: "2026-10-28T18:00:00+01:00", workoutId: "w10"))).created
            _ = try await client.postUsersUserWorkoutsWorkoutIdDiscard(path: .init(user: user, workoutId: "w10")).created
            _ = try await client.postUsersUserSteps(path: .init(user: user), body: .json(.init(samples: [
                .init(count: 900, end: "2026-10-27T09:10:00+01:00", source: "phone", start: "2026-10-27T09:00:00+01:00"),
            ]))).created
            _ = try await client.putUsersUserDefaultGoal(path: .init(user: user), body: .json(.init(steps: 9_000))).created
            _ = try await client.putUsersUserGoalsDate(path: .init(user: user, date: "2026-10-29"), body: .json(.init(steps: 11_000))).created
            _ = try await client.deleteUsersUserGoalsDate(path: .init(user: user, date: "2026-10-29")).created
            _ = try await client.postUsersUserPlacesPlaceIdSwipe(path: .init(user: user, placeId: "p-r1"), body: .json(.init(direction: .right))).created
            _ = try await client.postUsersUserPlacesPlaceIdSwipe(path: .init(user: user, placeId: "p-r2"), body: .json(.init(direction: .right))).created
            _ = try await client.postUsersUserPlacesPlaceIdVisit(path: .init(user: user, placeId: "p-r1"),
                                                                body: .json(.init(visitedAt: "2026-10-27T20:00:00+01:00"))).created
            _ = try await client.putUsersUserPlacesPlaceIdNotes(path: .init(user: user, placeId: "p-r1"), body: .json(.init(notes: "window seat"))).created

            // Every query of the user's read models, each decoded into its generated type.
            #expect(try await client.getUsersUserProfile(path: .init(user: user)).ok.body.json.displayName == "Nine B")
            #expect(try await client.getUsersUserStatsWeekly(path: .init(user: user), query: .init(date: "2026-10-27")).ok.body.json.days.count == 7)
            #expect(try await client.getUsersUserStatsPeriod(path: .init(user: user), query: .init(from: "2026-10-26", to: "2026-10-28")).ok.body.json.days.count == 3)
            #expect(try await client.getUsersUserGoalsWeek(path: .init(user: user), query: .init(date: "2026-10-27")).ok.body.json.days.count == 7)
            _ = try await client.getUsersUserGoalsStreaks(path: .init(user: user)).ok.body.json
            #expect(try await client.getUsersUserPlacesDeck(path: .init(user: user)).ok.body.json.allSatisfy { $0.place.placeId != "p-r1" })
            #expect(try await client.getUsersUserPlacesSaved(path: .init(user: user), query: .init(category: .restaurant)).ok.body.json.map(\.place.placeId).contains("p-r2"))
            #expect(try await client.getUsersUserPlacesVisited(path: .init(user: user), query: .init(category: .restaurant)).ok.body.json.count == 1)
            #expect(try await client.getUsersUserPlacesPlaceId(path: .init(user: user, placeId: "p-r1")).ok.body.json.userNotes == "window seat")
            let activities = try await client.getUsersUserActivities(path: .init(user: user)).ok.body.json
            #expect(activities.activities.map(\.workoutId) == ["w9"])
            #expect(try await client.getUsersUserActivitiesWorkoutId(path: .init(user: user, workoutId: "w9")).ok.body.json.title == "Tempo")
            #expect(try await client.getUsersUserCalendar(path: .init(user: user), query: .init(month: "2026-10")).ok.body.json.activeDays.map(\.date) == ["2026-10-27"])
            _ = try await client.getUsersUserInsights(path: .init(user: user), query: .init(today: "2026-10-31")).ok.body.json
            _ = try await client.getUsersUserRecords(path: .init(user: user)).ok.body.json
            _ = try await client.getUsersUserCollectibles(path: .init(user: user)).ok.body.json
            #expect(try await client.getUsersUserTimeline(path: .init(user: user)).ok.body.json.entries.count >= 10)
            #expect(try await client.getUsersUserEvents(path: .init(user: user)).ok.body.json.events.count >= 10)
            #expect(try await client.getStreamsStream(path: .init(stream: "workout-w9")).ok.body.json.events.count >= 4)

            // An imported workout (the JSON form of the import route), and the answers that are not JSON.
            _ = try await client.postUsersUserImports(path: .init(user: user), body: .json(.init(
                activityType: .ride, distanceMeters: 20_000, endedAt: "2026-10-28T08:00:00+01:00", movingSeconds: 3_000,
                source: .init(kind: .strava, sourceId: "s-1"), startedAt: "2026-10-28T07:00:00+01:00", workoutId: "w11"))).created
            _ = try await client.getUsersUserStatsWeeklySvg(path: .init(user: user), query: .init(date: "2026-10-27")).ok
            _ = try await client.getUsersUserActivitiesWorkoutIdChartSvg(path: .init(user: user, workoutId: "w9")).ok
            _ = try await client.getUsersUserActivitiesWorkoutIdRouteGeojson(path: .init(user: user, workoutId: "w9")).notFound
            _ = try await client.getUsersUserEventsSubscribe(path: .init(user: user), query: .init(limit: 1)).ok

            // Training: targets, planned workouts (one named by the server), a change, the reads, a removal.
            _ = try await client.putUsersUserTrainingTargetsTargetId(path: .init(user: user, targetId: "t-1"), body: .json(.init(
                activityType: .run, distanceMeters: 10_000, name: "City 10K", raceDate: "2027-03-01"))).created
            _ = try await client.deleteUsersUserTrainingTargetsTargetId(path: .init(user: user, targetId: "t-1")).created
            _ = try await client.putUsersUserTrainingTargetsTargetId(path: .init(user: user, targetId: "t-2"), body: .json(.init(
                activityType: .run, distanceMeters: 21_097, name: "Half", raceDate: "2027-03-14"))).created
            _ = try await client.postUsersUserTrainingPlannedWorkouts(path: .init(user: user), body: .json(.init(
                activityType: .run, date: "2026-10-27", distanceMeters: 8_000, kind: .easy, plannedId: "p-1"))).created
            _ = try await client.postUsersUserTrainingPlannedWorkouts(path: .init(user: user), body: .json(.init(
                activityType: .run, date: "2026-10-29", durationSeconds: 1_800, kind: .recovery))).created
            _ = try await client.patchUsersUserTrainingPlannedWorkoutsPlannedId(path: .init(user: user, plannedId: "p-1"), body: .json(.init(kind: .tempo))).created
            _ = try await client.postUsersUserTrainingPlans(path: .init(user: user), body: .json(.init(daysPerWeek: 4, targetId: "t-2"))).created
            // w9 (a run of 8 km on the 27th) completes p-1; nothing was run on the 29th.
            let trainingWeek = try await client.getUsersUserTrainingWeek(path: .init(user: user), query: .init(date: "2026-10-27", today: "2026-10-31")).ok.body.json
            #expect(trainingWeek.planned.map(\.status) == [.completed, .missed])
            #expect(try await client.getUsersUserTrainingPlan(path: .init(user: user), query: .init(from: "2026-10-26", to: "2026-11-01")).ok.body.json.planned.count == 2)
            #expect(try await client.getUsersUserTrainingTargets(path: .init(user: user)).ok.body.json.targets.map(\.targetId) == ["t-2"])
            #expect(try await client.getUsersUserTrainingLoad(path: .init(user: user), query: .init(from: "2026-10-26", to: "2026-11-01")).ok.body.json.days.count == 7)
            _ = try await client.getUsersUserTrainingLoadSvg(path: .init(user: user), query: .init(from: "2026-10-26", to: "2026-11-01")).ok
            _ = try await client.deleteUsersUserTrainingPlannedWorkoutsPlannedId(path: .init(user: user, plannedId: "p-1")).created

            // The rest of the user's commands: the workout deleted, the places reset, the user erased.
            _ = try await client.deleteUsersUserWorkoutsWorkoutId(path: .init(user: user, workoutId: "w9")).created
            _ = try await client.postUsersUserPlacesReset(path: .init(user: user)).created
            _ = try await client.deleteUsersUser(path: .init(user: user)).created

            // An administrator's reads, and adding a place to the catalog.
            let admin = Client(logbook: base, tokens: FixedAccessToken(try await keys.token(user: "op", admin: true)))
            #expect(try await admin.getAdminProjections().ok.body.json.count == ReadModelKind.allCases.count, "every read model the registry holds")
            _ = try await admin.getAdminCaches().ok.body.json
            _ = try await admin.getAdminStorage().ok.body.json
            _ = try await admin.getAdminJobs().ok.body.json
            #expect(try await admin.getLog(query: .init(limit: 5)).ok.body.json.events.count == 5)
            _ = try await admin.postCatalogPlaces(body: .json(.init(
                category: .activity, latitude: 52.5, longitude: 13.4, name: "Boulder hall", placeId: "p-new", subcategory: "climbing"))).created
            let lines = #"{"placeId":"p-bulk","name":"Kletterwald","category":"activity","subcategory":"climbing","latitude":52.4,"longitude":13.2}"#
            #expect(try await admin.postCatalogPlacesImport(body: .application_x_hyphen_ndjson(HTTPBody(lines))).created.body.json.added == 1)
            #expect(try await admin.postCatalogPlacesImport(body: .application_x_hyphen_ndjson(HTTPBody(lines))).ok.body.json.unchanged == 1)
            _ = try await admin.getReady().ok
            _ = try await admin.getMetrics().ok
            _ = try await admin.getLogSubscribe(query: .init(limit: 1)).ok
            #expect(try await admin.postAdminVerify().ok.body.json.allMatch)
            _ = try await admin.postAdminRebuild(query: .init(projections: "places")).ok
            _ = try await admin.postAdminBackup().conflict  // this server has no backup directory
            let job = try #require(try await admin.getAdminJobs().ok.body.json.first)
            #expect(try await admin.getAdminJobsJob(path: .init(job: job.id)).ok.body.json.id == job.id)
            // Cancelling: accepted while the job runs, a conflict once it has ended (the rebuild above may be either).
            switch try await admin.deleteAdminJobsJob(path: .init(job: job.id)) {
            case .accepted, .conflict: break
            case let other: Issue.record("cancelling a job answered \(other)")
            }
        }
    }
}

extension GeneratedClientTests {
    @Test("every generated file names the SHA-256 of the committed document and settings (regenerate: tools/generate-client)")
    func generatedCodeIsFromTheCommittedDocument() throws {
        let root = TestPostgres.repositoryRoot
        let document = try Data(contentsOf: root.appendingPathComponent("Schemas/openapi.json"))
        let settings = try Data(contentsOf: root.appendingPathComponent("tools/client-generator-config.yaml"))
        let expected = "From Schemas/openapi.json (SHA-256 \(SHA256.hash(data: document).hex)) "
            + "with tools/client-generator-config.yaml (SHA-256 \(SHA256.hash(data: settings).hex))."
        let generated = root.appendingPathComponent("Sources/LogbookClient/Generated")
        let files = try FileManager.default.contentsOfDirectory(atPath: generated.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.contains("Client.swift") && files.contains("Types.swift"))
        for file in files {
            let header = try String(contentsOf: generated.appendingPathComponent(file), encoding: .utf8).split(separator: "\n").prefix(4)
            #expect(header.contains { $0 == "// \(expected)" }, "\(file) is not generated from the committed document: run tools/generate-client")
        }
    }

    @Test("a refused token is refreshed once and the same call sent again; a fixed token's refusal is the answer")
    func refusedTokenIsRefreshedOnce() async throws {
        try await withTemporaryDirectory { directory in try await ServerProcessTests.withDemoServer(users: 2, in: directory) { served in
            let base = try #require(URL(string: served))
            let good = try await TokenKeys(secret: testSecret).token(user: "u-1000")
            let stale = try await TokenKeys(secret: "a-secret-this-server-does-not-know-at-all!").token(user: "u-1000")

            let tokens = RotatingTokens(first: stale, then: good)
            let client = Client(logbook: base, tokens: tokens)
            // A command's body is sent again whole: the goal is set once, under the new token.
            _ = try await client.putUsersUserGoalsDate(path: .init(user: "u-1000", date: "2026-10-28"), body: .json(.init(steps: 12_346))).created
            #expect(await tokens.refreshes == ["stale"])
            let week = try await client.getUsersUserGoalsWeek(path: .init(user: "u-1000"), query: .init(date: "2026-10-28")).ok.body.json
            #expect(week.days.first { $0.date == "2026-10-28" }?.goal.steps == 12_346)
            #expect(await tokens.refreshes == ["stale"])  // the new token holds

            let fixed = Client(logbook: base, tokens: FixedAccessToken(stale))
            guard case .unauthorized = try await fixed.getUsersUserProfile(path: .init(user: "u-1000")) else {
                Issue.record("a refused fixed token was not answered 401"); return
            }
        } }
    }
}

/// Hands out `first` until the server refuses it, then `then`; records which token each refresh replaced.
private actor RotatingTokens: AccessTokenProvider {
    private var token: String
    private let first: String
    private let then: String
    private(set) var refreshes: [String] = []

    init(first: String, then: String) {
        (token, self.first, self.then) = (first, first, then)
    }

    func currentToken() -> String { token }

    func refreshedToken(replacing rejected: String) -> String? {
        refreshes.append(rejected == first ? "stale" : "fresh")
        token = then
        return then
    }
}
