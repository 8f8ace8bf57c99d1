/// Reads `<trk>` elements of a GPX 1.0/1.1 document from an `XMLPullReader`.
///
/// Core elements are matched in the GPX 1.0 or 1.1 namespace (or no namespace, for sloppy
/// writers); Garmin TrackPointExtension v1/v2 `hr`, `cad`, `speed` and PowerExtension
/// `PowerInWatts` are recognised by namespace URI, whatever prefix the file chose.
struct GPXTrackReader {
    struct Track {
        var name: String?
        var type: String?
        var segments: [[TrackPoint]] = []
    }

    static let gpx10 = "http://www.topografix.com/GPX/1/0"
    static let gpx11 = "http://www.topografix.com/GPX/1/1"
    static let trackPointV1 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
    static let trackPointV2 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
    static let powerV1 = "http://www.garmin.com/xmlschemas/PowerExtension/v1"

    private static let latKey = XMLKey("lat"), lonKey = XMLKey("lon")

    /// Most points one `<trk>` may hold (`ParseOptions.maxTrackPointsPerWorkout`).
    var maxPointsPerTrack: Int
    /// Most points of the whole document (`ParseOptions.maxBufferedTrackPoints`: GPX tracks are
    /// held until the file's hash is known).
    var maxBufferedPoints: Int
    /// Most `<trk>` elements (`ParseOptions.maxWorkoutsPerFile`).
    var maxTracks: Int
    private(set) var skips = SkipCounter()
    private var pointCount = 0
    private var trackPointCount = 0
    private var trackCount = 0

    init(options: ParseOptions = ParseOptions()) {
        maxPointsPerTrack = options.maxTrackPointsPerWorkout
        maxBufferedPoints = options.maxBufferedTrackPoints
        maxTracks = options.maxWorkoutsPerFile
    }

    private enum Field { case none, elevation, time, name, type, heartRate, cadence, speed, power }

    /// Consumes the whole document, calling `onTrack` for each finished `<trk>`.
    mutating func read(_ reader: XMLPullReader, onTrack: (Track) throws -> Void) throws {
        var rootChecked = false
        var track: Track?
        var segment: [TrackPoint] = []
        var point: TrackPoint?
        var field = Field.none
        var fieldDepth = 0
        var text: [UInt8] = []
        text.reserveCapacity(64)
        while true {
            switch try reader.next() {
            case .endOfDocument:
                return
            case .startElement:
                let uri = reader.namespaceURI
                let isCore = uri == Self.gpx11 || uri == Self.gpx10 || uri.isEmpty
                let name = reader.localName
                if !rootChecked {
                    rootChecked = true
                    guard name == "gpx", isCore else {
                        throw reader.error(.unsupported, at: reader.tokenStart, "root element <\(name)> is not <gpx>")
                    }
                    continue
                }
                field = .none
                if isCore {
                    switch name {
                    case "trk" where track == nil:
                        trackCount += 1
                        guard trackCount <= maxTracks else {
                            throw reader.error(.limitExceeded, at: reader.tokenStart,
                                               "more than \(maxTracks) tracks (ParseOptions.maxWorkoutsPerFile)")
                        }
                        track = Track()
                        trackPointCount = 0
                    case "trkseg" where track != nil && point == nil:
                        segment = []
                    case "trkpt" where track != nil:
                        var new = TrackPoint()
                        new.latitude = reader.attributeDouble(Self.latKey).flatMap { abs($0) <= 90 ? $0 : nil }
                        new.longitude = reader.attributeDouble(Self.lonKey).flatMap { abs($0) <= 180 ? $0 : nil }
                        if new.latitude == nil || new.longitude == nil { new.latitude = nil; new.longitude = nil }
                        point = new
                    case "wpt": skips.add("GPX waypoint (wpt)")
                    case "rte": skips.add("GPX route (rte)")
                    case "ele" where point != nil: field = .elevation
                    case "time" where point != nil: field = .time
                    case "speed" where point != nil: field = .speed
                    case "power" where point != nil: field = .power
                    case "name" where track != nil && point == nil: field = .name
                    case "type" where track != nil && point == nil: field = .type
                    default: break
                    }
                } else if point != nil {
                    if uri == Self.trackPointV1 || uri == Self.trackPointV2 {
                        switch name {
                        case "hr": field = .heartRate
                        case "cad": field = .cadence
                        case "speed": field = .speed
                        default: break
                        }
                    } else if uri == Self.powerV1, name == "PowerInWatts" {
                        field = .power
                    }
                }
                if field != .none {
                    fieldDepth = reader.depth
                    text.removeAll(keepingCapacity: true)
                }
            case .text:
                if field != .none, reader.depth == fieldDepth, text.count < 4096 { reader.appendText(to: &text) }
            case .endElement:
                let name = reader.localName
                if field != .none, reader.depth + 1 == fieldDepth {
                    apply(field, text, to: &point, track: &track)
                    field = .none
                    continue
                }
                let uri = reader.namespaceURI
                guard uri == Self.gpx11 || uri == Self.gpx10 || uri.isEmpty else { continue }
                switch name {
                case "trkpt":
                    if let finished = point {
                        pointCount += 1
                        trackPointCount += 1
                        guard trackPointCount <= maxPointsPerTrack else {
                            throw reader.error(.limitExceeded, at: reader.tokenStart,
                                               "more than \(maxPointsPerTrack) points in one track (ParseOptions.maxTrackPointsPerWorkout)")
                        }
                        guard pointCount <= maxBufferedPoints else {
                            throw reader.error(.limitExceeded, at: reader.tokenStart,
                                               "more than \(maxBufferedPoints) track points in the file (ParseOptions.maxBufferedTrackPoints)")
                        }
                        segment.append(finished)
                    }
                    point = nil
                case "trkseg":
                    if !segment.isEmpty { track?.segments.append(segment) }
                    segment = []
                case "trk":
                    if !segment.isEmpty { track?.segments.append(segment) }
                    segment = []
                    if let finished = track { try onTrack(finished) }
                    track = nil
                default:
                    break
                }
            }
        }
    }

    private func apply(_ field: Field, _ text: [UInt8], to point: inout TrackPoint?, track: inout Track?) {
        text.withUnsafeBufferPointer { bytes in
            switch field {
            case .elevation: point?.altitudeMeters = TextScalars.double(bytes)
            case .time: point?.time = TextScalars.isoDate(bytes)
            case .speed: point?.speedMetersPerSecond = TextScalars.double(bytes).flatMap { $0 >= 0 ? $0 : nil }
            case .heartRate: point?.heartRate = TextScalars.integer(bytes).flatMap { $0 > 0 && $0 < 400 ? $0 : nil }
            case .cadence: point?.cadence = TextScalars.integer(bytes).flatMap { $0 >= 0 && $0 < 1000 ? $0 : nil }
            case .power: point?.powerWatts = TextScalars.integer(bytes).flatMap { $0 >= 0 && $0 < 100_000 ? $0 : nil }
            case .name:
                let value = String(decoding: TextScalars.trimmed(bytes), as: UTF8.self)
                if !value.isEmpty { track?.name = value }
            case .type:
                let value = String(decoding: TextScalars.trimmed(bytes), as: UTF8.self)
                if !value.isEmpty { track?.type = value }
            case .none: break
            }
        }
    }
}
