import EventLogLMDB
import DemoData
import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

@Suite("Stream and subject indexes against a model of the log")
struct IndexPropertyTests {
    @Test("random histories: every stream and subject read equals the same read of the whole log", arguments: [1, 2, 3])
    func readsMatchModel(seed: UInt64) async throws {
        try await withStore { store, _ in
            var random = SplitMix64(seed: seed)
            var requests: [AppendRequest] = []
            for _ in 0..<1500 {
                let stream = "s-\(random.next() % 20)"
                let count = Int(1 + random.next() % 3)
                let events = (0..<count).map { _ in
                    testEvent(subject: random.next() % 8 == 0 ? nil : "u-\(random.next() % 7)")
                }
                requests.append(AppendRequest(stream: stream, events: events))
                if requests.count == 100 || random.next() % 10 == 0 {
                    for result in try await store.append(batch: requests) { _ = try result.get() }
                    requests.removeAll()
                }
            }
            for result in try await store.append(batch: requests) { _ = try result.get() }
            let log = try await store.readAll(from: 1, direction: .forward, limit: 1_000_000, filter: .all).events
            let head = UInt64(log.count)

            for _ in 0..<150 {
                let stream = "s-\(random.next() % 21)"
                let model = log.filter { $0.stream == stream }
                let from = random.next() % UInt64(model.count + 3)
                let limit = Int(1 + random.next() % 40)
                let forward = try await store.readStream(stream, from: from, direction: .forward, limit: limit)
                #expect(forward.map(\.position) == Array(model.dropFirst(Int(from)).prefix(limit)).map(\.position))
                let backward = try await store.readStream(stream, from: from, direction: .backward, limit: limit)
                let expectedBackward = model.filter { $0.streamVersion <= from }.reversed().prefix(limit)
                #expect(backward.map(\.position) == expectedBackward.map(\.position))

                let subject = "u-\(random.next() % 8)"
                let timeline = log.filter { $0.subject == subject }
                let position = Position(1 + random.next() % (head + 2))
                let after = try await store.readSubject(subject, from: position, direction: .forward, limit: limit)
                #expect(after.map(\.position) == timeline.filter { $0.position >= position }.prefix(limit).map(\.position))
                let before = try await store.readSubject(subject, from: position, direction: .backward, limit: limit)
                #expect(before.map(\.position) == timeline.filter { $0.position <= position }.reversed().prefix(limit).map(\.position))
            }
        }
    }
}
