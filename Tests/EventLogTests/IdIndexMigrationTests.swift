import DemoData
import EventLog
import EventLogLMDB
import Foundation
import LMDB
import LogbookTestSupport
import LogbookTesting
import Testing

/// A log written before the id index existed gets its index built when a writer opens it.
@Suite("Event id index of older logs")
struct IdIndexMigrationTests {
    @Test("opening an unindexed log indexes every id; retries and reuses are then recognised")
    func buildsOnOpen() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/log"
            var configuration = LogConfiguration()
            configuration.durability = .relaxed
            let store = try LMDBEventStore(path: path, configuration: configuration)
            var appended: [(ProposedEvent, AppendResult)] = []
            for index in 0..<2_000 {
                let event = testEvent("\(index)", id: index % 2 == 0 ? UUID() : .timeOrdered())
                appended.append((event, try await store.append([event], to: "s-\(index % 13)")))
            }
            await store.close()
            // Make it look like a log of the previous format: no index, no flag.
            var options = EnvironmentOptions()
            options.maxDatabases = configuration.maxDatabases
            let environment = try Environment(path: path, options: options)
            let ordered = try environment.openDatabase(named: "ids.ordered")
            let other = try environment.openDatabase(named: "ids.other")
            let meta = try environment.openDatabase(named: "meta")
            try environment.write { txn in
                try txn.clear(ordered)
                try txn.clear(other)
                #expect(try txn.delete(meta, key: Array("ids".utf8).span))
            }
            environment.close()
            // Read-only, unindexed: found by scanning. Then a writer builds the index.
            var readOnly = configuration
            readOnly.readOnly = true
            let reader = try LMDBEventStore(path: path, configuration: readOnly)
            #expect(try await reader.location(ofEvent: appended[1234].0.eventId)?.position == appended[1234].1.firstPosition)
            await reader.close()
            let reopened = try LMDBEventStore(path: path, configuration: configuration)
            for (event, result) in appended {
                #expect(try await reopened.location(ofEvent: event.eventId)?.position == result.firstPosition)
            }
            let (event, result) = appended[700]
            #expect(try await reopened.append([event], to: "s-\(700 % 13)").firstPosition == result.firstPosition)
            await #expect(throws: EventStoreError.self) { try await reopened.append([event], to: "another") }
            #expect(try await reopened.headPosition().rawValue == 2_000)
            await reopened.close()
        }
    }

    @Test("a run of the id index whose records do not match it is reported as corruption by readers and the writer, not searched past")
    func mismatchedRunIsCorruption() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/log"
            var random = SplitMix64(seed: 5)
            // Newest first: one run of 40 ids out of order, which a lookup reads whole.
            let ids = Array((0..<40).map { random.timeOrderedUUID(at: 1_795_000_000_000_000 + Int64($0) * 1_000) }.reversed())
            let store = try LMDBEventStore(path: path)
            _ = try await store.append(ids.map { testEvent("x", id: $0) }, to: "s")
            #expect(try await store.locations(ofEvents: [ids[5]])[0]?.position.rawValue == 6)
            await store.close()
            // The run's entry now claims a largest id that none of its records has.
            var options = EnvironmentOptions()
            options.maxDatabases = LogConfiguration().maxDatabases
            let environment = try Environment(path: path, options: options)
            let ordered = try environment.openDatabase(named: "ids.ordered")
            try environment.write { txn in
                try txn.withCursor(ordered) { cursor in
                    #expect(try cursor.first())
                    let (key, value) = try cursor.withCurrent { ($0.copiedBytes(), $1.copiedBytes()) }
                    #expect(value.count == 29 && value[28] == 0, "one run, out of order")
                    var changed = value
                    for index in 12..<28 { changed[index] = 0xFF }
                    try cursor.put(key: key.span, value: changed.span)
                }
            }
            environment.close()
            let reopened = try LMDBEventStore(path: path)
            let readError = await #expect(throws: EventStoreError.self) { try await reopened.locations(ofEvents: [ids[5]]) }
            #expect(readError?.code == .corruption)
            #expect(readError?.description.contains("ordered id index") == true, "\(String(describing: readError))")
            let writeError = await #expect(throws: EventStoreError.self) { try await reopened.append([testEvent("again", id: ids[5])], to: "s") }
            #expect(writeError?.code == .corruption)
            #expect(try await reopened.headPosition().rawValue == 40, "nothing written")
            await reopened.close()
        }
    }
}
