import DemoData
import Foundation
import LogbookClient
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Testing

/// LogbookClient's ``QueryCache`` kept current by an ``EventFollower``: after seeded random
/// commands, from the cache's own client and from another device of the same user, every cached
/// read equals a fresh read from the server.
@Suite("Client cache following the user's events")
struct FollowedCacheTests {
    static let user = "u-1000"

    /// A read, as the cached client and a fresh one each answer it.
    struct Read: Sendable {
        var name: String
        var run: @Sendable (Client) async throws -> AnyHashable
    }

    static let reads: [Read] = [
        Read(name: "profile") { try await $0.getUsersUserProfile(path: .init(user: user)).ok.body.json },
        Read(name: "stats/weekly") { try await $0.getUsersUserStatsWeekly(path: .init(user: user), query: .init(date: "2026-10-28")).ok.body.json },
        Read(name: "stats/period") { try await $0.getUsersUserStatsPeriod(path: .init(user: user), query: .init(from: "2026-10-20", to: "2026-11-02")).ok.body.json },
        Read(name: "goals/week") { try await $0.getUsersUserGoalsWeek(path: .init(user: user), query: .init(date: "2026-10-28")).ok.body.json },
        Read(name: "goals/streaks") { try await $0.getUsersUserGoalsStreaks(path: .init(user: user), query: .init(day: "2026-11-01")).ok.body.json },
        Read(name: "activities") { try await $0.getUsersUserActivities(path: .init(user: user)).ok.body.json },
        Read(name: "calendar") { try await $0.getUsersUserCalendar(path: .init(user: user), query: .init(month: "2026-10")).ok.body.json },
        Read(name: "records") { try await $0.getUsersUserRecords(path: .init(user: user)).ok.body.json },
        Read(name: "collectibles") { try await $0.getUsersUserCollectibles(path: .init(user: user)).ok.body.json },
        Read(name: "training/load") { try await $0.getUsersUserTrainingLoad(path: .init(user: user), query: .init(from: "2026-10-20", to: "2026-11-02")).ok.body.json },
        Read(name: "training/week") { try await $0.getUsersUserTrainingWeek(path: .init(user: user), query: .init(date: "2026-10-28", today: "2026-10-30")).ok.body.json },
        Read(name: "places/saved") { try await $0.getUsersUserPlacesSaved(path: .init(user: user), query: .init(category: .restaurant)).ok.body.json },
    ]

    /// One of the commands the test makes at random (errors are the server's refusals, which change nothing).
    static func command(_ number: Int, _ random: inout SplitMix64, with client: Client) async {
        let day = "2026-10-\(26 + Int.random(in: 0...5, using: &random))"
        let workout = "fc-\(number)"
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            _ = try? await client.postUsersUserSteps(path: .init(user: user), body: .json(.init(samples: [
                .init(count: Int.random(in: 100...5_000, using: &random), end: "\(day)T10:\(10 + number % 40):30Z", source: "fc\(number)", start: "\(day)T10:\(10 + number % 40):00Z"),
            ])))
        case 1:
            _ = try? await client.putUsersUserGoalsDate(path: .init(user: user, date: day), body: .json(.init(steps: Int.random(in: 4_000...20_000, using: &random))))
        case 2:
            _ = try? await client.deleteUsersUserGoalsDate(path: .init(user: user, date: day))
        case 3:
            _ = try? await client.putUsersUserDefaultGoal(path: .init(user: user), body: .json(.init(steps: Int.random(in: 4_000...20_000, using: &random))))
        case 4, 5:
            let hour = 5 + number % 12
            _ = try? await client.postUsersUserWorkouts(path: .init(user: user), body: .json(.init(
                activityType: .run, source: .init(kind: .manual), startedAt: "\(day)T\(hour < 10 ? "0" : "")\(hour):00:00Z", workoutId: workout)))
            _ = try? await client.postUsersUserWorkoutsWorkoutIdFinish(path: .init(user: user, workoutId: workout), body: .json(.init(
                distanceMeters: Int.random(in: 1_000...15_000, using: &random), endedAt: "\(day)T\(hour < 10 ? "0" : "")\(hour):45:00Z", movingSeconds: 2_400)))
        case 6:
            _ = try? await client.patchUsersUserProfile(path: .init(user: user), body: .json(.init(
                displayName: "Runner \(number)", weekStart: Bool.random(using: &random) ? .monday : .sunday)))
        default:
            _ = try? await client.postUsersUserPlacesPlaceIdSwipe(path: .init(user: user, placeId: "p-r\(1 + number % 5)"), body: .json(.init(direction: .right)))
        }
    }

    @Test("after seeded random commands from this client and another device, every cached read equals a fresh read", arguments: KilledBackend.allCases)
    func cachedReadsEqualFreshReads(backend: KilledBackend) async throws {
        try await withTemporaryDirectory { directory in
            let server = try await KilledServer.start(try await backend.serveArguments(in: directory))
            defer { server.stop() }
            let base = try #require(URL(string: server.base))
            let token = FixedAccessToken(try await server.register(Self.user))
            let cache = QueryCache()
            let client = Client(logbook: base, tokens: token, cache: cache)
            let follower = EventFollower(user: Self.user, client: client, cache: cache, linger: .milliseconds(20))
            await follower.start()
            // Another device of the same user, and a client that never caches.
            let otherCache = QueryCache()
            let otherDevice = Client(logbook: base, tokens: token, cache: otherCache)
            let fresh = Client(logbook: base, tokens: token)

            let seed = UInt64.random(in: 1...UInt64.max)
            var random = SplitMix64(seed: seed)
            for read in Self.reads { _ = try await read.run(client) }
            for number in 0..<60 {
                let fromHere = Bool.random(using: &random)
                await Self.command(number, &random, with: fromHere ? client : otherDevice)
                let position = fromHere ? await cache.status().ownPosition : await otherCache.status().ownPosition
                await follower.caughtUp(to: position)
                for read in Self.reads where Bool.random(using: &random) {
                    let cached = try await read.run(client)
                    let expected = try await read.run(fresh)
                    #expect(cached == expected, "seed \(seed), command \(number): \(read.name) differs from a fresh read")
                }
            }
            let status = await cache.status()
            await follower.stop()
            // The cache answered from itself, and events changed answers: the comparison was not vacuous.
            #expect(status.counts.current > 20 && status.counts.changedByEvents > 20, "\(status.counts)")
            #expect(status.followerLive)
        }
    }
}
