import EventLog
import Foundation
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import LogbookWebhooks
import Testing

/// `stats.week_closed`: each user's week is closed once it has ended in their time zone, with
/// the week's totals as the stats read model held them, once however often (or by however many
/// servers) the closer runs; a webhook on the type passes it on.
@Suite("Week closing")
struct WeekClosingTests {
    static func at(_ text: String) -> Timestamp { try! Timestamp(parsing: text) }
    /// A command judged and recorded at `text` (as generated history is).
    static func when(_ text: String) -> CommandContext { CommandContext(now: at(text), recordAtNow: true) }

    /// The events of `stream` that `pick` takes, in log order.
    static func picked<T>(_ logbook: Logbook, stream: String, _ pick: (DomainEvent) -> T?) async throws -> [T] {
        try await logbook.log.readStream(stream, from: 0, direction: .forward, limit: 100).compactMap { event in
            try WireEvent(event, of: logbook).event.flatMap(pick)
        }
    }

    static func closed(_ logbook: Logbook, user: String) async throws -> [StatsWeekClosed] {
        try await picked(logbook, stream: "stats-\(user)") { if case .statsWeekClosed(let closed) = $0 { closed } else { nil } }
    }

    @Test("a week is closed once, after it ends in the user's zone, with its totals; then delivered to a webhook on the type")
    func closesEndedWeeks() async throws {
        let receiver = WebhookReceiver(secret: WebhookTests.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await WebhookTests.withWebhookServer(WebhookTests.quick()) { server, dispatcher in
            let logbook = server.logbook
            _ = try await dispatcher.create(WebhookRequest(url: receiver.url, eventTypes: ["stats.week_closed"], secret: WebhookTests.secret))
            try await logbook.execute(.registerUser(user: "ana", UserRegistered(displayName: "Ana", timeZone: "UTC")), context: Self.when("2026-11-16T12:00:00Z"))
            try await logbook.execute(.registerUser(user: "ben", UserRegistered(displayName: "Ben", timeZone: "America/Los_Angeles", weekStart: .sunday)),
                                      context: Self.when("2026-11-16T12:00:00Z"))
            try await logbook.execute(.registerUser(user: "cem", UserRegistered(displayName: "Cem", timeZone: "UTC")), context: Self.when("2026-11-24T10:00:00Z"))
            for (id, start) in [("r1", "2026-11-17T07:00:00Z"), ("r2", "2026-11-21T08:00:00Z")] {
                let started = Self.at(start)
                try await logbook.execute(.importWorkout(user: "ana", WorkoutImported(
                    workoutId: id, activityType: .run, startedAt: started, endedAt: Timestamp(microsecondsSinceEpoch: started.instant + 1_900_000_000),
                    distanceMeters: 5_000, movingSeconds: 1_800, source: WorkoutSource(kind: .garmin, sourceId: id))), context: Self.when(start))
            }
            try await logbook.execute(.recordSteps(user: "ana", StepsRecorded(samples: [
                StepSample(start: Self.at("2026-11-18T09:00:00Z"), end: Self.at("2026-11-18T10:00:00Z"), count: 4_321, source: "phone"),
            ])), context: Self.when("2026-11-18T10:00:00Z"))

            // Monday 00:30 UTC: ana's week (Mon 16 – Sun 22) has ended; in Los Angeles it is still
            // Sunday 22 Nov, so ben's last ended week is Sun 15 – Sat 21. Cem registered after both,
            // and the weeks before 16 Nov ended before anyone registered.
            let monday = Self.at("2026-11-23T00:30:00Z")
            let stats = try await logbook.weeklyStats(user: "ana", containing: CivilDate(parsing: "2026-11-16")!)
            let written = try await logbook.closeEndedWeeks(now: monday)
            #expect(written.closed.count == 2 && written.failed.isEmpty)
            let ana = try await Self.closed(logbook, user: "ana")
            #expect(ana == [StatsWeekClosed(
                weekStart: CivilDate(parsing: "2026-11-16")!, weekEnd: CivilDate(parsing: "2026-11-22")!, workouts: 2, distanceMeters: 10_000,
                movingSeconds: 3_600, steps: 4_321)])
            #expect(ana.first?.workouts == stats.totals.workouts && ana.first?.steps == stats.steps)
            #expect(try await Self.closed(logbook, user: "ben").map(\.weekStart) == [CivilDate(parsing: "2026-11-15")!])
            #expect(try await Self.closed(logbook, user: "cem").isEmpty, "a week that ended before the user registered is not closed")

