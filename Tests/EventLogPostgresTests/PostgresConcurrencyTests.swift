import EventLog
import EventLogPostgres
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// Several servers on one log: positions stay gapless and in commit order, conflicts happen
/// exactly where they must, and a commit on one server wakes the others' subscriptions.
@Suite("PostgreSQL log: several writers", .serialized, .timeLimit(.minutes(10)))
struct PostgresConcurrencyTests {
    @Test("64 writers on two servers racing on shared streams: gapless positions, gapless versions, every conflict real")
    func racingWritersOnTwoServers() async throws {
        try await withPostgresStore { first, url in
            let second = try await connect(url)
            let stores = [first, second]
            var written: [AppendResult] = []
            var conflicts = 0
            try await withThrowingTaskGroup(of: ([AppendResult], Int).self) { group in
                for writer in 0..<64 {
                    group.addTask {
                        let store = stores[writer % 2]
                        var written: [AppendResult] = []
                        var conflicts = 0
                        for round in 0..<15 {
                            let stream = "shared-\((writer + round) % 5)"
                            // Half the appends pin the version they just read, so some must conflict.
                            var expected = ExpectedVersion.any
                            if round % 2 == 0 { expected = try await store.streamVersion(stream).map { .exactly($0) } ?? .noStream }
                            do {
                                written.append(try await store.append([testEvent("\(writer)-\(round)")], to: stream, expectedVersion: expected))
                            } catch let error as EventStoreError where error.code == .wrongExpectedVersion {
                                conflicts += 1
                            }
                        }
                        return (written, conflicts)
                    }
                }
                for try await (mine, refused) in group {
                    written += mine
                    conflicts += refused
                }
            }
            #expect(written.count + conflicts == 64 * 15)
            #expect(conflicts > 0, "racing exact expectations never conflicted")
            let head = try await first.headPosition()
            #expect(head.rawValue == UInt64(written.count))
            #expect(Set(written.map(\.firstPosition.rawValue)) == Set(1...head.rawValue))
            var positions: [UInt64] = []
            try await second.scan(after: .start, through: nil, filter: .all, chunkSize: 100) { envelope, _, _ in
                positions.append(envelope.position.rawValue)
                return true
            }
            #expect(positions == Array(1...head.rawValue))
            for index in 0..<5 {
                let versions = try await first.readStream("shared-\(index)", from: 0, direction: .forward, limit: 10_000).map(\.streamVersion)
                #expect(versions == Array(0..<UInt64(versions.count)))
            }
            #expect((second.statistics?.transactions ?? 0) > 0)
            await second.close()
        }
    }

    @Test("a commit on one server wakes a subscription on another through NOTIFY, long before the poll")
    func notificationsCrossServers() async throws {
        try await withPostgresStore({ $0.pollInterval = .seconds(600) }) { listener, url in
            let writer = try await connect(url) { $0.pollInterval = .seconds(600) }
            var iterator = listener.subscribe(after: .start).makeAsyncIterator()
            let started = ContinuousClock.now
            let written = try await writer.append([testEvent("hello")], to: "s")
            let element = try await iterator.next()
            #expect(element?.event?.position == written.firstPosition)
            // Far below the 10-minute poll, far above a loaded machine's wake-up (1–2 s when quiet).
            #expect(ContinuousClock.now - started < .seconds(120))
            await writer.close()
        }
    }

    @Test("writer processes killed with SIGKILL mid-append lose no acknowledged event; positions stay gapless")
    func killedWritersLoseNothing() async throws {
        let url = try await TestPostgres.freshDatabase()
        // Create the schema before two processes race to do it.
        await (try await connect(url)).close()
        var acknowledged: [AppendingChild.Ack] = []
        for round in 0..<3 {
            let children = try (0..<2).map { index in
                try AppendingChild(arguments: ["--postgres", url, "--writers", "8", "--name", "p\(index)"])
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while children.contains(where: { $0.acks.count < 30 }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...200)))
            for child in children { child.kill() }
            let acks = children.flatMap(\.acks)
            #expect(children.allSatisfy { $0.acks.count >= 30 }, "round \(round): a child acknowledged too little")
            acknowledged += acks
        }
        let store = try await connect(url)
        let head = try await store.headPosition()
        var previous: UInt64 = 0
        try await store.scan(after: .start, through: nil, filter: .all, chunkSize: 500) { envelope, _, _ in
            #expect(envelope.position.rawValue == previous + 1, "gap after \(previous)")
            previous = envelope.position.rawValue
            return true
        }
        #expect(previous == head.rawValue)
        let locations = try await store.locations(ofEvents: acknowledged.map(\.eventId))
        for (ack, location) in zip(acknowledged, locations) {
            #expect(location?.position.rawValue == ack.position, "acknowledged event \(ack.eventId) at \(ack.position) is missing")
        }
        await store.close()
    }
}
