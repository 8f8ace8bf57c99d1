import Testing
import DemoData
@testable import LogbookDomain

/// round(acute × 400 / chronic) half up, by a second formulation: floor((800 acute + chronic) / (2 chronic)).
private func referenceHundredths(_ acute: Int, _ chronic: Int) -> Int? {
    chronic == 0 ? nil : (800 * acute + chronic) / (2 * chronic)
}

@Suite struct TrainingLoadSeriesTests {
    @Test func windowsEndOnTheDay() {
        let day = 20_000
        let series = TrainingLoadSeries(loads: [
            .init(day: day, load: 10), .init(day: day, load: 5), // two workouts: 15
            .init(day: day - 6, load: 100), .init(day: day - 7, load: 1_000),
            .init(day: day - 27, load: 10_000), .init(day: day - 28, load: 100_000),
        ])
        let point = series.point(on: day)
        #expect(point.load == 15)
        #expect(point.acute == 115)
        #expect(point.chronic28 == 11_115)
        #expect(series.acute(on: day + 1) == 15)
        #expect(series.chronic28(on: day + 1) == 1_115)
    }

    @Test func ratioRoundsHalfAwayFromZero() {
        let day = 30_000
        // acute 247, chronic 800: 247 × 4 / 800 = 1.235 exactly → 1.24.
        let half = TrainingLoadSeries(loads: [.init(day: day, load: 247), .init(day: day - 20, load: 553)]).point(on: day)
        #expect(half.acute == 247 && half.chronic28 == 800)
        #expect(half.acwrHundredths == 124)
        #expect(half.acwr == 1.24)
        // One more chronic load: 1.2335… → 1.23.
        let below = TrainingLoadSeries(loads: [.init(day: day, load: 247), .init(day: day - 20, load: 554)]).point(on: day)
        #expect(below.acwrHundredths == 123)
        // 0.005 → 0.01; 0.00499… → 0.00; acute = chronic → 4.00.
        #expect(TrainingLoadSeries.acwrHundredths(acute: 1, chronic28: 800) == 1)
        #expect(TrainingLoadSeries.acwrHundredths(acute: 1, chronic28: 801) == 0)
        #expect(TrainingLoadSeries.acwrHundredths(acute: 9, chronic28: 9) == 400)
        #expect(TrainingLoadSeries.acwrHundredths(acute: 0, chronic28: 0) == nil)
        #expect(TrainingLoadSeries(loads: []).point(on: day).acwr == nil)
    }

    @Test func ratioAgainstReference() {
        for chronic in 1...300 {
            for acute in 0...chronic {
                #expect(TrainingLoadSeries.acwrHundredths(acute: acute, chronic28: chronic) == referenceHundredths(acute, chronic))
            }
        }
        // Huge values: exact, no trap.
        #expect(TrainingLoadSeries.acwrHundredths(acute: .max, chronic28: .max) == 400)
        #expect(TrainingLoadSeries.acwrHundredths(acute: .max / 2, chronic28: .max) == 200)
        #expect(TrainingLoadSeries.acwrHundredths(acute: .max, chronic28: 1) == .max)
    }

    /// The sliding window answers exactly what the per-day sums answer.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func slidingWindowMatchesPointQueries(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let base = 19_000
        let loads = (0..<Int.random(in: 0...120, using: &random)).map { _ in
            TrainingLoadSeries.DayLoad(day: base + Int.random(in: -40...140, using: &random), load: Int.random(in: 0...300, using: &random))
        }
        let series = TrainingLoadSeries(loads: loads.shuffled(using: &random))
        let points = series.series(from: base, through: base + 100)
        #expect(points.count == 101)
        for point in points {
            #expect(point == series.point(on: point.day))
            let acute = loads.filter { (point.day - 6...point.day).contains($0.day) }.reduce(0) { $0 + $1.load }
            let chronic = loads.filter { (point.day - 27...point.day).contains($0.day) }.reduce(0) { $0 + $1.load }
            #expect(point.acute == acute && point.chronic28 == chronic)
            #expect(point.acwrHundredths == referenceHundredths(acute, chronic))
        }
        #expect(series == TrainingLoadSeries(loads: loads))
    }

    @Test func hostileInputNeverTraps() {
        let series = TrainingLoadSeries(loads: [
            .init(day: 100, load: .max), .init(day: 100, load: .max), .init(day: 101, load: -50),
            .init(day: .min, load: 7), .init(day: .max, load: 7),
        ])
        #expect(series.load(on: 100) == TrainingLoadSeries.maxDayLoad)
        #expect(series.load(on: 101) == 0)
        #expect(series.acute(on: .min) == 0 && series.chronic28(on: .max) == 0)
        #expect(series.point(on: .min).acwrHundredths == nil)
        #expect(series.series(from: 10, through: 9).isEmpty)
        #expect(series.series(from: .min, through: .max).count == TrainingLoadSeries.maxSeriesDays)
    }
}
