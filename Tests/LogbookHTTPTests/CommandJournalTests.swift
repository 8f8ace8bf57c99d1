import Foundation
import LogbookClient
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import OpenAPIRuntime
import Testing

/// LogbookClient's ``CommandJournal`` against a real `logbook serve`: commands made offline are
/// sent in order once the server is back, refused ones are kept with their problem, and the
/// journal's file keeps its limits and survives a torn last line.
@Suite("Client command journal")
struct CommandJournalTests {
    static let user = "u-1000"

    @Test("a workout recorded offline is sent in order once the server is back, and the week's stats and training show it",
          arguments: KilledBackend.allCases)
    func offlineWorkoutReachesTheReadModels(backend: KilledBackend) async throws {
        try await withTemporaryDirectory { directory in
            let server = try await KilledServer.start(try await backend.serveArguments(in: directory))
            defer { server.stop() }
            let token = try await server.register(Self.user)
            let journal = try CommandJournal(file: URL(fileURLWithPath: directory + "/\(Self.user).journal"), answerWait: .milliseconds(50))
            defer { Task { await journal.stop() } }
            let client = Client(logbook: URL(string: server.base)!, tokens: FixedAccessToken(token), cache: QueryCache(), journal: journal)
            let statsBefore = try await client.getUsersUserStatsWeekly(path: .init(user: Self.user), query: .init(date: "2026-11-24")).ok.body.json.totals
            let trainingBefore = try await client.getUsersUserTrainingWeek(path: .init(user: Self.user), query: .init(date: "2026-11-24")).ok.body.json

            try await server.kill()
            let queued = try await WorkedExample.recordWorkout(with: client, user: Self.user)
            #expect(queued == [1, 2, 3, 4, 5])
            #expect(await journal.status().pending.map(\.operation) == [
                "postUsersUserWorkouts", "postUsersUserWorkoutsWorkoutIdTrack", "postUsersUserWorkoutsWorkoutIdPause",
                "postUsersUserWorkoutsWorkoutIdResume", "postUsersUserWorkoutsWorkoutIdFinish",
            ])
            #expect(await journal.status().counts.retries > 0)

            try await server.restart()
            await journal.retryNow()
            await journal.drained()
            let status = await journal.status()
            #expect(status.pending.isEmpty && status.refused.isEmpty && status.counts.answered == 5)

