import EventLog
import Logbook

/// The training-load chart (the Training article): one bar per day for the day's load, with the acute (7-day)
/// and chronic (28-day, scaled to a week: chronic28 / 4) loads as lines, as a self-contained SVG.
/// Pure: the same answer gives the same bytes (integers only, no locale, no clock).
struct TrainingLoadChart: Sendable {
    let load: TrainingLoad

    private static let width = 640, height = 260, top = 40, bottom = 36, left = 16, right = 16

    var svg: String {
        let days = load.days
        let title = "Training load \(load.from) – \(load.to)"
            + (days.last.flatMap { $0.acwr }.map { ": ACWR \(Self.hundredths(Int(($0 * 100).rounded())))" } ?? "")
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.width)" height="\(Self.height)" viewBox="0 0 \(Self.width) \(Self.height)" role="img" aria-label="\(title)">
        <title>\(title)</title>
        <rect width="\(Self.width)" height="\(Self.height)" fill="#ffffff"/>
        <text x="\(Self.left)" y="22" font-family="sans-serif" font-size="14" fill="#222">\(title)</text>
        <line x1="\(Self.left)" y1="\(Self.height - Self.bottom)" x2="\(Self.width - Self.right)" y2="\(Self.height - Self.bottom)" stroke="#999"/>

        """
        guard !days.isEmpty, days.contains(where: { $0.load != nil }) else {
            return out + "<text x=\"\(Self.left)\" y=\"\(Self.height / 2)\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#555\">"
                + "No maximum heart rate in the profile: no zones, no load</text>\n</svg>\n"
        }
        // Daily loads and a week's worth of acute and chronic load share one scale.
        let maximum = max(days.map { max($0.load ?? 0, $0.acute ?? 0, ($0.chronic28 ?? 0) / 4) }.max() ?? 0, 1)
        let plot = Self.height - Self.top - Self.bottom
        let slot = max((Self.width - Self.left - Self.right) / days.count, 1)
        let barWidth = max(slot * 3 / 5, 1)
        func y(_ value: Int) -> Int { Self.height - Self.bottom - value * plot / maximum }
        func x(_ index: Int) -> Int { Self.left + index * slot + slot / 2 }
        for (index, day) in days.enumerated() {
            let value = day.load ?? 0
            out += "<rect x=\"\(x(index) - barWidth / 2)\" y=\"\(y(value))\" width=\"\(barWidth)\" height=\"\(value * plot / maximum)\" fill=\"#2f80ed\">"
                + "<title>\(day.date): load \(value), acute \(day.acute ?? 0), chronic28 \(day.chronic28 ?? 0)</title></rect>\n"
        }
        let acute = days.enumerated().map { "\(x($0.offset)),\(y($0.element.acute ?? 0))" }.joined(separator: " ")
        let chronic = days.enumerated().map { "\(x($0.offset)),\(y(($0.element.chronic28 ?? 0) / 4))" }.joined(separator: " ")
        out += "<polyline points=\"\(acute)\" fill=\"none\" stroke=\"#eb5757\" stroke-width=\"2\"><title>acute (7 days)</title></polyline>\n"
        out += "<polyline points=\"\(chronic)\" fill=\"none\" stroke=\"#27ae60\" stroke-width=\"2\"><title>chronic (28 days ÷ 4)</title></polyline>\n"
        out += "<text x=\"\(Self.left)\" y=\"\(Self.height - 10)\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#555\">bars: daily load · red: acute (7 days) · green: chronic (28 days ÷ 4)</text>\n"
        return out + "</svg>\n"
    }

    /// "1.07" from 107.
    private static func hundredths(_ value: Int) -> String {
        let fraction = abs(value % 100)
        return "\(value / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
