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
}
