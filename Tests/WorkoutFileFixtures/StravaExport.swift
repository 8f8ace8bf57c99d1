/// One row of a Strava bulk export's `activities.csv`.
public struct StravaActivity: Sendable, Hashable {
    public var id: String
    /// Unix seconds (Strava writes the UTC wall time).
    public var start: Int64
    public var name: String
    /// `Ride`, `Run`, `Sail`, …
    public var type: String
    public var elapsedSeconds: Int
    public var movingSeconds: Int
    /// Column 17, metres.
    public var distanceMeters: Double
    /// Column 6 in display units: kilometres, nautical miles for Sail.
    public var displayDistance: String
    public var maxHeartRate: Int?
    public var avgHeartRate: Int?
    public var calories: Int?
    /// Column 12, e.g. `activities/123.fit.gz`.
    public var filename: String?

    public init(id: String, start: Int64, name: String, type: String, elapsedSeconds: Int, movingSeconds: Int,
                distanceMeters: Double, displayDistance: String, maxHeartRate: Int? = nil, avgHeartRate: Int? = nil,
                calories: Int? = nil, filename: String? = nil) {
        self.id = id
        self.start = start
        self.name = name
        self.type = type
        self.elapsedSeconds = elapsedSeconds
        self.movingSeconds = movingSeconds
        self.distanceMeters = distanceMeters
        self.displayDistance = displayDistance
        self.maxHeartRate = maxHeartRate
        self.avgHeartRate = avgHeartRate
        self.calories = calories
        self.filename = filename
    }
}

/// Writes `activities.csv` in the 2023 layout: 87 columns whose header repeats names
/// ("Elapsed Time", "Distance", "Max Heart Rate", …) — which is why readers go by position —
/// with RFC 4180 quoting where a field holds a comma, a quote or a line break.
public enum StravaCSV {
    /// The header's names, by position.
    public static let header: [String] = {
        var names = [
            "Activity ID", "Activity Date", "Activity Name", "Activity Type", "Activity Description", "Elapsed Time", "Distance",
            "Max Heart Rate", "Relative Effort", "Commute", "Activity Private Note", "Activity Gear", "Filename", "Athlete Weight",
            "Bike Weight", "Elapsed Time", "Moving Time", "Distance", "Max Speed", "Average Speed", "Elevation Gain", "Elevation Loss",
            "Elevation Low", "Elevation High", "Max Grade", "Average Grade", "Average Positive Grade", "Average Negative Grade",
            "Max Cadence", "Average Cadence", "Max Heart Rate", "Average Heart Rate", "Max Watts", "Average Watts", "Calories",
        ]
        while names.count < 87 { names.append("Extra \(names.count)") }
        return names
    }()

    /// One field, quoted when it must be.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// The row's fields, by position.
    public static func fields(_ activity: StravaActivity) -> [String] {
        var row = [String](repeating: "", count: header.count)
        row[0] = activity.id
        row[1] = FixtureTime.strava(activity.start)
        row[2] = activity.name
        row[3] = activity.type
        row[4] = "Written by the fixtures, with a comma"
        row[5] = "\(activity.elapsedSeconds)"
        row[6] = activity.displayDistance
        row[7] = activity.maxHeartRate.map { "\($0).0" } ?? ""
        row[9] = "false"
        row[12] = activity.filename ?? ""
        row[15] = "\(activity.elapsedSeconds).0"
        row[16] = "\(activity.movingSeconds).0"
        row[17] = "\(activity.distanceMeters)"
        row[30] = activity.maxHeartRate.map { "\($0).0" } ?? ""
        row[31] = activity.avgHeartRate.map { "\($0).0" } ?? ""
        row[34] = activity.calories.map { "\($0).0" } ?? ""
        return row
    }

    /// The whole file (CRLF line ends, as Strava writes them).
    public static func csv(_ activities: [StravaActivity]) -> String {
        ([header] + activities.map(fields)).map { $0.map(field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    public static func bytes(_ activities: [StravaActivity]) -> [UInt8] { Array(csv(activities).utf8) }
}
