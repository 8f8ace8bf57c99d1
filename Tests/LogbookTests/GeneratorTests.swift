import DemoData
import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

@Suite("Demo data generator")
struct GeneratorTests {
    @Test("a generated history is accepted except for the deliberate rejections, and rebuilds to the same digests")
    func generatedHistory() async throws {
        try await withLogbook { logbook, _ in
            var generator = DemoDataGenerator(seed: 42, users: 3)
            generator.weeks = 3
            let started = ContinuousClock.now
            let report = try await generator.run(on: logbook)
            print("generated \(report) in \(ContinuousClock.now - started), head \(try await logbook.log.headPosition())")
            #expect(report.rejected.keys.sorted() == ["goal_horizon"])
            #expect(report.alreadyApplied > 0, "re-sent imports should answer the existing workout")
            let verify = try await logbook.verify()
            #expect(verify.allSatisfy { $0.matches })
        }
    }
}