            let stats = try await client.getUsersUserStatsWeekly(path: .init(user: Self.user), query: .init(date: "2026-11-24")).ok.body.json.totals
            #expect(stats.workouts == statsBefore.workouts + 1)
            #expect(stats.distanceMeters == statsBefore.distanceMeters + 5_000)
            let training = try await client.getUsersUserTrainingWeek(path: .init(user: Self.user), query: .init(date: "2026-11-24")).ok.body.json
            #expect(training.doneSessions == trainingBefore.doneSessions + 1)
            #expect(training.doneDistanceMeters == trainingBefore.doneDistanceMeters + 5_000)
        }
    }

    @Test("a command the server refuses while no call waits is kept with its problem until discarded; the next one is sent")
    func refusedCommandIsKeptAndTheNextGoesOn() async throws {
        try await withTemporaryDirectory { directory in try await ServerProcessTests.withDemoServer(users: 1, in: directory) { served in
            let file = URL(fileURLWithPath: directory + "/journal")
            let journal = try CommandJournal(file: file, answerWait: .zero)
            let client = Client(logbook: URL(string: served)!, tokens: FixedAccessToken(try await TokenKeys(secret: testSecret).token(user: Self.user)), journal: journal)
            for steps in [-5, 12_345] {
                await #expect(throws: (any Error).self) {
                    _ = try await client.putUsersUserGoalsDate(path: .init(user: Self.user, date: "2026-11-25"), body: .json(.init(steps: steps)))
                }
            }
            await journal.drained()
            let status = await journal.status()
            #expect(status.pending.isEmpty && status.counts.answered == 1 && status.counts.refused == 1)
            let refused = try #require(status.refused.first)
            #expect(refused.sequence == 1 && refused.refusal?.status == 422)
            #expect(refused.refusal?.problem.contains("steps") == true)
            let goals = try await client.getUsersUserGoalsWeek(path: .init(user: Self.user), query: .init(date: "2026-11-25")).ok.body.json
            #expect(goals.days.first { $0.date == "2026-11-25" }?.goal.steps == 12_345)

            await #expect(throws: CommandJournalError.noRefusedCommand(2)) { try await journal.discard(2) }
            try await journal.discard(1)
            await journal.stop()
            #expect(await journal.status().refused.isEmpty)
        } }
    }

    @Test("a full journal refuses a command with a typed error and writes nothing; a second journal on the file is refused")
    func limitsAndExclusiveUse() async throws {
        try await withTemporaryDirectory { directory in
            let file = URL(fileURLWithPath: directory + "/journal")
            let journal = try CommandJournal(file: file, limits: .init(commands: 2), answerWait: .zero)
            #expect(throws: CommandJournalError.inUse(file.path)) { _ = try CommandJournal(file: file) }
            let client = Client(logbook: URL(string: "http://127.0.0.1:9")!, tokens: FixedAccessToken("t"), journal: journal)
            var thrown: [String] = []
            for steps in [9_000, 9_500, 9_900] {
                do {
                    _ = try await client.putUsersUserDefaultGoal(path: .init(user: Self.user), body: .json(.init(steps: steps)))
                } catch {
                    thrown.append(CommandQueued.thrown(in: error).map { "queued \($0.sequence)" } ?? CommandJournalError.thrown(in: error).map { "\($0)" } ?? "\(error)")
                }
            }
            #expect(thrown.count == 3 && thrown[0] == "queued 1" && thrown[1] == "queued 2")
            #expect(thrown[2].hasPrefix("the command journal is full: 2 commands"))
            let bytes = await journal.status().fileBytes
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == bytes)
            await journal.stop()
            do {
                _ = try await client.putUsersUserDefaultGoal(path: .init(user: Self.user), body: .json(.init(steps: 1)))
                Issue.record("a stopped journal took a command")
            } catch {
                #expect(CommandJournalError.thrown(in: error) == .closed(file.path))
            }
        }
    }

    @Test("a last line cut short by a crash is dropped; a damaged line before the last is refused, naming it")
    func tornAndDamagedFiles() async throws {
        try await withTemporaryDirectory { directory in
            let file = URL(fileURLWithPath: directory + "/journal")
            do {
                let journal = try CommandJournal(file: file, answerWait: .zero)
                let client = Client(logbook: URL(string: "http://127.0.0.1:9")!, tokens: FixedAccessToken("t"), journal: journal)
                for steps in [9_000, 9_500] {
                    _ = try? await client.putUsersUserDefaultGoal(path: .init(user: Self.user), body: .json(.init(steps: steps)))
                }
                await journal.stop()
            }
            let whole = try Data(contentsOf: file)
            let lines = whole.split(separator: UInt8(ascii: "\n"))
            #expect(lines.count == 2)

            try (whole + lines[1].prefix(40)).write(to: file)
            let reopened = try await Self.reopen(file)
            #expect(await reopened.status().pending.map(\.sequence) == [1, 2])
            #expect(await reopened.status().fileBytes == whole.count)
            await reopened.stop()

            var damaged = whole
            damaged[damaged.startIndex + 30] ^= 0x01
            try damaged.write(to: file)
            await #expect(throws: CommandJournalError.damaged(file.path, line: 1)) { _ = try await Self.reopen(file) }
        }
    }

    /// Opens the journal at `file` just after this process closed it. A child process that
    /// another test starts in the meantime holds a copy of the closed descriptor, and with it the
    /// file's lock, until it runs its program (a few milliseconds on a loaded machine): a refusal
    /// as in use is tried again for up to five seconds; any other answer is final.
    static func reopen(_ file: URL) async throws -> CommandJournal {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let refusal: CommandJournalError
            do {
                return try CommandJournal(file: file)
            } catch {
                refusal = error
            }
            guard case .inUse = refusal, ContinuousClock.now < deadline else { throw refusal }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// The worked example of the LogbookClient article: a workout recorded while the server cannot be
/// reached. Each call is journaled and throws ``CommandQueued`` when its answer does not come in
/// time; the journal sends them, in order, once the server is back.
enum WorkedExample {
    /// Records a 5 km run on 2026-11-25 (start, a track of GPS points, a pause, a resume, the
    /// finish); answers the sequence numbers of the commands queued for later.
    static func recordWorkout(with client: Client, user: String) async throws -> [UInt64] {
        var queued: [UInt64] = []
        func send(_ command: () async throws -> Void) async throws {
            do {
                try await command()
            } catch {
                guard let later = CommandQueued.thrown(in: error) else { throw error }
                queued.append(later.sequence)
            }
        }
        let workout = Path(user: user, workoutId: "run-2026-11-25")
        try await send {
            _ = try await client.postUsersUserWorkouts(path: .init(user: user), body: .json(.init(
                activityType: .run, source: .init(kind: .manual), startedAt: "2026-11-25T07:00:00Z", workoutId: workout.workoutId))).created
        }
        try await send {
            _ = try await client.postUsersUserWorkoutsWorkoutIdTrack(path: .init(user: user, workoutId: workout.workoutId), body: .json(.init(samples: .init(
                heartRate: [120, 135, 142], latitudeE7: [525_200_000, 525_201_000, 525_202_000], longitudeE7: [134_050_000, 134_051_000, 134_052_000],
                offsetMillis: [0, 60_000, 120_000], points: 3)))).created
        }
        try await send {
            _ = try await client.postUsersUserWorkoutsWorkoutIdPause(path: .init(user: user, workoutId: workout.workoutId), body: .json(.init(at: "2026-11-25T07:12:00Z"))).created
        }
        try await send {
            _ = try await client.postUsersUserWorkoutsWorkoutIdResume(path: .init(user: user, workoutId: workout.workoutId), body: .json(.init(at: "2026-11-25T07:14:00Z"))).created
        }
        try await send {
            _ = try await client.postUsersUserWorkoutsWorkoutIdFinish(path: .init(user: user, workoutId: workout.workoutId), body: .json(.init(
                distanceMeters: 5_000, endedAt: "2026-11-25T07:32:00Z", movingSeconds: 1_800))).created
        }
        return queued
    }

    private struct Path {
        var user: String
        var workoutId: String
    }
}
