import EventLog
import Logbook

/// A workout's chart: pace, speed, heart rate, elevation, cadence or power against distance or
/// time, as a self-contained SVG polyline. Pure and locale-independent: the same track gives the
/// same bytes (integer pixel coordinates, numbers written by hand).
struct ActivityChart: Sendable {
    enum Metric: String, Sendable, CaseIterable {
        case pace, speed, heartRate, elevation, cadence, power
    }

    /// What the horizontal axis measures.
    enum Axis: String, Sendable, CaseIterable {
        case distance, time
    }

    let points: [TrackPointAlongRoute]
    let metric: Metric
    var axis: Axis = .distance
    let units: Units

    private static let width = 640, height = 240, top = 36, bottom = 32, left = 48, right = 16
    /// At most this many vertices: longer tracks are thinned to one point per slot.
    private static let maximumVertices = 600

    private var unitMeters: Double { units == .imperial ? 1609.344 : 1000 }

    /// Each point's value in the chart's unit, times 10, or nil.
    private func values() -> [Int?] {
        func tenths(_ value: Double?) -> Int? { value.map { Int(($0 * 10).rounded()) } }
        switch metric {
        case .heartRate: return points.map { $0.heartRate.map { $0 * 10 } }
        case .cadence: return points.map { $0.cadence.map { $0 * 10 } }
        case .power: return points.map { $0.powerWatts.map { $0 * 10 } }
        case .elevation: return points.map { tenths($0.altitudeMeters) }
        // Speed in km/h or mph; pace in seconds per km or mile (standing left out).
        case .speed: return TrackAnalysis.speeds(points).map { tenths($0.map { $0 * 3600 / unitMeters }) }
        case .pace: return TrackAnalysis.speeds(points).map { tenths(TrackAnalysis.pace(speed: $0, unitMeters: unitMeters)) }
        }
    }

    private var label: String {
        switch metric {
        case .pace: units == .imperial ? "Pace (min/mi)" : "Pace (min/km)"
        case .speed: units == .imperial ? "Speed (mph)" : "Speed (km/h)"
        case .heartRate: "Heart rate (bpm)"
        case .elevation: "Elevation (m)"
        case .cadence: "Cadence (per min)"
        case .power: "Power (W)"
        }
    }

    private func text(_ tenths: Int) -> String {
        if metric == .pace { return Self.clock((tenths + 5) / 10) }
        return TrackAnalysis.decimal(tenths, places: 1)
    }

    /// Seconds as m:ss, or h:mm:ss from an hour.
    private static func clock(_ seconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return seconds >= 3600 ? "\(seconds / 3600):\(two(seconds / 60 % 60)):\(two(seconds % 60))" : "\(seconds / 60):\(two(seconds % 60))"
    }

    /// Where a point sits along the horizontal axis (nil: a point without time on a time axis).
    private func position(_ point: TrackPointAlongRoute) -> Double? {
        axis == .distance ? point.distanceMeters : point.seconds
    }

    var svg: String {
        var series: [(along: Double, value: Int)] = []
        for (point, value) in zip(points, values()) {
            if let value, let along = position(point) { series.append((along, value)) }
        }
        let plotWidth = Self.width - Self.left - Self.right, plotHeight = Self.height - Self.top - Self.bottom
        let total: Double
        let extentText: String
        switch axis {
        case .distance:
            total = points.last?.distanceMeters ?? 0
            extentText = TrackAnalysis.decimal(Int((total / unitMeters * 100).rounded()), places: 2) + (units == .imperial ? " mi" : " km")
        case .time:
            total = points.compactMap(\.seconds).max() ?? 0
            extentText = Self.clock(Int(total.rounded()))
        }
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.width)" height="\(Self.height)" viewBox="0 0 \(Self.width) \(Self.height)" role="img" aria-label="\(label) over \(extentText)">
        <title>\(label) over \(extentText)</title>
        <rect width="\(Self.width)" height="\(Self.height)" fill="#ffffff"/>
        <text x="\(Self.left)" y="22" font-family="sans-serif" font-size="14" fill="#222">\(label) over \(extentText)</text>
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
        for (along, value) in series {
            let x = Self.left + Int((min(max(along, 0), total) / total * Double(plotWidth)).rounded(.down))
            let slot = (x - Self.left) * Self.maximumVertices / max(plotWidth, 1)
            if slot == lastSlot { continue }
            lastSlot = slot
            vertices.append("\(x),\(y(value))")
        }
        out += "<polyline fill=\"none\" stroke=\"#2f80ed\" stroke-width=\"1.5\" points=\"\(vertices.joined(separator: " "))\"/>\n"
        let (upper, lower) = metric == .pace ? (low, high) : (high, low)
        out += "<text x=\"\(Self.left - 4)\" y=\"\(Self.top + 4)\" font-family=\"sans-serif\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">\(text(upper))</text>\n"
        out += "<text x=\"\(Self.left - 4)\" y=\"\(Self.top + plotHeight)\" font-family=\"sans-serif\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">\(text(lower))</text>\n"
        out += "<text x=\"\(Self.width - Self.right)\" y=\"\(Self.height - Self.bottom + 16)\" font-family=\"sans-serif\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">\(extentText)</text>\n"
        return out + "</svg>\n"
    }
}
