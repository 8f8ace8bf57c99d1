import EventLog
import Logbook

/// The stats tab's chart: one bar per bucket of a ``StatsSummary`` (week, month or year) for
/// distance, moving time, climb or the number of workouts, as a self-contained SVG. Pure: the same
/// summary gives the same bytes (integer arithmetic, no locale, no clock).
struct SummaryChart: Sendable {
    enum Metric: String, Sendable, CaseIterable {
        case distance, time, elevation, workouts
    }

    let summary: StatsSummary
    let metric: Metric
    let units: Units

    private static let height = 260, top = 36, bottom = 44, left = 16, right = 16, minimumWidth = 560, minimumSlot = 10
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A bucket's value in the chart's unit, in hundredths (two decimals without floating output).
    /// A bucket's sums grow with the history summed, and a chart multiplies: each is clamped to
    /// 2^40 (far beyond any real history) rather than trap.
    private func hundredths(_ bucket: SummaryBucket) -> Int {
        func clamped(_ value: Int) -> Int { min(max(value, 0), 1 << 40) }
        switch metric {
        case .distance: return units == .imperial ? clamped(bucket.distanceMeters) * 100 / 1609 : clamped(bucket.distanceMeters) / 10
        case .time: return clamped(bucket.movingSeconds) * 100 / 3600
        case .elevation: return units == .imperial ? clamped(bucket.elevationGainMeters) * 100_000 / 30_480 : clamped(bucket.elevationGainMeters) * 100
        case .workouts: return clamped(bucket.workouts) * 100
        }
    }

    private var unitLabel: String {
        switch metric {
        case .distance: units == .imperial ? "mi" : "km"
        case .time: "h"
        case .elevation: units == .imperial ? "ft" : "m"
        case .workouts: "workouts"
        }
    }

    private var metricTitle: String {
        switch metric {
        case .distance: "Distance"
        case .time: "Moving time"
        case .elevation: "Climb"
        case .workouts: "Workouts"
        }
    }

    private static func decimal(_ hundredths: Int) -> String { WeeklyChart.decimal(hundredths) }

    /// The label under a bucket's bar: the week's first day, the month, the year.
    private func label(_ bucket: SummaryBucket) -> String {
        switch summary.period {
        case .week: "\(bucket.from.day) \(Self.months[bucket.from.month - 1])"
        case .month: bucket.from.month == 1 ? "\(Self.months[0]) \(bucket.from.year)" : Self.months[bucket.from.month - 1]
        case .year: "\(bucket.from.year)"
        case .all: "\(bucket.from) – \(bucket.to)"
        }
    }

    var svg: String {
        let values = summary.buckets.map(hundredths)
        let maximum = max(values.max() ?? 0, 1)
        let plotHeight = Self.height - Self.top - Self.bottom
        let slot = max(Self.minimumSlot, (Self.minimumWidth - Self.left - Self.right) / max(values.count, 1))
        let width = Self.left + Self.right + slot * values.count
        let barWidth = max(slot * 3 / 5, 1)
        // Labels every so many bars, so they never overlap (about 48 px each).
        let labelEvery = max(1, (48 + slot - 1) / slot)
        let title = "\(metricTitle) by \(summary.period.rawValue) \(summary.from) – \(summary.to): \(Self.decimal(hundredths(summary.totals))) \(unitLabel)"
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(Self.height)" viewBox="0 0 \(width) \(Self.height)" role="img" aria-label="\(title)">
        <title>\(title)</title>
        <rect width="\(width)" height="\(Self.height)" fill="#ffffff"/>
        <text x="\(Self.left)" y="22" font-family="sans-serif" font-size="14" fill="#222">\(title)</text>
        <line x1="\(Self.left)" y1="\(Self.height - Self.bottom)" x2="\(width - Self.right)" y2="\(Self.height - Self.bottom)" stroke="#999"/>

        """
        for (index, bucket) in summary.buckets.enumerated() {
            let value = values[index]
            let barHeight = value * plotHeight / maximum
            let x = Self.left + index * slot + (slot - barWidth) / 2
            let y = Self.height - Self.bottom - barHeight
            out += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(barWidth)\" height=\"\(barHeight)\" rx=\"2\" fill=\"#2f80ed\"><title>\(bucket.from) – \(bucket.to): \(Self.decimal(value)) \(unitLabel)</title></rect>\n"
            if index % labelEvery == 0 {
                out += "<text x=\"\(x + barWidth / 2)\" y=\"\(Self.height - Self.bottom + 16)\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">\(label(bucket))</text>\n"
            }
        }
        return out + "</svg>\n"
    }
}
