import EventLogLMDB
import EventLog
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

@Suite("Durability and integrity of the LMDB log")
struct DurabilityTests {
    @Test("events survive closing and reopening, and the writer resumes the heads")
    func reopen() async throws {
        try await withTemporaryDirectory { path in
            let store = try LMDBEventStore(path: path)
            for i in 0..<30 { _ = try await store.append([testEvent("\(i)", subject: "u-\(i % 2)")], to: "s-\(i % 3)") }
            await store.close()
            let reopened = try LMDBEventStore(path: path)
            #expect(try await reopened.headPosition() == 30)
            let result = try await reopened.append([testEvent("after")], to: "s-0", expectedVersion: .exactly(9))
            #expect(result.streamVersion == 10)
            #expect(result.firstPosition == 31)
            let stream = try await reopened.readStream("s-0", from: 0, direction: .forward, limit: 100)
            #expect(stream.map(\.text) == stride(from: 0, to: 30, by: 3).map(String.init) + ["after"])
            let timeline = try await reopened.readSubject("u-0", from: 1, direction: .forward, limit: 100)
            #expect(timeline.count == 15)
            await reopened.close()
        }
    }

    @Test("an event whose UTC offset is beyond ±18:00, up to Int32's ends, is an invalid timestamp naming it, and nothing is written; ±18:00 is appended")
    func offsetsBeyondTheRangeRefused() async throws {
        try await withTemporaryDirectory { path in
            let store = try LMDBEventStore(path: path)
            for offset in [Timestamp.maxOffsetSeconds + 1, -Timestamp.maxOffsetSeconds - 1, .max, .min] {
                let at = Timestamp(microsecondsSinceEpoch: 1_000_000, utcOffsetSeconds: offset)
                let occurred = ProposedEvent(type: "t", occurredAt: at, payload: [1])
                let recorded = ProposedEvent(type: "t", occurredAt: Timestamp(microsecondsSinceEpoch: 1_000_000), recordedAt: at, payload: [1])
                for event in [occurred, recorded] {
                    let results = try await store.append(batch: [AppendRequest(stream: "s", events: [event])])
                    guard case .failure(let error) = results.first else {
                        Issue.record("an offset of \(offset) s was appended")
                        continue
                    }
                    #expect(error.code == .invalidTimestamp && error.description.contains(event.header.eventId.uuidString.lowercased()), "\(error)")
                }
            }
            #expect(try await store.headPosition() == 0)
            // ±18:00 itself is in range, for either time.
            for offset in [Timestamp.maxOffsetSeconds, -Timestamp.maxOffsetSeconds] {
                let at = Timestamp(microsecondsSinceEpoch: 1_000_000, utcOffsetSeconds: offset)
                _ = try await store.append([ProposedEvent(type: "t", occurredAt: at, recordedAt: at, payload: [1])], to: "s")
            }
            #expect(try await store.headPosition() == 2)
            await store.close()
        }
    }

    @Test("a retry after a restart is still recognised: the id index is on disk")
    func idempotencyAcrossRestart() async throws {
        try await withTemporaryDirectory { path in
            let events = [testEvent("a"), testEvent("b")]
            let store = try LMDBEventStore(path: path)
            let original = try await store.append(events, to: "s", expectedVersion: .any)
            await store.close()
            let reopened = try LMDBEventStore(path: path)
            let retry = try await reopened.append(events, to: "s", expectedVersion: .any)
            #expect(retry.alreadyWritten)
            #expect(retry.firstPosition == original.firstPosition && retry.lastPosition == original.lastPosition)
            #expect(try await reopened.headPosition() == 2)
            await reopened.close()
        }
    }