            // Again, and after a late workout in the closed week: nothing more is written, and the
            // closed week keeps the totals it was closed with.
            let head = try await server.head()
            #expect(try await logbook.closeEndedWeeks(now: monday).closed.isEmpty)
            var remembered: [String: CivilDate] = [:]
            #expect(try await logbook.closeEndedWeeks(now: monday, closed: &remembered).closed.isEmpty)
            #expect(remembered.count == 3)
            try await logbook.execute(.importWorkout(user: "ana", WorkoutImported(
                workoutId: "late", activityType: .ride, startedAt: Self.at("2026-11-19T07:00:00Z"), endedAt: Self.at("2026-11-19T08:00:00Z"),
                distanceMeters: 20_000, movingSeconds: 3_600, source: WorkoutSource(kind: .strava, sourceId: "late"))), context: Self.when("2026-11-23T01:00:00Z"))
            #expect(try await logbook.closeEndedWeeks(now: monday).closed.isEmpty)
            #expect(try await server.head() == head + 1)
            #expect(try await Self.closed(logbook, user: "ana").map(\.workouts) == [2])

            // A week later every user's next week closes, cem's first among them.
            #expect(try await logbook.closeEndedWeeks(now: Self.at("2026-11-30T12:00:00Z")).closed.count == 3)
            #expect(try await Self.closed(logbook, user: "cem").map(\.weekStart) == [CivilDate(parsing: "2026-11-23")!])
            // Weeks missed while no closer ran are closed too, oldest first (four weeks back at most).
            #expect(try await logbook.closeEndedWeeks(now: Self.at("2026-12-21T12:00:00Z")).closed.count == 9)
            #expect(try await Self.closed(logbook, user: "cem").map(\.weekStart.description) == ["2026-11-23", "2026-11-30", "2026-12-07", "2026-12-14"])

            // The rule refuses a week that is no week of the user's, or has not ended, or no user.
            func refused(_ user: String, _ start: String, _ end: String, now: String) async -> LogbookError? {
                let event = StatsWeekClosed(weekStart: CivilDate(parsing: start)!, weekEnd: CivilDate(parsing: end)!, workouts: 0, distanceMeters: 0,
                                            movingSeconds: 0, steps: 0)
                do {
                    try await logbook.execute(.record(user: user, .statsWeekClosed(event)), context: CommandContext(now: Self.at(now)))
                    return nil
                } catch {
                    return error as? LogbookError
                }
            }
            #expect(await refused("ana", "2026-11-17", "2026-11-23", now: "2026-12-30T00:00:00Z")?.field == "weekStart", "a Tuesday")
            #expect(await refused("ana", "2026-11-16", "2026-11-23", now: "2026-12-30T00:00:00Z")?.field == "weekEnd", "eight days")
            #expect(await refused("ana", "2026-12-07", "2026-12-13", now: "2026-12-13T23:00:00Z")?.field == "weekEnd", "not ended yet")
            #expect(await refused("nobody", "2026-11-16", "2026-11-22", now: "2026-12-30T00:00:00Z")?.rule == .userNotRegistered)

            // Replayed, the read models come out the same; the timeline tells it in one line.
            #expect(try await logbook.verify().allSatisfy(\.matches))
            let lines = try await logbook.timeline(user: "ana").entries.filter { $0.type == "stats.week_closed" }.map(\.description)
            #expect(lines.last == "Week of Mon 16 Nov closed: 2 workouts, 10.00 km, 1:00:00 moving, 4,321 steps")

