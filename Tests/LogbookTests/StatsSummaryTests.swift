import EventLog
import DemoData
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import Testing

/// The stats tab (`GET …/stats/summary`): buckets computed by hand across a year boundary, both
/// week starts, a day whose clocks change and a start just after local midnight; bests, climb and
/// heart rate; the climb of a track whose parts arrive out of order.
@Suite("Stats summary: weeks, months, years and all time")
struct StatsSummaryTests {
    static let now = "2026-04-02T12:00:00+02:00"

    /// A store whose clock says `now` (the user's today is 2 Apr 2026).
    func withStore(_ body: (Logbook) async throws -> Void) async throws {
        let clock = HandClock(at(Self.now))
        try await withLogbook({ $0.clock = clock }) { logbook, _ in try await body(logbook) }
    }

    /// Imports a workout started at `start` (its own offset), with an optional track.
    func workout(
        _ logbook: Logbook, _ id: String, _ type: ActivityType, _ start: String, meters: Int, moving: Int, elapsed: Int? = nil,
        endAfter: Int, kcal: Int? = nil, heartRate: Int? = nil, track: TrackSamples? = nil
    ) async throws {
        let started = at(start)
        let ended = Timestamp(microsecondsSinceEpoch: started.instant + Int64(endAfter) * 1_000_000, utcOffsetSeconds: started.utcOffsetSeconds)
        try await logbook.execute(.importWorkout(user: "u", WorkoutImported(
            workoutId: id, activityType: type, startedAt: started, endedAt: ended, distanceMeters: meters, movingSeconds: moving,
            activeKcal: kcal, avgHeartRate: heartRate, source: WorkoutSource(kind: .garmin, sourceId: id), elapsedSeconds: elapsed), track: track),
            context: when(Self.now))
    }

    /// Altitudes 100, 101, 104, 103, 110, 100 m: with the 3 m hysteresis, 10 m climbed and 10 m descended.
    static let hillyTrack = TrackSamples(
        points: 6, offsetMillis: [0, 60_000, 120_000, 180_000, 240_000, 300_000],
        altitudeCentimeters: [10_000, 10_100, 10_400, 10_300, 11_000, 10_000], heartRate: [150, 160, 170, nil, 180, 170])

