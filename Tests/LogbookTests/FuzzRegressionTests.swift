import Foundation
import FuzzSupport
import Testing
import LogbookFuzzing
import PostgresFuzzing
import WebhookFuzzing

/// Every input a fuzz target of Logbook's readers (wire form, command bodies, query texts, stored
/// records and rows, webhooks' URLs and receivers' answers) ever broke (`Tests/Fuzz/Regressions/<Target>/`) and every seed of its corpus (`Tests/Fuzz/Corpus/<Target>/`), run through the target's own
/// checks on every `swift test` — the same code libFuzzer runs (`tools/fuzz`).
@Suite struct FuzzRegressionTests {
    static let targets = [
        WireFuzz.wireEvent, WireFuzz.binaryPayload, RequestFuzz.commandBody, RequestFuzz.query, StoredRecordFuzz.logRecord,
        StoredRecordFuzz.readModelRecord, PostgresRowFuzz.row, BackupRowsFuzz.rows, WebhookFuzz.url, WebhookFuzz.answer,
    ]
    static let fuzzRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")

    @Test(arguments: FuzzRegressionTests.targets.map(\.name))
    func regressionsAndSeedsPass(_ name: String) throws {
        let target = try #require(Self.targets.first { $0.name == name })
        let (ran, failures) = target.replaySavedInputs(under: Self.fuzzRoot.path)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(ran > 0, "\(name) has no seeds in Tests/Fuzz/Corpus/\(name)")
    }
}
