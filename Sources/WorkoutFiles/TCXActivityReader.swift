/// Reads `<Activity>` elements of a TCX document from an `XMLPullReader`.
struct TCXActivityReader {
    struct Lap {
        var start: FileTimestamp?
        var totalTime: Double?, distance: Double?, calories: Double?
        var avgHeartRate: Int?, maxHeartRate: Int?
    }

    struct Activity {
        var sport: String?
        var id: FileTimestamp?
        var notes: String?
        var laps: [Lap] = []
        var segments: [[TrackPoint]] = []
    }

    static let tcdNamespace = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
    static let extensionNamespace = "http://www.garmin.com/xmlschemas/ActivityExtension/v2"
    private static let sportKey = XMLKey("Sport"), startKey = XMLKey("StartTime")

    /// Most trackpoints of one `<Activity>` (`ParseOptions.maxTrackPointsPerWorkout`).
    var maxPointsPerActivity: Int
    /// Most trackpoints of the document (`ParseOptions.maxBufferedTrackPoints`: activities are
    /// held until the file's hash is known).
    var maxBufferedPoints: Int
    /// Most laps of one activity (`ParseOptions.maxLapsPerWorkout`).
    var maxLaps: Int
    /// Most activities (`ParseOptions.maxWorkoutsPerFile`).
    var maxActivities: Int
    private(set) var skips = SkipCounter()
    private var pointCount = 0
    private var activityPointCount = 0
    private var activityCount = 0

    init(options: ParseOptions = ParseOptions()) {
        maxPointsPerActivity = options.maxTrackPointsPerWorkout
        maxBufferedPoints = options.maxBufferedTrackPoints
        maxLaps = options.maxLapsPerWorkout
        maxActivities = options.maxWorkoutsPerFile
    }

    private enum Field {
        case none, id, notes, lapTime, lapDistance, lapCalories, lapAvgHR, lapMaxHR
        case time, latitude, longitude, altitude, distance, heartRate, cadence, speed, runCadence, watts
    }

    /// Consumes the document, calling `onActivity` for each finished `<Activity>`.
    mutating func read(_ reader: XMLPullReader, onActivity: (Activity) throws -> Void) throws {
        var path: [String] = []
        var activity: Activity?
        var lap: Lap?
        var segment: [TrackPoint]?
        var point: TrackPoint?
        var field = Field.none
        var fieldDepth = 0
        var text: [UInt8] = []
        while true {
            switch try reader.next() {
            case .endOfDocument:
                return
            case .startElement:
                let uri = reader.namespaceURI
                let name = reader.localName
                if path.isEmpty, !(name == "TrainingCenterDatabase" && (uri == Self.tcdNamespace || uri.isEmpty)) {
                    throw reader.error(.unsupported, at: reader.tokenStart, "root element <\(name)> is not <TrainingCenterDatabase>")
                }
                let parent = path.last ?? ""
                let grandparent = path.count >= 2 ? path[path.count - 2] : ""
                path.append(uri == Self.extensionNamespace ? "x:" + name : name)
                field = .none
                if uri == Self.extensionNamespace {
                    if point != nil, parent == "x:TPX" {
                        switch name {
                        case "Speed": field = .speed
                        case "RunCadence": field = .runCadence
                        case "Watts": field = .watts
                        default: break
                        }
                    }
                } else if uri == Self.tcdNamespace || uri.isEmpty {
                    switch (name, parent) {
                    case ("Activity", _):
                        activityCount += 1
                        guard activityCount <= maxActivities else {
                            throw reader.error(.limitExceeded, at: reader.tokenStart,
                                               "more than \(maxActivities) activities (ParseOptions.maxWorkoutsPerFile)")
                        }
                        activity = Activity(sport: reader.attribute(Self.sportKey))
                        activityPointCount = 0
                    case ("Id", "Activity"): field = .id
                    case ("Notes", "Activity"): field = .notes
                    case ("Lap", "Activity"):
                        lap = Lap(start: reader.withAttribute(Self.startKey) { TextScalars.isoDate($0) } ?? nil)
                    case ("TotalTimeSeconds", "Lap"): field = .lapTime
                    case ("DistanceMeters", "Lap"): field = .lapDistance
                    case ("Calories", "Lap"): field = .lapCalories
                    case ("Value", "AverageHeartRateBpm") where grandparent == "Lap": field = .lapAvgHR
                    case ("Value", "MaximumHeartRateBpm") where grandparent == "Lap": field = .lapMaxHR
                    case ("Track", "Lap"): segment = []
                    case ("Trackpoint", "Track"): point = TrackPoint()
                    case ("Time", "Trackpoint"): field = .time
                    case ("LatitudeDegrees", "Position"): field = .latitude
                    case ("LongitudeDegrees", "Position"): field = .longitude
                    case ("AltitudeMeters", "Trackpoint"): field = .altitude
                    case ("DistanceMeters", "Trackpoint"): field = .distance
                    case ("Value", "HeartRateBpm") where grandparent == "Trackpoint": field = .heartRate
                    case ("Cadence", "Trackpoint"): field = .cadence
                    default: break
                    }
                }
                if field != .none {
                    fieldDepth = reader.depth
                    text.removeAll(keepingCapacity: true)
                }
            case .text:
                if field != .none, reader.depth == fieldDepth, text.count < 4096 { reader.appendText(to: &text) }
            case .endElement:
                let name = path.removeLast()
                if field != .none, reader.depth + 1 == fieldDepth {
                    apply(field, text, activity: &activity, lap: &lap, point: &point)
                    field = .none
                    continue
                }
                switch name {
                case "Trackpoint":
                    if let finished = point {
                        pointCount += 1
                        activityPointCount += 1
                        guard activityPointCount <= maxPointsPerActivity else {
                            throw reader.error(.limitExceeded, at: reader.tokenStart,
                                               "more than \(maxPointsPerActivity) trackpoints in one activity (ParseOptions.maxTrackPointsPerWorkout)")
                        }
                        guard pointCount <= maxBufferedPoints else {
                            throw reader.error(.limitExceeded, at: reader.tokenStart,
                                               "more than \(maxBufferedPoints) trackpoints in the file (ParseOptions.maxBufferedTrackPoints)")
                        }
                        if finished.latitude == nil || finished.longitude == nil {
                            var copy = finished
                            copy.latitude = nil; copy.longitude = nil
                            segment?.append(copy)
                        } else {
                            segment?.append(finished)
                        }
                    }
                    point = nil
                case "Track":
                    if let finished = segment, !finished.isEmpty { activity?.segments.append(finished) }
                    segment = nil
                case "Lap":
                    if let finished = lap, activity != nil {
                        guard activity!.laps.count < maxLaps else {
                            throw reader.error(.limitExceeded, at: reader.tokenStart,
                                               "more than \(maxLaps) laps in one activity (ParseOptions.maxLapsPerWorkout)")
                        }
                        activity!.laps.append(finished)
                    }
                    lap = nil
                case "Activity":
                    if let finished = activity { try onActivity(finished) }
                    activity = nil
                default:
                    break
                }
            }
        }
    }

