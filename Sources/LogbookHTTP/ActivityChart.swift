import EventLog
import Logbook

/// A workout's chart: pace, heart rate or elevation against distance, as a self-contained SVG
/// polyline. Pure and locale-independent: the same track gives the same bytes (integer pixel
/// coordinates, numbers written by hand).
struct ActivityChart: Sendable {
    enum Metric: String, Sendable, CaseIterable {
        case pace, heartRate, elevation
    }

    let points: [TrackPointAlongRoute]
    let metric: Metric
    let units: Units

    private static let width = 640, height = 240, top = 36, bottom = 32, left = 48, right = 16
    /// At most this many vertices: longer tracks are thinned to one point per slot.
    private static let maximumVertices = 600

    /// The value of one point in the chart's unit, times 10, or nil.
    private func value(_ point: TrackPointAlongRoute, previous: TrackPointAlongRoute?) -> Int? {
        switch metric {
        case .heartRate:
            return point.heartRate.map { $0 * 10 }
        case .elevation:
            return point.altitudeMeters.map { Int(($0 * 10).rounded()) }
        case .pace:
            // Seconds per km or mile, from the device's speed or the last step's distance and time.
            var speed = point.speedMetersPerSecond
            if speed == nil, let previous, let t0 = previous.seconds, let t1 = point.seconds, t1 > t0 {
                speed = (point.distanceMeters - previous.distanceMeters) / (t1 - t0)
            }
            guard let speed, speed > 0.3 else { return nil }
            let unit = units == .imperial ? 1609.344 : 1000
            return min(Int((unit / speed * 10).rounded()), 36_000)
        }
    }

    private var label: String {
        switch metric {
        case .pace: units == .imperial ? "Pace (min/mi)" : "Pace (min/km)"
        case .heartRate: "Heart rate (bpm)"
        case .elevation: "Elevation (m)"
        }
    }

    private func text(_ tenths: Int) -> String {
        if metric == .pace {
            let seconds = (tenths + 5) / 10
            return "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"
        }
        return TrackAnalysis.decimal(tenths, places: 1)
    }

    var svg: String {
        var series: [(distance: Double, value: Int)] = []
        var previous: TrackPointAlongRoute?
        for point in points {
            if let value = value(point, previous: previous) { series.append((point.distanceMeters, value)) }
            previous = point
        }
        let plotWidth = Self.width - Self.left - Self.right, plotHeight = Self.height - Self.top - Self.bottom
        let total = points.last?.distanceMeters ?? 0
        let unit = units == .imperial ? 1609.344 : 1000
        let distanceText = TrackAnalysis.decimal(Int((total / unit * 100).rounded()), places: 2) + (units == .imperial ? " mi" : " km")
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.width)" height="\(Self.height)" viewBox="0 0 \(Self.width) \(Self.height)" role="img" aria-label="\(label) over \(distanceText)">
        <title>\(label) over \(distanceText)</title>
        <rect width="\(Self.width)" height="\(Self.height)" fill="#ffffff"/>
        <text x="\(Self.left)" y="22" font-family="sans-serif" font-size="14" fill="#222">\(label) over \(distanceText)</text>
        <line x1="\(Self.left)" y1="\(Self.height - Self.bottom)" x2="\(Self.width - Self.right)" y2="\(Self.height - Self.bottom)" stroke="#999"/>

        """
        guard let low = series.map(\.value).min(), let high = series.map(\.value).max(), total > 0 else {
            return out + "<text x=\"\(Self.left)\" y=\"\(Self.top + plotHeight / 2)\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#888\">No data recorded</text>\n</svg>\n"
        }
        let span = max(high - low, 1)
        // Pace: faster (smaller) values higher up, as running apps draw it.
        func y(_ value: Int) -> Int {
            let share = metric == .pace ? (high - value) : (value - low)
            return Self.top + plotHeight - share * plotHeight / span
        }
        var vertices: [String] = []
        var lastSlot = -1
        for (distance, value) in series {
            let x = Self.left + Int((distance / total * Double(plotWidth)).rounded(.down))
            let slot = (x - Self.left) * Self.maximumVertices / max(plotWidth, 1)
            if slot == lastSlot { continue }
            lastSlot = slot
            vertices.append("\(x),\(y(value))")
        }
        out += "<polyline fill=\"none\" stroke=\"#2f80ed\" stroke-width=\"1.5\" points=\"\(vertices.joined(separator: " "))\"/>\n"
        let (upper, lower) = metric == .pace ? (low, high) : (high, low)
        out += "<text x=\"\(Self.left - 4)\" y=\"\(Self.top + 4)\" font-family=\"sans-serif\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">\(text(upper))</text>\n"
        out += "<text x=\"\(Self.left - 4)\" y=\"\(Self.top + plotHeight)\" font-family=\"sans-serif\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">\(text(lower))</text>\n"
        out += "<text x=\"\(Self.width - Self.right)\" y=\"\(Self.height - Self.bottom + 16)\" font-family=\"sans-serif\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">\(distanceText)</text>\n"
        return out + "</svg>\n"
    }
}
