import EventLogLMDB
import EventLog
import LogbookTestSupport
import LogbookTesting
import Testing

@Suite("Event log contract, LMDB backend")
struct LMDBConformanceTests {
    @Test(arguments: EventStoreConformance.allCases)
    func conformance(_ check: EventStoreConformance) async throws {
        try await withStore { store, _ in try await check.run(store) }
    }
}
