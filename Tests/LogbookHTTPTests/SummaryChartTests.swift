import EventLog
import Logbook
@testable import LogbookDomain
@testable import LogbookHTTP
import Testing

/// The stats chart multiplies a bucket's sums to draw them: sums of any size a summary can carry
/// draw a chart, never a trap.
@Suite("Stats summary chart")
struct SummaryChartTests {
    @Test("buckets whose sums run to the largest integers still draw, every metric, in both units")
    func hugeSumsDraw() {
        let first = CivilDate(year: 2026, month: 1, day: 1)!
        var huge = SummaryBucket(from: first, to: first.adding(days: 364))
        (huge.workouts, huge.distanceMeters, huge.movingSeconds, huge.elevationGainMeters) = (.max, .max, .max, .max)
        let small = SummaryBucket(from: first.adding(days: 365), to: first.adding(days: 729))
        let summary = StatsSummary(
            user: "u", period: .year, type: nil, from: first, to: small.to, weekStart: .monday, buckets: [huge, small], totals: huge)
        for metric in SummaryChart.Metric.allCases {
            for units in [Units.metric, .imperial] {
                let svg = SummaryChart(summary: summary, metric: metric, units: units).svg
                #expect(svg.hasPrefix("<svg") && svg.contains("</svg>"), "\(metric) \(units)")
            }
        }
    }
}
