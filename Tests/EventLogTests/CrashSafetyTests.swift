import EventLogLMDB
import EventLog
import Foundation
import LogbookTestSupport
import LogbookTesting
import Synchronization
import Testing

@Suite("Crash safety and other processes", .serialized)
struct CrashSafetyTests {
    @Test("SIGKILL at random moments loses no acknowledged append and leaves a gapless log")
    func killedWriterLosesNothingAcknowledged() async throws {
        try await withTemporaryDirectory { path in
            var random = SystemRandomNumberGenerator()
            var allAcks: [AppendingChild.Ack] = []
            for round in 0..<5 {
                let child = try AppendingChild(path: path, writers: 4)
                // Let it run until it has acknowledged something, then a random while longer.
                let deadline = ContinuousClock.now + .seconds(30)
                while child.acks.count < 20, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...300, using: &random)))
                child.kill()
                try await Task.sleep(for: .milliseconds(20))
                let acks = child.acks
                #expect(acks.count >= 20, "round \(round): the child acknowledged too little to test anything")
                allAcks += acks

                let store = try LMDBEventStore(path: path)
                let head = try await store.headPosition()
                var seen = 0
                var previous: UInt64 = 0
                try store.scan { envelope, _, _ in
                    #expect(envelope.position.rawValue == previous + 1, "gap after \(previous)")
                    previous = envelope.position.rawValue
                    seen += 1
                    return true
                }
                #expect(UInt64(seen) == head.rawValue)
                for ack in allAcks {
                    let event = try await store.event(at: Position(ack.position))
                    #expect(event?.eventId == ack.eventId, "acknowledged append at \(ack.position) is missing")
                }
                await store.close()
            }
        }
    }

    @Test("another process reads the log consistently while this one writes")
    func readerProcessWhileWriting() async throws {
        try await withTemporaryDirectory { path in
            // The child writes; this process is the second one, reading read-only meanwhile.
            let child = try AppendingChild(path: path, writers: 2)
            defer { child.kill() }
            let deadline = ContinuousClock.now + .seconds(30)
            while child.acks.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            var configuration = LogConfiguration()
            configuration.readOnly = true
            let reader = try LMDBEventStore(path: path, configuration: configuration)
            var lastHead: UInt64 = 0
            var reads = 0
            while reads < 20 {
                let page = try await reader.readAll(from: 1, direction: .forward, limit: 100_000, filter: .all)
                let positions = page.events.map(\.position.rawValue)
                #expect(positions.isEmpty || positions == Array(1...UInt64(positions.count)), "a gap in what the reader saw")
                #expect(UInt64(positions.count) >= lastHead, "the log shrank")
                lastHead = UInt64(positions.count)
                reads += 1
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(lastHead > 0)
            // A subscription in the reading process sees what the other process appends.
            var iterator = reader.subscribe(after: Position(lastHead)).makeAsyncIterator()
            let next = try await iterator.next()
            #expect(next?.event?.position == Position(lastHead + 1))
            await reader.close()
        }
    }
}