            // A webhook on the type gets each closed week, and nothing else.
            try await eventually("the closed weeks delivered") { receiver.positions.count >= 14 }
            #expect(receiver.deliveries.flatMap(\.types).allSatisfy { $0 == "stats.week_closed" })
            #expect(Set(receiver.deliveries.flatMap(\.subjects).compactMap { $0 }) == ["ana", "ben", "cem"])
        }
    }

    static func trainingClosed(_ logbook: Logbook, user: String) async throws -> [TrainingWeekClosed] {
        try await picked(logbook, stream: "training-\(user)") { if case .trainingWeekClosed(let closed) = $0 { closed } else { nil } }
    }

    @Test("a week with planned workouts is also closed in training, with the plan against what was done; a webhook on the type gets it")
    func closesTrainingWeeks() async throws {
        let receiver = WebhookReceiver(secret: WebhookTests.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await WebhookTests.withWebhookServer(WebhookTests.quick()) { server, dispatcher in
            let logbook = server.logbook
            _ = try await dispatcher.create(WebhookRequest(url: receiver.url, eventTypes: ["training.week_closed"], secret: WebhookTests.secret))
            for user in ["ana", "ben"] {
                try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "UTC")), context: Self.when("2026-11-15T12:00:00Z"))
            }
            // ana plans three runs in the week of Mon 16 Nov and runs two of them, plus a ride; ben plans nothing.
            for (id, date, meters) in [("p1", "2026-11-17", 8_000), ("p2", "2026-11-19", 6_000), ("p3", "2026-11-22", 16_000)] {
                try await logbook.execute(.record(user: "ana", .planWorkoutPlanned(PlannedWorkout(
                    plannedId: id, date: CivilDate(parsing: date)!, activityType: .run, kind: .easy, distanceMeters: meters))),
                    context: Self.when("2026-11-15T13:00:00Z"))
            }
            for (id, type, start, meters) in [("r1", ActivityType.run, "2026-11-17T07:00:00Z", 8_100), ("r2", .run, "2026-11-19T07:00:00Z", 6_050),
                                              ("b1", .ride, "2026-11-20T07:00:00Z", 30_000)] {
                let started = Self.at(start)
                try await logbook.execute(.importWorkout(user: "ana", WorkoutImported(
                    workoutId: id, activityType: type, startedAt: started, endedAt: Timestamp(microsecondsSinceEpoch: started.instant + 2_400_000_000),
                    distanceMeters: meters, movingSeconds: 2_400, source: WorkoutSource(kind: .garmin, sourceId: id))), context: Self.when(start))
            }
            let monday = Self.at("2026-11-23T00:30:00Z")
            let week = try await logbook.trainingWeek(user: "ana", containing: CivilDate(parsing: "2026-11-16")!, today: CivilDate(parsing: "2026-11-23")!)
            let written = try await logbook.closeEndedWeeks(now: monday)
            #expect(written.closed.count == 5 && written.failed.isEmpty, "two stats weeks each (both registered on Sunday 15 Nov) and one training week")
            let closed = try await Self.trainingClosed(logbook, user: "ana")
            #expect(closed == [TrainingWeekClosed(
                weekStart: CivilDate(parsing: "2026-11-16")!, weekEnd: CivilDate(parsing: "2026-11-22")!, plannedSessions: 3,
                completed: week.completed, partial: week.partial, missed: week.missed, extraSessions: 1, plannedDistanceMeters: 30_000,
                doneDistanceMeters: week.doneDistanceMeters, doneMovingSeconds: week.doneMovingSeconds, compliancePercent: week.compliancePercent,
                acuteLoad: week.load.acute, chronicLoad: week.load.chronic28)])
            #expect(closed.first.map { $0.completed == 2 && $0.missed == 1 && $0.partial == 0 } == true, "\(closed)")
            #expect(try await Self.trainingClosed(logbook, user: "ben").isEmpty, "no plan, no training week")

            // Once: again (a restart, a second server) writes nothing, and a late workout changes nothing closed.
            let head = try await server.head()
            #expect(try await logbook.closeEndedWeeks(now: monday).closed.isEmpty)
            #expect(try await server.head() == head)
            #expect(try await Self.trainingClosed(logbook, user: "ana").count == 1)

            // The rule refuses a summary with more sessions accounted for than planned.
            let impossible = TrainingWeekClosed(
                weekStart: CivilDate(parsing: "2026-11-09")!, weekEnd: CivilDate(parsing: "2026-11-15")!, plannedSessions: 2, completed: 2, partial: 0,
                missed: 1, extraSessions: 0, plannedDistanceMeters: 0, doneDistanceMeters: 0, doneMovingSeconds: 0)
            await #expect(throws: LogbookError.self) {
                try await logbook.execute(.record(user: "ana", .trainingWeekClosed(impossible)), context: CommandContext(now: monday))
            }

            // Replayed, the read models come out the same; the timeline tells it in one line; the webhook gets it alone.
            #expect(try await logbook.verify().allSatisfy(\.matches))
            let lines = try await logbook.timeline(user: "ana").entries.filter { $0.type == "training.week_closed" }.map(\.description)
            #expect(lines == ["Training week of Mon 16 Nov closed: 2 of 3 planned sessions done, 1 missed, 1 unplanned, 44.15 km done against 30.00 km planned"],
                    "\(lines)")
            try await eventually("the closed training week delivered") { receiver.positions.count >= 1 }
            #expect(receiver.deliveries.flatMap(\.types) == ["training.week_closed"])
        }
    }
}