    private func apply(_ field: Field, _ text: [UInt8], activity: inout Activity?, lap: inout Lap?, point: inout TrackPoint?) {
        text.withUnsafeBufferPointer { bytes in
            func number() -> Double? { TextScalars.double(bytes) }
            func rate() -> Int? { TextScalars.integer(bytes).flatMap { $0 > 0 && $0 < 400 ? $0 : nil } }
            switch field {
            case .id: activity?.id = TextScalars.isoDate(bytes)
            case .notes:
                let value = String(decoding: TextScalars.trimmed(bytes), as: UTF8.self)
                if !value.isEmpty { activity?.notes = value }
            case .lapTime: lap?.totalTime = number().flatMap { $0 >= 0 && $0 < 1e9 ? $0 : nil }
            case .lapDistance: lap?.distance = number().flatMap { $0 >= 0 ? $0 : nil }
            case .lapCalories: lap?.calories = number().flatMap { $0 >= 0 ? $0 : nil }
            case .lapAvgHR: lap?.avgHeartRate = rate()
            case .lapMaxHR: lap?.maxHeartRate = rate()
            case .time: point?.time = TextScalars.isoDate(bytes)
            case .latitude: point?.latitude = number().flatMap { abs($0) <= 90 ? $0 : nil }
            case .longitude: point?.longitude = number().flatMap { abs($0) <= 180 ? $0 : nil }
            case .altitude: point?.altitudeMeters = number()
            case .distance: point?.distanceMeters = number().flatMap { $0 >= 0 ? $0 : nil }
            case .heartRate: point?.heartRate = rate()
            case .cadence, .runCadence: point?.cadence = TextScalars.integer(bytes).flatMap { $0 >= 0 && $0 < 1000 ? $0 : nil }
            case .speed: point?.speedMetersPerSecond = number().flatMap { $0 >= 0 ? $0 : nil }
            case .watts: point?.powerWatts = TextScalars.integer(bytes).flatMap { $0 >= 0 && $0 < 100_000 ? $0 : nil }
            case .none: break
            }
        }
    }
}
