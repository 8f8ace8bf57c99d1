import Foundation
import HTTPTypes
import LogbookClient
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import OpenAPIRuntime
import Testing

/// LogbookClient's ``QueryCache`` against a real `logbook serve`: what reaches the server is
/// recorded by a middleware behind the cache.
@Suite("Client query cache")
struct QueryCacheTests {
    @Test("a repeated read is revalidated (304) and answers the same; after the user's command the next read carries its position and sees it")
    func repeatedReadsRevalidateAndOwnWritesShow() async throws {
        try await withTemporaryDirectory { directory in try await ServerProcessTests.withDemoServer(users: 2, in: directory) { served in
            let base = try #require(URL(string: served))
            let sent = SentRequests()
            let cache = QueryCache()
            let client = Client(logbook: base, tokens: FixedAccessToken(try await TokenKeys(secret: testSecret).token(user: "u-1000")),
                                cache: cache, middlewares: [sent])
            let read = { try await client.getUsersUserGoalsWeek(path: .init(user: "u-1000"), query: .init(date: "2026-10-28")).ok.body.json }

            let first = try await read()
            let second = try await read()
            #expect(first.days.map(\.goal.steps) == second.days.map(\.goal.steps))
            var seen = await sent.all
            #expect(seen.map(\.status) == [200, 304])
            #expect(seen[0].ifNoneMatch == nil && seen[1].ifNoneMatch != nil)

            let goal = try await client.putUsersUserGoalsDate(path: .init(user: "u-1000", date: "2026-10-28"), body: .json(.init(steps: 23_456)))
            _ = try goal.created
            let position = await cache.status().ownPosition
            #expect(position > 0)
            let third = try await read()
            #expect(third.days.first { $0.date == "2026-10-28" }?.goal.steps == 23_456)
            seen = await sent.all
            #expect(seen.last?.status == 200)
            #expect(seen.last?.minimumPosition == "\(position)")

            let status = await cache.status()
            #expect(status.counts.fetched == 2 && status.counts.notModified == 1)
            #expect(status.entries.count == 1 && status.entries[0].revalidations == 1 && status.entries[0].bytes > 0)
            #expect(status.entries[0].path.hasSuffix("/users/u-1000/goals/week?date=2026-10-28"))
        } }
    }

    @Test("identical reads in flight together send one request and share its answer; different reads each send their own")
    func identicalReadsShareOneRequest() async throws {
        try await withTemporaryDirectory { directory in try await ServerProcessTests.withDemoServer(users: 2, in: directory) { served in
            let base = try #require(URL(string: served))
            let cache = QueryCache()
            // The first request waits until seven twins wait for it, so all eight are in flight together.
            let sent = SentRequests(holdFirstUntil: { await cache.status().waiting >= 7 })
            let client = Client(logbook: base, tokens: FixedAccessToken(try await TokenKeys(secret: testSecret).token(user: "u-1000")),
                                cache: cache, middlewares: [sent])
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await client.getUsersUserStatsWeekly(path: .init(user: "u-1000"), query: .init(date: "2026-10-28")).ok.body.json.steps }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(Set(answers).count == 1 && answers.count == 8)
            #expect(await sent.all.count == 1)
            #expect(await cache.status().counts.joined == 7)

            _ = try await client.getUsersUserStatsWeekly(path: .init(user: "u-1000"), query: .init(date: "2026-10-21")).ok
            #expect(await sent.all.count == 2)
        } }
    }

    @Test("the cache keeps at most its limit of answers, dropping the one used longest ago")
    func cacheStaysWithinItsLimits() async throws {
        try await withTemporaryDirectory { directory in try await ServerProcessTests.withDemoServer(users: 2, in: directory) { served in
            let base = try #require(URL(string: served))
            let cache = QueryCache(limits: .init(entries: 2))
            let client = Client(logbook: base, tokens: FixedAccessToken(try await TokenKeys(secret: testSecret).token(user: "u-1000")), cache: cache)
            for date in ["2026-10-07", "2026-10-14", "2026-10-07", "2026-10-21"] {
                _ = try await client.getUsersUserStatsWeekly(path: .init(user: "u-1000"), query: .init(date: date)).ok
            }
            let status = await cache.status()
            // 10-14 was used longest ago when 10-21 came.
            #expect(status.entries.map { String($0.path.suffix(10)) } == ["2026-10-07", "2026-10-21"])
            #expect(status.counts.evicted == 1 && status.counts.notModified == 1)
        } }
    }
}

/// Records what reaches the server behind the cache: status, and the conditional and position
/// headers sent. Optionally holds the first request until a condition holds (bounded: 10 s).
private actor SentRequests: ClientMiddleware {
    struct Sent: Sendable {
        var status: Int
        var ifNoneMatch: String?
        var minimumPosition: String?
    }

    private(set) var all: [Sent] = []
    private let holdFirstUntil: (@Sendable () async -> Bool)?
    private var held = false

    init(holdFirstUntil: (@Sendable () async -> Bool)? = nil) { self.holdFirstUntil = holdFirstUntil }

    private func record(_ sent: Sent) { all.append(sent) }

    private func shouldHold() -> Bool {
        defer { held = true }
        return !held && holdFirstUntil != nil
    }

    nonisolated func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if await shouldHold(), let condition = holdFirstUntil {
            let deadline = ContinuousClock.now + .seconds(10)
            while !(await condition()), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        }
        let answer = try await next(request, body, baseURL)
        if request.method == .get {
            await record(Sent(status: answer.0.status.code, ifNoneMatch: request.headerFields[.ifNoneMatch],
                              minimumPosition: request.headerFields[HTTPField.Name("X-Logbook-Min-Position")!]))
        }
        return answer
    }
}
