import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import Testing

/// A workout recorded live: its track arrives in pieces while it runs or is paused, and the
/// current workout answers elapsed and moving time so far with its pauses.
@Suite("Live workouts: tracks while recording, the current workout")
struct LiveWorkoutTests {
    static let user = "ana"

    /// A piece of track: `points` points every 10 s from `fromSecond`, 30 m apart, with positions.
    static func piece(fromSecond: Int, points: Int) -> TrackSamples {
        let seconds = (0..<points).map { fromSecond + 10 * $0 }
        return TrackSamples(
            points: points, offsetMillis: seconds.map { $0 * 1000 }, latitudeE7: seconds.map { 525_000_000 + $0 * 20 },
            longitudeE7: seconds.map { 134_000_000 + $0 * 20 }, distanceCentimeters: seconds.map { $0 * 300 },
            heartRate: seconds.map { 120 + $0 % 30 })
    }

    /// The events of one stream, payloads opened with the store's keys.
    static func stream(_ logbook: Logbook, _ name: String) async throws -> [DomainEvent] {
        var events: [DomainEvent] = []
        try await logbook.log.scan(after: .start, through: nil, filter: .all, chunkSize: 4_096) { envelope, metadata, payload in
            let event = try WireEvent(envelope: envelope, metadata: metadata, payload: payload, of: logbook)
            if event.envelope.stream == name, let domain = event.event { events.append(domain) }
            return true
        }
        return events
    }

