import EventLog
import Logbook

/// The weekly chart a fitness app shows: one bar per day of the week for distance or moving
/// time, as a self-contained SVG. Pure: the same stats give the same bytes (no locale, no clock).
struct WeeklyChart: Sendable {
    enum Metric: String, Sendable, CaseIterable {
        case distance, time
    }

    let stats: PeriodStats
    let metric: Metric
    let units: Units

    private static let width = 560, height = 240, top = 36, bottom = 40, left = 16, right = 16
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The value of one day in the chart's unit, in hundredths (2 decimals without floating output).
    private func hundredths(_ day: DayStats) -> Int {
        switch metric {
        case .distance:
            units == .imperial ? day.distanceMeters * 100 / 1609 : day.distanceMeters / 10
        case .time:
            day.movingSeconds * 100 / 60
        }
    }

    private var unitLabel: String {
        switch metric {
        case .distance: units == .imperial ? "mi" : "km"
        case .time: "min"
        }
    }

    /// Hundredths written as a decimal with at most two digits after the point (no locale): the charts' numbers.
    static func decimal(_ hundredths: Int) -> String {
        let whole = hundredths / 100, fraction = hundredths % 100
        return fraction == 0 ? "\(whole)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    var svg: String {
        let values = stats.days.map(hundredths)
        let maximum = max(values.max() ?? 0, 1)
        let plotHeight = Self.height - Self.top - Self.bottom
        let slot = (Self.width - Self.left - Self.right) / max(values.count, 1)
        let barWidth = slot * 3 / 5
        let total = values.reduce(0, +)
        let title = "\(metric == .distance ? "Distance" : "Moving time") \(stats.from) – \(stats.to): \(Self.decimal(total)) \(unitLabel)"
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.width)" height="\(Self.height)" viewBox="0 0 \(Self.width) \(Self.height)" role="img" aria-label="\(title)">
        <title>\(title)</title>
        <rect width="\(Self.width)" height="\(Self.height)" fill="#ffffff"/>
        <text x="\(Self.left)" y="22" font-family="sans-serif" font-size="14" fill="#222">\(title)</text>
        <line x1="\(Self.left)" y1="\(Self.height - Self.bottom)" x2="\(Self.width - Self.right)" y2="\(Self.height - Self.bottom)" stroke="#999"/>

        """
        for (index, day) in stats.days.enumerated() {
            let value = values[index]
            let barHeight = value * plotHeight / maximum
            let x = Self.left + index * slot + (slot - barWidth) / 2
            let y = Self.height - Self.bottom - barHeight
            let label = Self.weekdays[day.date.isoWeekday - 1]
            out += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(barWidth)\" height=\"\(barHeight)\" rx=\"3\" fill=\"#2f80ed\"><title>\(day.date): \(Self.decimal(value)) \(unitLabel)</title></rect>\n"
            if value > 0 {
                out += "<text x=\"\(x + barWidth / 2)\" y=\"\(y - 4)\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\" fill=\"#222\">\(Self.decimal(value))</text>\n"
            }
            out += "<text x=\"\(x + barWidth / 2)\" y=\"\(Self.height - Self.bottom + 16)\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\" fill=\"#555\">\(label)</text>\n"
            out += "<text x=\"\(x + barWidth / 2)\" y=\"\(Self.height - Self.bottom + 30)\" font-family=\"sans-serif\" font-size=\"10\" text-anchor=\"middle\" fill=\"#888\">\(day.date.day)</text>\n"
        }
        return out + "</svg>\n"
    }
}
