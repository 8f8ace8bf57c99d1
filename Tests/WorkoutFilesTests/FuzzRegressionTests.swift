import Foundation
import FuzzSupport
import Testing
import WorkoutFilesFuzzing

/// Every input a fuzz target of the workout-file readers ever broke (`Tests/Fuzz/Regressions/<Target>/`)
/// and every seed of its corpus (`Tests/Fuzz/Corpus/<Target>/`), run through the target's own
/// checks on every `swift test` — the same code libFuzzer runs (`tools/fuzz`).
@Suite struct FuzzRegressionTests {
    static let fuzzRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")

    @Test(arguments: WorkoutFilesFuzz.targets.map(\.name))
    func regressionsAndSeedsPass(_ name: String) throws {
        let target = try #require(WorkoutFilesFuzz.targets.first { $0.name == name })
        let (ran, failures) = target.replaySavedInputs(under: Self.fuzzRoot.path)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(ran > 0, "\(name) has no seeds in Tests/Fuzz/Corpus/\(name)")
    }
}