    static func start(_ logbook: Logbook) async throws {
        try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when("2026-11-20T06:00:00+01:00"))
        try await logbook.execute(.startWorkout(user: user, WorkoutStarted(workoutId: "w-1", activityType: .run, startedAt: at("2026-11-20T07:00:00+01:00"))),
                                  context: when("2026-11-20T07:00:00+01:00"))
    }

    @Test("pieces posted while running and paused join into one track, numbered on; the route works before and after the finish")
    func piecesJoin() async throws {
        try await withLogbook { logbook, _ in
            try await Self.start(logbook)
            try await logbook.execute(.recordTrack(user: Self.user, workoutId: "w-1", Self.piece(fromSecond: 0, points: 30)), context: when("2026-11-20T07:05:00+01:00"))
            try await logbook.execute(.pauseWorkout(user: Self.user, workoutId: "w-1", at: at("2026-11-20T07:05:00+01:00")), context: when("2026-11-20T07:05:00+01:00"))
            // A piece sent while paused (the phone caught up) still continues the track.
            try await logbook.execute(.recordTrack(user: Self.user, workoutId: "w-1", Self.piece(fromSecond: 300, points: 1)), context: when("2026-11-20T07:06:00+01:00"))
            try await logbook.execute(.resumeWorkout(user: Self.user, workoutId: "w-1", at: at("2026-11-20T07:08:00+01:00")), context: when("2026-11-20T07:08:00+01:00"))
            try await logbook.execute(.recordTrack(user: Self.user, workoutId: "w-1", Self.piece(fromSecond: 480, points: 5_000)), context: when("2026-11-20T08:00:00+01:00"))

            let (running, track) = try await logbook.activityTrack(user: Self.user, workoutId: "w-1")
            #expect(running.status == .running && running.trackParts == 4 && running.trackPoints == 5_031)
            let offsets = try #require(track?.offsetMillis)
            #expect(offsets.count == 5_031 && offsets.first == 0 && offsets.last == (480 + 10 * 4_999) * 1000)
            #expect(zip(offsets, offsets.dropFirst()).allSatisfy { ($0 ?? 0) <= ($1 ?? 0) })

            let pieces = try await Self.stream(logbook, "workout-w-1").compactMap { event -> (Int, Int)? in
                guard case .workoutTrackRecorded(let part) = event else { return nil }
                return (part.part, part.parts)
            }
            // 30 points, 1 point, then 5,000 points in two parts of at most 4,000.
            #expect(pieces.map(\.0) == [0, 1, 2, 3] && pieces.map(\.1) == [1, 2, 4, 4])

            try await logbook.execute(.finishWorkout(user: Self.user, WorkoutFinished(
                workoutId: "w-1", endedAt: at("2026-11-20T08:30:00+01:00"), distanceMeters: 15_000, movingSeconds: 5_220)), context: when("2026-11-20T08:30:00+01:00"))
            let (finished, after) = try await logbook.activityTrack(user: Self.user, workoutId: "w-1")
            #expect(finished.status == .finished && after == track)
            let detail = try await logbook.activityDetail(user: Self.user, workoutId: "w-1")
            #expect(!detail.splits.isEmpty)
            // The finished workout has its track: no second one, and no more pieces.
            await #expect(throws: LogbookError.self) {
                try await logbook.execute(.recordTrack(user: Self.user, workoutId: "w-1", Self.piece(fromSecond: 60_000, points: 2)), context: when("2026-11-20T09:00:00+01:00"))
            }
        }
    }

    @Test("a piece that goes back in time, passes the track limit or comes for a discarded workout is refused and writes nothing")
    func refusals() async throws {
        try await withLogbook { logbook, _ in
            try await Self.start(logbook)
            try await logbook.execute(.recordTrack(user: Self.user, workoutId: "w-1", Self.piece(fromSecond: 100, points: 3)), context: when("2026-11-20T07:05:00+01:00"))
            let head = try await Self.stream(logbook, "workout-w-1").count
            func refused(_ track: TrackSamples, _ rule: DomainRule, _ text: String) async {
                do {
                    try await logbook.execute(.recordTrack(user: Self.user, workoutId: "w-1", track), context: when("2026-11-20T07:06:00+01:00"))
                    Issue.record("accepted: \(text)")
                } catch let error as LogbookError {
                    #expect(error.rule == rule && error.message.contains(text), "\(error)")
                } catch {
                    Issue.record("\(error)")
                }
            }
            await refused(Self.piece(fromSecond: 110, points: 2), .trackInvalid, "earlier than the last point recorded so far (120000 ms)")
            var huge = TrackSamples(points: 500_000 - 2)
            huge.offsetMillis = Array(repeating: 200_000, count: huge.points)
            await refused(huge, .trackInvalid, "would pass the limit of 500000")
            #expect(try await Self.stream(logbook, "workout-w-1").count == head)
            try await logbook.execute(.discardWorkout(user: Self.user, workoutId: "w-1"), context: when("2026-11-20T07:07:00+01:00"))
            await refused(Self.piece(fromSecond: 200, points: 2), .workoutLifecycle, "is discarded")
        }
    }

    @Test("the current workout: elapsed and moving time by the clock, its pauses, the track's distance so far; none after the finish")
    func currentWorkout() async throws {
        let clock = HandClock(at("2026-11-20T06:00:00Z"))
        try await withLogbook({ $0.clock = clock }) { logbook, _ in
            _ = await #expect(throws: LogbookError.self) { try await logbook.currentWorkout(user: "nobody") }
        }
        try await withLogbook({ $0.clock = clock }) { logbook, _ in
            try await Self.start(logbook)
            clock.set(at("2026-11-20T07:02:30+01:00"))
            var current = try #require(try await logbook.currentWorkout(user: Self.user))
            #expect(current.workoutId == "w-1" && current.status == .running && current.elapsedSeconds == 150 && current.movingSeconds == 150)
            #expect(current.pauses.isEmpty && current.trackPoints == 0 && current.distanceMeters == nil)
            #expect(current.now.utcOffsetSeconds == 3600)

            try await logbook.execute(.recordTrack(user: Self.user, workoutId: "w-1", Self.piece(fromSecond: 0, points: 10)), context: when("2026-11-20T07:02:30+01:00"))
            try await logbook.execute(.pauseWorkout(user: Self.user, workoutId: "w-1", at: at("2026-11-20T07:05:00+01:00")), context: when("2026-11-20T07:05:00+01:00"))
            clock.set(at("2026-11-20T07:07:00+01:00"))
            current = try #require(try await logbook.currentWorkout(user: Self.user))
            // 7 minutes elapsed, the last 2 of them paused.
            #expect(current.status == .paused && current.elapsedSeconds == 420 && current.movingSeconds == 300)
            #expect(current.pauses == [WorkoutPause(pausedAt: at("2026-11-20T07:05:00+01:00"), resumedAt: nil)])
            #expect(current.trackPoints == 10 && current.distanceMeters == 270)

            try await logbook.execute(.resumeWorkout(user: Self.user, workoutId: "w-1", at: at("2026-11-20T07:08:00+01:00")), context: when("2026-11-20T07:08:00+01:00"))
            try await logbook.execute(.pauseWorkout(user: Self.user, workoutId: "w-1", at: at("2026-11-20T07:10:00+01:00")), context: when("2026-11-20T07:10:00+01:00"))
            try await logbook.execute(.resumeWorkout(user: Self.user, workoutId: "w-1", at: at("2026-11-20T07:10:30+01:00")), context: when("2026-11-20T07:10:30+01:00"))
            clock.set(at("2026-11-20T07:20:00+01:00"))
            current = try #require(try await logbook.currentWorkout(user: Self.user))
            #expect(current.elapsedSeconds == 1_200 && current.movingSeconds == 1_200 - 180 - 30 && current.pauses.count == 2)
            #expect(current.pauses.allSatisfy { $0.resumedAt != nil })

            try await logbook.execute(.finishWorkout(user: Self.user, WorkoutFinished(
                workoutId: "w-1", endedAt: at("2026-11-20T07:20:00+01:00"), distanceMeters: 3_000, movingSeconds: 990)), context: when("2026-11-20T07:20:00+01:00"))
            #expect(try await logbook.currentWorkout(user: Self.user) == nil)
        }
    }

    @Test("pauses are counted once when their times overlap, and clamped to the start and now")
    func pauseArithmetic() {
        let record = ActivityRecord(workoutId: "w", user: "u", activityType: .run, status: .paused, startedAt: at("2026-11-20T07:00:00Z"), source: WorkoutSource(kind: .manual))
        let pauses = [
            WorkoutPause(pausedAt: at("2026-11-20T06:50:00Z"), resumedAt: at("2026-11-20T07:01:00Z")),  // before the start: 1 min counts
            WorkoutPause(pausedAt: at("2026-11-20T07:10:00Z"), resumedAt: at("2026-11-20T07:20:00Z")),
            WorkoutPause(pausedAt: at("2026-11-20T07:15:00Z"), resumedAt: at("2026-11-20T07:25:00Z")),  // overlaps: 5 more minutes
            WorkoutPause(pausedAt: at("2026-11-20T07:40:00Z"), resumedAt: at("2026-11-20T07:39:00Z")),  // resumed "before" it paused: nothing
            WorkoutPause(pausedAt: at("2026-11-20T07:55:00Z"), resumedAt: nil),  // lasts until now: 5 minutes
        ]
        let current = CurrentWorkout(record: record, pauses: pauses, lastTrackPart: nil, now: at("2026-11-20T08:00:00Z"))
        #expect(current.elapsedSeconds == 3_600 && current.movingSeconds == 3_600 - 60 * (1 + 15 + 5))
        let early = CurrentWorkout(record: record, pauses: pauses, lastTrackPart: nil, now: at("2026-11-20T06:00:00Z"))
        #expect(early.elapsedSeconds == 0 && early.movingSeconds == 0)
    }
}
