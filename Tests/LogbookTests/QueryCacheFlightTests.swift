import EventLog
@testable import LogbookDomain
import Testing

/// The query cache's single flight and invalidation, driven by hand: a computation is shared only
/// with requests that arrive before any commit makes it stale.
@Suite("Query cache: single flight and invalidation")
struct QueryCacheFlightTests {
    @Test("a request after an invalidation does not join a computation started before it, and the stale one is not kept",
          .timeLimit(.minutes(10)))
    func noStaleJoin() async throws {
        let cache = QueryCache(maxEntries: 100, maxBytes: 1 << 20)
        let key = QueryCache.Key(query: .stats, user: "a", parameters: "week")
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let old = Task {
            try await cache.value(key, bytes: { (_: String) in 1 }) {
                startedSignal.yield()
                for await _ in release { break }
                return "before the commit"
            }
        }
        for await _ in started { break }
        var summary = CommitSummary(position: 7)
        summary.users["a"] = EventTypeSet([.stepsRecorded])
        cache.invalidate(summary)
        // Before the fix this joined the computation above and waited for its stale answer.
        let fresh = try await cache.value(key, bytes: { (_: String) in 1 }) { "after the commit" }
        #expect(fresh == "after the commit")
        releaseSignal.yield()
        #expect(try await old.value == "before the commit")
        #expect(try await cache.value(key, bytes: { (_: String) in 1 }) { "computed again" } == "after the commit")
    }

    @Test("requests with no commit in between share one computation", .timeLimit(.minutes(10)))
    func sharedWithoutCommit() async throws {
        let cache = QueryCache(maxEntries: 100, maxBytes: 1 << 20)
        let key = QueryCache.Key(query: .stats, user: "a", parameters: "week")
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await cache.value(key, bytes: { (_: String) in 1 }) {
                startedSignal.yield()
                for await _ in release { break }
                return "shared"
            }
        }
        for await _ in started { break }
        // A commit for another user, or of a type stats do not read, changes nothing.
        var summary = CommitSummary(position: 8)
        summary.users["b"] = EventTypeSet([.stepsRecorded])
        summary.users["a"] = EventTypeSet([.placeSwiped])
        cache.invalidate(summary)
        let second = Task { try await cache.value(key, bytes: { (_: String) in 1 }) { "not shared" } }
        // The second request has joined once it is counted as a miss (it counts before it joins);
        // waiting for that, not for a while, holds however slowly the test's tasks are scheduled.
        func counters() -> CacheStatus { cache.status().first { $0.name == key.query.name }! }
        while counters().misses < 2 { await Task.yield() }
        releaseSignal.yield()
        #expect(try await first.value == "shared")
        #expect(try await second.value == "shared")
        #expect(counters().computed == 1, "one computation served both")
    }
}
