/// A TCX trackpoint. Speed, run cadence and watts go into the ActivityExtension v2 `TPX` element.
public struct TCXTrackpoint: Sendable, Hashable {
    public var time: TextTime
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    public var distance: Double?
    public var heartRate: Int?
    public var cadence: Int?
    public var speed: Double?
    public var runCadence: Int?
    public var watts: Int?

    public init(time: TextTime, latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil, distance: Double? = nil,
                heartRate: Int? = nil, cadence: Int? = nil, speed: Double? = nil, runCadence: Int? = nil, watts: Int? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.distance = distance
        self.heartRate = heartRate
        self.cadence = cadence
        self.speed = speed
        self.runCadence = runCadence
        self.watts = watts
    }
}

/// A TCX lap: its totals as the file states them, and its track.
public struct TCXLap: Sendable, Hashable {
    public var start: TextTime
    public var totalTimeSeconds: Double
    public var distanceMeters: Double
    public var calories: Int?
    public var avgHeartRate: Int?
    public var maxHeartRate: Int?
    public var trackpoints: [TCXTrackpoint]

    public init(start: TextTime, totalTimeSeconds: Double, distanceMeters: Double, calories: Int? = nil, avgHeartRate: Int? = nil,
                maxHeartRate: Int? = nil, trackpoints: [TCXTrackpoint] = []) {
        self.start = start
        self.totalTimeSeconds = totalTimeSeconds
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.avgHeartRate = avgHeartRate
        self.maxHeartRate = maxHeartRate
        self.trackpoints = trackpoints
    }
}

/// A TCX `<Activity>`.
public struct TCXActivity: Sendable, Hashable {
    /// `Running`, `Biking` or `Other`.
    public var sport: String
    public var id: TextTime
    public var notes: String?
    public var laps: [TCXLap]

    public init(sport: String, id: TextTime, notes: String? = nil, laps: [TCXLap]) {
        self.sport = sport
        self.id = id
        self.notes = notes
        self.laps = laps
    }
}

/// A Training Center Database v2 document; the ActivityExtension namespace is bound to
/// `extensionPrefix` (writers differ: `ns3`, `ax`, …).
public struct TCXDocument: Sendable, Hashable {
    public var activities: [TCXActivity]
    public var extensionPrefix = "ns3"

    public init(activities: [TCXActivity]) { self.activities = activities }

    public var bytes: [UInt8] { Array(xml.utf8) }

    public var xml: String {
        let x = extensionPrefix
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\" ?>\n"
        out += "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\" "
        out += "xmlns:\(x)=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\" "
        out += "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n  <Activities>\n"
        for activity in activities {
            out += "    <Activity Sport=\"\(activity.sport)\">\n      <Id>\(activity.id.text)</Id>\n"
            for lap in activity.laps {
                out += "      <Lap StartTime=\"\(lap.start.text)\">\n"
                out += "        <TotalTimeSeconds>\(lap.totalTimeSeconds)</TotalTimeSeconds>\n"
                out += "        <DistanceMeters>\(lap.distanceMeters)</DistanceMeters>\n"
                if let calories = lap.calories { out += "        <Calories>\(calories)</Calories>\n" }
                if let rate = lap.avgHeartRate { out += "        <AverageHeartRateBpm><Value>\(rate)</Value></AverageHeartRateBpm>\n" }
                if let rate = lap.maxHeartRate { out += "        <MaximumHeartRateBpm><Value>\(rate)</Value></MaximumHeartRateBpm>\n" }
                out += "        <Intensity>Active</Intensity>\n        <TriggerMethod>Manual</TriggerMethod>\n"
                if !lap.trackpoints.isEmpty {
                    out += "        <Track>\n"
                    for point in lap.trackpoints { out += trackpoint(point) }
                    out += "        </Track>\n"
                }
                out += "      </Lap>\n"
            }
            if let notes = activity.notes { out += "      <Notes>\(XMLText.escaped(notes))</Notes>\n" }
            out += "      <Creator xsi:type=\"Device_t\"><Name>Fixture</Name><UnitId>1</UnitId></Creator>\n    </Activity>\n"
        }
        return out + "  </Activities>\n</TrainingCenterDatabase>\n"
    }

    private func trackpoint(_ point: TCXTrackpoint) -> String {
        var out = "          <Trackpoint>\n            <Time>\(point.time.text)</Time>\n"
        if let latitude = point.latitude, let longitude = point.longitude {
            out += "            <Position><LatitudeDegrees>\(latitude)</LatitudeDegrees><LongitudeDegrees>\(longitude)</LongitudeDegrees></Position>\n"
        }
        if let altitude = point.altitude { out += "            <AltitudeMeters>\(altitude)</AltitudeMeters>\n" }
        if let distance = point.distance { out += "            <DistanceMeters>\(distance)</DistanceMeters>\n" }
        if let rate = point.heartRate { out += "            <HeartRateBpm><Value>\(rate)</Value></HeartRateBpm>\n" }
        if let cadence = point.cadence { out += "            <Cadence>\(cadence)</Cadence>\n" }
        let x = extensionPrefix
        var tpx = ""
        if let speed = point.speed { tpx += "<\(x):Speed>\(speed)</\(x):Speed>" }
        if let cadence = point.runCadence { tpx += "<\(x):RunCadence>\(cadence)</\(x):RunCadence>" }
        if let watts = point.watts { tpx += "<\(x):Watts>\(watts)</\(x):Watts>" }
        if !tpx.isEmpty { out += "            <Extensions><\(x):TPX>\(tpx)</\(x):TPX></Extensions>\n" }
        return out + "          </Trackpoint>\n"
    }
}
