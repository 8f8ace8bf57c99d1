import Testing
import DemoData
@testable import LogbookDomain

/// The intensity fold's merge of one track part's milliseconds per bpm into a workout's sorted
/// entries, held against a dictionary model over seeded histories.
@Suite struct IntensityMergeTests {
    @Test("merging parts one by one gives the sums a dictionary gives, by ascending bpm, each bpm once", arguments: [UInt64(1), 2, 3])
    func mergeAgreesWithADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var entries: [BeatsPerMinuteMillis] = []
        var model: [Int: Int64] = [:]
        for _ in 0..<200 {
            var added = [Int64](repeating: 0, count: HeartRateSeconds.plausibleHeartRates.upperBound + 1)
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let rate = Int.random(in: HeartRateSeconds.plausibleHeartRates, using: &random)
                let millis = Int64.random(in: 1...30_000, using: &random)
                added[rate] += millis
                model[rate, default: 0] += millis
            }
            entries = IntensityReadModel.merged(entries, added)
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.beatsPerMinute < $1.beatsPerMinute })
        }
        #expect(entries == model.keys.sorted().map { BeatsPerMinuteMillis(beatsPerMinute: $0, millis: model[$0]!) })
    }

    @Test("a stored sum near the top of Int64 saturates instead of trapping")
    func sumsSaturate() {
        var added = [Int64](repeating: 0, count: HeartRateSeconds.plausibleHeartRates.upperBound + 1)
        added[150] = 30_000
        added[160] = 5
        let merged = IntensityReadModel.merged([BeatsPerMinuteMillis(beatsPerMinute: 150, millis: .max - 1)], added)
        #expect(merged == [BeatsPerMinuteMillis(beatsPerMinute: 150, millis: .max), BeatsPerMinuteMillis(beatsPerMinute: 160, millis: 5)])
    }
}