    @Test("a flipped byte in a stored record is a corruption error naming its position")
    func checksumCatchesCorruption() async throws {
        try await withTemporaryDirectory { path in
            let marker = "MARKER-0123456789-ABCDEFGHIJ"
            let store = try LMDBEventStore(path: path)
            _ = try await store.append([testEvent("first")], to: "s")
            _ = try await store.append([testEvent(marker)], to: "s")
            _ = try await store.append([testEvent("third")], to: "s")
            await store.close()

            let file = URL(fileURLWithPath: path).appendingPathComponent("data.mdb")
            var data = try Data(contentsOf: file)
            // Copy-on-write leaves older copies of the page in the file: flip the byte in each.
            var searchFrom = data.startIndex
            var flipped = 0
            while let range = data.range(of: Data(marker.utf8), in: searchFrom..<data.endIndex) {
                data[range.lowerBound + 7] ^= 0x01
                searchFrom = range.upperBound
                flipped += 1
            }
            #expect(flipped >= 1)
            try data.write(to: file)

            let reopened = try LMDBEventStore(path: path)
            #expect(try await reopened.event(at: 1)?.text == "first")
            do {
                _ = try await reopened.event(at: 2)
                Issue.record("a corrupt record was read")
            } catch let error as EventStoreError where error.code == .corruption {
                let (position, reason) = (error.position, error.reason)
                #expect(position == 2)
                #expect(reason.contains("checksum"))
            }
            do {
                _ = try await reopened.readStream("s", from: 0, direction: .forward, limit: 10)
                Issue.record("a stream read returned a corrupt record")
            } catch let error as EventStoreError where error.code == .corruption {
                #expect(error.position == 2)
            }
            #expect(try await reopened.event(at: 3)?.text == "third")
            await reopened.close()
        }
    }

    @Test("the map grows from 1 MiB to hold more than 200 MB of events")
    func mapGrowth() async throws {
        try await withStore({ $0.initialMapSize = 1 << 20 }) { store, path in
            let payload = [UInt8](repeating: 0x5A, count: 4000)
            var appended = 0
            for batch in 0..<52 {
                let requests = (0..<1000).map { i in
                    AppendRequest(stream: "big-\(i % 10)", events: [ProposedEvent(
                        type: "blob.stored", subject: "u-\(batch)", occurredAt: Timestamp(microsecondsSinceEpoch: 0), payload: payload)])
                }
                for result in try await store.append(batch: requests) { _ = try result.get() }
                appended += requests.count
            }
            let info = try await store.storageInfo()
            #expect(info.usedBytes > 200_000_000)
            #expect((info.mapSize ?? 0) > 200_000_000)
            #expect(try await store.headPosition().rawValue == UInt64(appended))
            let last = try #require(try await store.event(at: Position(UInt64(appended))))
            #expect(last.payload == payload)
            #expect(try await store.readStream("big-3", from: 5195, direction: .forward, limit: 10).count == 5)
        }
    }

    @Test("a second writer process is refused; the first keeps its lock")
    func secondWriterProcessRefused() async throws {
        try await withStore { store, path in
            _ = try await store.append([testEvent()], to: "s")
            let (status, output) = try await runLogbook(["demo", "--path", path], includeErrors: true)
            #expect(status != 0)
            #expect(output.contains("another process is writing this log"))
            _ = try await store.append([testEvent()], to: "s")
        }
    }

    @Test("relaxed durability appends, reads and survives a reopen")
    func relaxedMode() async throws {
        try await withTemporaryDirectory { path in
            var configuration = LogConfiguration()
            configuration.durability = .relaxed
            let store = try LMDBEventStore(path: path, configuration: configuration)
            _ = try await store.append([testEvent("relaxed")], to: "s")
            await store.close()
            let reopened = try LMDBEventStore(path: path)
            #expect(try await reopened.event(at: 1)?.text == "relaxed")
            await reopened.close()
        }
    }

    @Test("a read-only store refuses appends with a typed error")
    func readOnlyStore() async throws {
        try await withTemporaryDirectory { path in
            let writer = try LMDBEventStore(path: path)
            _ = try await writer.append([testEvent()], to: "s")
            await writer.close()
            var configuration = LogConfiguration()
            configuration.readOnly = true
            let reader = try LMDBEventStore(path: path, configuration: configuration)
            #expect(try await reader.event(at: 1) != nil)
            await #expect(throws: EventStoreError.readOnly) { try await reader.append([testEvent()], to: "s") }
            await reader.close()
        }
    }

    @Test("an injected clock stamps recordedAt; restored events keep theirs")
    func recordedAtComesFromTheClock() async throws {
        let clock = SteppingClock()
        try await withStore({ $0.clock = clock }) { store, _ in
            _ = try await store.append([testEvent()], to: "s")
            var restored = testEvent()
            restored.recordedAt = try Timestamp(parsing: "2020-01-02T03:04:05.678Z")
            _ = try await store.append([restored], to: "s")
            #expect(try await store.event(at: 1)?.recordedAt == Timestamp(microsecondsSinceEpoch: 1_795_000_000_000_000))
            #expect(try await store.event(at: 2)?.recordedAt.rfc3339 == "2020-01-02T03:04:05.678Z")
        }
    }
}

