import Foundation

/// A time as text formats write it: Unix seconds, a fraction, and either `Z` (offset unknown)
/// or a numeric offset the file states.
public struct TextTime: Sendable, Hashable {
    public var unix: Int64
    public var micros: Int
    /// nil writes `Z`.
    public var offsetSeconds: Int32?

    public init(_ unix: Int64, micros: Int = 0, offset: Int32? = nil) {
        self.unix = unix
        self.micros = micros
        self.offsetSeconds = offset
    }

    public var text: String { FixtureTime.iso(unix, micros: micros, offset: offsetSeconds) }
    /// Microseconds since 1970 (UTC).
    public var microseconds: Int64 { unix * 1_000_000 + Int64(micros) }
}

/// A GPX track point and the extension values written for it.
public struct GPXPoint: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?
    public var time: TextTime?
    public var heartRate: Int?
    public var cadence: Int?
    public var speed: Double?
    public var power: Int?

    public init(latitude: Double, longitude: Double, elevation: Double? = nil, time: TextTime? = nil, heartRate: Int? = nil,
                cadence: Int? = nil, speed: Double? = nil, power: Int? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.time = time
        self.heartRate = heartRate
        self.cadence = cadence
        self.speed = speed
        self.power = power
    }
}

/// A `<trk>`: its name, type and segments.
public struct GPXTrack: Sendable, Hashable {
    public var name: String?
    public var type: String?
    public var segments: [[GPXPoint]]

    public init(name: String? = nil, type: String? = nil, segments: [[GPXPoint]]) {
        self.name = name
        self.type = type
        self.segments = segments
    }
}

/// A GPX 1.0 or 1.1 document. Heart rate and cadence go into Garmin's TrackPointExtension v2 under
/// `extensionPrefix` (any prefix: the namespace URI is what names them), power into PowerExtension;
/// speed is GPX 1.0's `<speed>`, or in 1.1 the TrackPointExtension's — or, with `appleRoute`, a bare
/// `<speed>` in `<extensions>` beside course and accuracy, as Apple Health's route files have it.
public struct GPXDocument: Sendable, Hashable {
    /// The GPX version, which also picks the namespace.
    public enum Version: String, Sendable { case v1_0 = "1.0", v1_1 = "1.1" }

    public var version: Version
    public var creator = "Logbook fixtures"
    public var tracks: [GPXTrack]
    /// Waypoints, written before the tracks.
    public var waypoints: [(latitude: Double, longitude: Double, name: String)] {
        get { zip(zip(waypointLatitudes, waypointLongitudes), waypointNames).map { ($0.0, $0.1, $1) } }
        set {
            waypointLatitudes = newValue.map(\.latitude)
            waypointLongitudes = newValue.map(\.longitude)
            waypointNames = newValue.map(\.name)
        }
    }
    private var waypointLatitudes: [Double] = [], waypointLongitudes: [Double] = [], waypointNames: [String] = []
    /// Routes (`<rte>`) of two points each, written after the waypoints.
    public var routes = 0
    public var extensionPrefix = "gpxtpx"
    public var appleRoute = false

    public init(version: Version = .v1_1, tracks: [GPXTrack]) {
        self.version = version
        self.tracks = tracks
    }

    public var bytes: [UInt8] { Array(xml.utf8) }

    public var xml: String {
        let namespace = "http://www.topografix.com/GPX/\(version == .v1_0 ? "1/0" : "1/1")"
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"\(version.rawValue)\" creator=\"\(XMLText.escaped(creator))\" "
        out += "xmlns=\"\(namespace)\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
        if version == .v1_1, !appleRoute {
            out += " xmlns:\(extensionPrefix)=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\""
            out += " xmlns:pwr=\"http://www.garmin.com/xmlschemas/PowerExtension/v1\""
        }
        out += ">\n  <metadata><name>fixture</name></metadata>\n"
        for waypoint in waypoints {
            out += "  <wpt lat=\"\(waypoint.latitude)\" lon=\"\(waypoint.longitude)\"><name>\(XMLText.escaped(waypoint.name))</name></wpt>\n"
        }
        for index in 0..<routes {
            out += "  <rte><name>Route \(index)</name><rtept lat=\"46.1\" lon=\"14.2\"/><rtept lat=\"46.2\" lon=\"14.3\"/></rte>\n"
        }
        for track in tracks {
            out += "  <trk>\n"
            if let name = track.name { out += "    <name>\(XMLText.escaped(name))</name>\n" }
            if let type = track.type { out += "    <type>\(XMLText.escaped(type))</type>\n" }
            for segment in track.segments {
                out += "    <trkseg>\n"
                for point in segment { out += "      " + self.point(point) + "\n" }
                out += "    </trkseg>\n"
            }
            out += "  </trk>\n"
        }
        return out + "</gpx>\n"
    }

    private func point(_ point: GPXPoint) -> String {
        var out = "<trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\">"
        if let elevation = point.elevation { out += "<ele>\(elevation)</ele>" }
        if let time = point.time { out += "<time>\(time.text)</time>" }
        if version == .v1_0 {
            if let speed = point.speed { out += "<speed>\(speed)</speed>" }
            return out + "</trkpt>"
        }
        if appleRoute {
            if let speed = point.speed {
                out += "<extensions><speed>\(speed)</speed><course>206.25</course><hAcc>8.06</hAcc><vAcc>6.43</vAcc></extensions>"
            }
            return out + "</trkpt>"
        }
        let p = extensionPrefix
        var inner = ""
        if let rate = point.heartRate { inner += "<\(p):hr>\(rate)</\(p):hr>" }
        if let cadence = point.cadence { inner += "<\(p):cad>\(cadence)</\(p):cad>" }
        if let speed = point.speed { inner += "<\(p):speed>\(speed)</\(p):speed>" }
        var extensions = inner.isEmpty ? "" : "<\(p):TrackPointExtension>\(inner)</\(p):TrackPointExtension>"
        if let power = point.power { extensions += "<pwr:PowerInWatts>\(power)</pwr:PowerInWatts>" }
        if !extensions.isEmpty { out += "<extensions>\(extensions)</extensions>" }
        return out + "</trkpt>"
    }
}

/// XML text escaping for the writers.
public enum XMLText {
    /// `&`, `<`, `>` and `"` as entities.
    public static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
