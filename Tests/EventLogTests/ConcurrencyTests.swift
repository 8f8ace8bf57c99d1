import EventLogLMDB
import DemoData
import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

@Suite("Concurrent appenders and subscribers")
struct ConcurrencyTests {
    /// What one appender tried and what it got.
    struct Attempt: Sendable {
        let stream: String
        let expected: ExpectedVersion
        let ids: [UUID]
        let result: Result<AppendResult, EventStoreError>
    }

    @Test("64 concurrent appenders with random expected versions: conflicts exactly where they must be, positions gapless")
    func randomExpectedVersions() async throws {
        try await withStore { store, _ in
            let streams = (0..<6).map { "race-\($0)" }
            let attempts = try await withThrowingTaskGroup(of: [Attempt].self) { group in
                for appender in 0..<64 {
                    group.addTask {
                        var random = SplitMix64(seed: UInt64(appender) + 1)
                        var attempts: [Attempt] = []
                        for _ in 0..<12 {
                            let stream = streams[Int(random.next() % UInt64(streams.count))]
                            let current = try await store.streamVersion(stream)
                            let expected: ExpectedVersion = switch random.next() % 5 {
                            case 0: .any
                            case 1: .noStream
                            case 2: .streamExists
                            case 3: .exactly(current ?? 0)
                            default: .exactly(random.next() % 8)
                            }
                            let events = (0..<Int(1 + random.next() % 3)).map { _ in testEvent("from \(appender)") }
                            let result: Result<AppendResult, EventStoreError>
                            do {
                                result = .success(try await store.append(events, to: stream, expectedVersion: expected))
                            } catch let error as EventStoreError {
                                result = .failure(error)
                            }
                            attempts.append(Attempt(stream: stream, expected: expected, ids: events.map(\.eventId), result: result))
                        }
                        return attempts
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }

            var written = 0
            var conflicts = 0
            for attempt in attempts {
                switch attempt.result {
                case .success(let result):
                    written += attempt.ids.count
                    let stored = try await store.readStream(
                        attempt.stream, from: result.streamVersion + 1 - UInt64(attempt.ids.count), direction: .forward,
                        limit: attempt.ids.count)
                    #expect(stored.map(\.eventId) == attempt.ids, "the append's events are not where its result says")
                    #expect(stored.first?.position == result.firstPosition)
                    let firstVersion = result.streamVersion + 1 - UInt64(attempt.ids.count)
                    switch attempt.expected {
                    case .any: break
                    case .noStream: #expect(firstVersion == 0)
                    case .streamExists: #expect(firstVersion > 0)
                    case .exactly(let version): #expect(firstVersion == version + 1)
                    }
                case .failure(let error) where error.code == .wrongExpectedVersion:
                    let (stream, actual) = (error.stream, error.actualVersion)
                    let expected = try #require(error.expectedVersion)
                    conflicts += 1
                    #expect(stream == attempt.stream)
                    #expect(expected == attempt.expected)
                    switch expected {
                    case .any: Issue.record("an append with expected version any conflicted")
                    case .noStream: #expect(actual != nil)
                    case .streamExists: #expect(actual == nil)
                    case .exactly(let version): #expect(actual != version)
                    }
                case .failure(let error):
                    Issue.record("unexpected error \(error)")
                }
            }
            #expect(conflicts > 0, "the race produced no conflicts; the test proves nothing")
            #expect(try await store.headPosition() == Position(UInt64(written)))
            let all = try await store.readAll(from: 1, direction: .forward, limit: 100_000, filter: .all)
            #expect(all.events.map(\.position.rawValue) == Array(1...UInt64(written)))
            for stream in streams {
                let events = try await store.readStream(stream, from: 0, direction: .forward, limit: 100_000)
                #expect(events.map(\.streamVersion) == Array(0..<UInt64(events.count)))
            }
        }
    }

    @Test("a subscription sees every event once, in order, while 8 writers append across catch-up and live")
    func subscriptionUnderConcurrentWriters() async throws {
        try await withStore({ $0.subscriptionChunkSize = 64 }) { store, _ in
            let backlog = 3000
            let requests = (0..<backlog).map { AppendRequest(stream: "old-\($0 % 7)", events: [testEvent("old \($0)")]) }
            for result in try await store.append(batch: requests) { _ = try result.get() }
            let perWriter = 400
            let total = backlog + 8 * perWriter
            let subscriber = Task {
                var positions: [UInt64] = []
                var ids = Set<UUID>()
                for try await element in store.subscribe(after: .start) {
                    guard let event = element.event else { continue }
                    positions.append(event.position.rawValue)
                    ids.insert(event.eventId)
                    if positions.count == total { break }
                }
                return (positions, ids)
            }
            let appended = try await withThrowingTaskGroup(of: [UUID].self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        var ids: [UUID] = []
                        for i in 0..<perWriter {
                            let event = testEvent("w\(writer) \(i)")
                            _ = try await store.append([event], to: "live-\(writer)")
                            ids.append(event.eventId)
                        }
                        return ids
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let (positions, ids) = try await subscriber.value
            #expect(positions == Array(1...UInt64(total)))
            #expect(Set(appended).isSubset(of: ids))
        }
    }

    @Test("cancelling a waiting subscription ends it and frees its waiter")
    func cancellation() async throws {
        try await withStore { store, _ in
            _ = try await store.append([testEvent()], to: "s")
            let task = Task {
                var count = 0
                for try await _ in store.subscribe(after: .start) { count += 1 }
                return count
            }
            try await Task.sleep(for: .milliseconds(50))
            task.cancel()
            let outcome = await task.result
            switch outcome {
            case .success(let count): #expect(count == 1)
            case .failure(let error): #expect(error is CancellationError)
            }
            _ = try await store.append([testEvent()], to: "s")
        }
    }

    @Test("closing the store ends live subscriptions")
    func closeEndsSubscriptions() async throws {
        try await withTemporaryDirectory { path in
            let store = try LMDBEventStore(path: path)
            _ = try await store.append([testEvent()], to: "s")
            let task = Task {
                var count = 0
                for try await _ in store.subscribe(after: .start) { count += 1 }
                return count
            }
            try await Task.sleep(for: .milliseconds(50))
            await store.close()
            #expect(try await task.value == 1)
            await #expect(throws: EventStoreError.closed) { try await store.append([testEvent()], to: "s") }
        }
    }

    @Test("point reads on 4 tasks, while a writer keeps adding new streams, subjects and types, always name them right (names remembered across reads)")
    func pointReadsNameEveryEvent() async throws {
        try await withTemporaryDirectory { path in
            let store = try LMDBEventStore(path: path)
            // Each event's payload says which stream, subject and type it was appended with.
            func event(_ n: Int) -> (stream: String, event: ProposedEvent) {
                let names = (stream: "stream-\(n % 97)-of-a-name-too-long-to-be-a-small-string", subject: n % 5 == 0 ? nil : "u-\(n % 41)", type: "t.\(n % 13)")
                return (names.stream, testEvent("\(names.stream)|\(names.subject ?? "-")|\(names.type)", type: names.type, subject: names.subject))
            }
            func check(_ recorded: RecordedEvent) {
                #expect(recorded.text == "\(recorded.stream)|\(recorded.subject ?? "-")|\(recorded.type)", "position \(recorded.position)")
            }
            for n in 0..<200 {
                let (stream, proposed) = event(n)
                _ = try await store.append([proposed], to: stream)
            }
            let total = 1_200
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for n in 200..<total {
                        let (stream, proposed) = event(n)
                        _ = try await store.append([proposed], to: stream)
                    }
                }
                for reader in 0..<4 {
                    group.addTask {
                        var random = SplitMix64(seed: UInt64(reader + 1))
                        for _ in 0..<2_000 {
                            let head = try await store.headPosition().rawValue
                            let position = Position(random.next() % head + 1)
                            let recorded = try #require(try await store.event(at: position))
                            check(recorded)
                        }
                    }
                }
                try await group.waitForAll()
            }
            for position in 1...UInt64(total) {
                check(try #require(try await store.event(at: Position(position))))
            }
            await store.close()
        }
    }
}