    func seed(_ logbook: Logbook, weekStart: WeekStart) async throws {
        try await logbook.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "Europe/Berlin", weekStart: weekStart)), context: when(Self.now))
        // Monday 29 Dec 2025 and Sunday 4 Jan 2026 late at night: one Monday week, two Sunday weeks, two years.
        try await workout(logbook, "a", .run, "2025-12-29T07:00:00+01:00", meters: 5_000, moving: 1_500, endAfter: 1_600, kcal: 300, heartRate: 150)
        try await workout(logbook, "b", .run, "2026-01-04T23:30:00+01:00", meters: 6_000, moving: 1_800, elapsed: 2_000, endAfter: 2_100,
                          track: Self.hillyTrack)
        // 29 Mar 2026, the night the clocks go forward in Berlin: two rides on the same local day.
        try await workout(logbook, "c", .ride, "2026-03-29T01:30:00+01:00", meters: 20_000, moving: 2_400, endAfter: 2_500, kcal: 400)
        try await workout(logbook, "d", .ride, "2026-03-29T03:30:00+02:00", meters: 30_000, moving: 3_000, endAfter: 3_000)
        // 00:30 local on Monday 30 Mar is still 29 Mar in UTC: it counts on the 30th, in the next Monday week.
        try await workout(logbook, "e", .run, "2026-03-30T00:30:00+02:00", meters: 4_000, moving: 1_100, endAfter: 1_200)
        // Too short for a fastest pace, however fast.
        try await workout(logbook, "f", .run, "2026-03-31T08:00:00+02:00", meters: 900, moving: 150, endAfter: 160)
    }

    func shape(_ summary: StatsSummary) -> [String] {
        summary.buckets.map { "\($0.from)…\($0.to) \($0.workouts) \($0.distanceMeters)" }
    }

    @Test("weeks follow the week start across a year boundary; months and years; empty buckets are present; local days in each start's own offset")
    func buckets() async throws {
        try await withStore { logbook in
            try await seed(logbook, weekStart: .monday)
            let weeks = try await logbook.statsSummary(user: "u", period: .week, from: day("2025-12-31"), to: day("2026-01-06"))
            #expect(shape(weeks) == ["2025-12-29…2026-01-04 2 11000", "2026-01-05…2026-01-11 0 0"])
            #expect(weeks.from == day("2025-12-29") && weeks.to == day("2026-01-11") && weeks.weekStart == .monday)
            let march = try await logbook.statsSummary(user: "u", period: .week, from: day("2026-03-23"), to: day("2026-04-01"))
            #expect(shape(march) == ["2026-03-23…2026-03-29 2 50000", "2026-03-30…2026-04-05 2 4900"])
            let months = try await logbook.statsSummary(user: "u", period: .month, from: day("2025-12-15"), to: day("2026-03-01"))
            #expect(shape(months) == ["2025-12-01…2025-12-31 1 5000", "2026-01-01…2026-01-31 1 6000", "2026-02-01…2026-02-28 0 0",
                                      "2026-03-01…2026-03-31 4 54900"])
            let years = try await logbook.statsSummary(user: "u", period: .year, from: day("2025-06-01"), to: day("2026-01-01"))
            #expect(shape(years) == ["2025-01-01…2025-12-31 1 5000", "2026-01-01…2026-12-31 5 60900"])
            // Defaults: to is the user's today (2 Apr 2026), from the 12 buckets before; all starts at the first workout.
            let recent = try await logbook.statsSummary(user: "u", period: .month)
            #expect(recent.buckets.count == 12 && recent.from == day("2025-05-01") && recent.to == day("2026-04-30"))
            let all = try await logbook.statsSummary(user: "u", period: .all)
            #expect(shape(all) == ["2025-12-29…2026-04-02 6 65900"])
            #expect(all.totals == all.buckets[0])
            let rides = try await logbook.statsSummary(user: "u", period: .all, type: .ride)
            #expect(shape(rides) == ["2025-12-29…2026-04-02 2 50000"] && rides.type == .ride)
        }
        try await withStore { logbook in
            try await seed(logbook, weekStart: .sunday)
            let weeks = try await logbook.statsSummary(user: "u", period: .week, from: day("2025-12-29"), to: day("2026-01-10"))
            #expect(shape(weeks) == ["2025-12-28…2026-01-03 1 5000", "2026-01-04…2026-01-10 1 6000"])
            // Changing the week start needs no rebuild: the same store cuts Monday weeks at once.
            try await logbook.execute(.updateProfile(user: "u", UserProfileUpdated(weekStart: .monday)), context: when(Self.now))
            let monday = try await logbook.statsSummary(user: "u", period: .week, from: day("2025-12-29"), to: day("2026-01-10"))
            #expect(shape(monday) == ["2025-12-29…2026-01-04 2 11000", "2026-01-05…2026-01-11 0 0"])
        }
    }

    @Test("each bucket's elapsed time, climb, kilocalories, moving-time-weighted heart rate and bests")
    func totalsAndBests() async throws {
        try await withStore { logbook in
            try await seed(logbook, weekStart: .monday)
            let summary = try await logbook.statsSummary(user: "u", period: .all)
            let all = summary.totals
            // a: 1,600 (end − start), b: 2,000 (the source's), c: 2,500, d: 3,000, e: 1,200, f: 160.
            #expect(all.elapsedSeconds == 10_460)
            #expect(all.movingSeconds == 9_950)
            #expect(all.elevationGainMeters == 10)
            #expect(all.activeKcal == 700)
            // a's 150 and b's track mean (150, 160, 170, 180, 170: 166) weighted by moving time:
            // (150 × 1,500 + 166 × 1,800) / 3,300 = 158.72…; the workouts without a rate weigh nothing.
            #expect(all.avgHeartRate == 158.7)
            #expect(all.longest?.workoutId == "d")
            // a 300 s/km, b 300 s/km (ties: the longer distance), e 275 s/km; f is faster but under 1 km.
            #expect(all.fastestPace?.workoutId == "e" && all.fastestPace?.paceSecondsPerKm == 275)
            #expect(all.fastestSpeed?.workoutId == "d" && all.fastestSpeed?.speedKmh == 36)
            let january = try await logbook.statsSummary(user: "u", period: .month, from: day("2026-01-01"), to: day("2026-01-31"))
            #expect(january.buckets[0].fastestPace?.workoutId == "b" && january.buckets[0].fastestSpeed == nil)
            // The climb is the one the workout's detail reports.
            let detail = try await logbook.activityDetail(user: "u", workoutId: "b")
            #expect(detail.elevationGainMeters == january.buckets[0].elevationGainMeters)
            // Without an average from the source, the track's mean rate stands in.
            let b = try await logbook.statsSummary(user: "u", period: .all, from: day("2026-01-04"), to: day("2026-01-04"))
            #expect(b.totals.avgHeartRate == 166)
            // Deleting a workout takes it out of every bucket; as of before, the past answer.
            let before = try await logbook.log.headPosition()
            try await logbook.execute(.deleteWorkout(user: "u", workoutId: "d"), context: when(Self.now))
            let after = try await logbook.statsSummary(user: "u", period: .all)
            #expect(after.totals.longest?.workoutId == "c" && after.totals.workouts == 5)
            #expect(try await logbook.statsSummary(user: "u", period: .all, asOf: .position(before)) == summary)
            #expect(try await logbook.verify().allSatisfy(\.matches))
        }
    }

    @Test("a range backwards, longer than 100 years or for an unknown user is refused, naming what is wrong")
    func refusals() async throws {
        try await withStore { logbook in
            try await seed(logbook, weekStart: .monday)
            await #expect { try await logbook.statsSummary(user: "u", period: .week, from: day("2026-02-01"), to: day("2026-01-01")) } throws: {
                ($0 as? LogbookError)?.code == .invalidArgument && "\($0)".contains("from")
            }
            await #expect { try await logbook.statsSummary(user: "u", period: .year, from: day("1900-01-01"), to: day("2026-01-01")) } throws: {
                ($0 as? LogbookError)?.code == .invalidArgument && "\($0)".contains("100 years")
            }
            await #expect { try await logbook.statsSummary(user: "nobody", period: .all) } throws: {
                ($0 as? LogbookError)?.code == .notFound
            }
        }
    }

    @Test("a track's climb is the whole track's whatever order its parts arrive in", arguments: [[0, 1, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0]])
    func partsInAnyOrder(order: [Int]) throws {
        var random = SplitMix64(seed: 7)
        let points = 3 * 40
        var altitude = 20_000
        var altitudes: [Int?] = []
        for _ in 0..<points {
            altitude += Int(random.next() % 1_001) - 480
            altitudes.append(random.next() % 9 == 0 ? nil : altitude)
        }
        let track = TrackSamples(points: points, offsetMillis: (0..<points).map { $0 * 1_000 }, altitudeCentimeters: altitudes)
        var whole = ElevationClimb()
        whole.add(track)
        let expected = try #require(whole.gainMeters)

        var projections = ReadModelSet.inMemory()
        var position: UInt64 = 0
        func fold(_ event: DomainEvent, _ time: String) throws {
            position += 1
            let header = EventHeader(eventId: UUID(), type: event.type.rawValue, schemaVersion: event.type.currentSchemaVersion, subject: "u", occurredAt: at(time))
            let envelope = EventEnvelope(position: Position(position), stream: event.stream(user: "u"), streamVersion: 0, recordedAt: at(time), header: header)
            try projections.apply(FoldEvent(position: position, envelope: envelope, event: event), nil)
        }
        try fold(.userRegistered(UserRegistered(displayName: "U", timeZone: "Europe/Berlin")), Self.now)
        try fold(.workoutImported(WorkoutImported(
            workoutId: "w", activityType: .hike, startedAt: at("2026-03-01T09:00:00+01:00"), endedAt: at("2026-03-01T11:00:00+01:00"),
            distanceMeters: 8_000, movingSeconds: 6_000, source: WorkoutSource(kind: .garmin, sourceId: "w"))), Self.now)
        for part in order {
            try fold(.workoutTrackRecorded(WorkoutTrackRecorded(workoutId: "w", part: part, parts: 3, samples: track[(part * 40)..<((part + 1) * 40)])), Self.now)
        }
        let summary = try projections.statsSummary(user: "u", period: .all, from: nil, to: day("2026-03-31"), type: nil, nil)
        #expect(summary.totals.elevationGainMeters == expected)
        #expect(expected > 0)
    }
}
