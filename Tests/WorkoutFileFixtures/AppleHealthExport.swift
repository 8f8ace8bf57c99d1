/// A `<Record>` of an Apple Health export (the writers use StepCount, HeartRate and distance).
public struct HealthRecord: Sendable, Hashable {
    /// `HKQuantityTypeIdentifierStepCount`, …
    public var type: String
    public var sourceName: String
    public var unit: String
    public var start: Int64
    public var end: Int64
    public var offset: Int32
    /// The value as written (steps may be written with a fraction, as some apps do).
    public var value: String

    public init(type: String = "HKQuantityTypeIdentifierStepCount", sourceName: String, unit: String = "count",
                start: Int64, end: Int64, offset: Int32, value: String) {
        self.type = type
        self.sourceName = sourceName
        self.unit = unit
        self.start = start
        self.end = end
        self.offset = offset
        self.value = value
    }

    public var startText: String { FixtureTime.apple(start, offset: offset) }
    public var endText: String { FixtureTime.apple(end, offset: offset) }
}

/// A route location (`<Location>` inside `<WorkoutRoute>`).
public struct HealthLocation: Sendable, Hashable {
    public var time: Int64
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double
    public var speed: Double

    public init(time: Int64, latitude: Double, longitude: Double, altitude: Double, speed: Double) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
    }
}

/// A `<Workout>`: attributes with their units, statistics, and a route either inline or as a
/// `<FileReference>` to a GPX file in `workout-routes/`.
public struct HealthWorkout: Sendable, Hashable {
    /// Where a workout's route is: none, a GPX file in the zip, or `<Location>` elements.
    public enum Route: Sendable, Hashable {
        case none
        case file(String)
        case inline([HealthLocation])
    }

    /// `HKWorkoutActivityTypeRunning`, …
    public var activityType: String
    public var sourceName: String
    public var start: Int64
    public var end: Int64
    public var offset: Int32
    /// `duration` and `durationUnit` (min, s, h).
    public var duration: (value: String, unit: String)? {
        get { durationValue.map { ($0, durationUnit) } }
        set { durationValue = newValue?.value; durationUnit = newValue?.unit ?? "" }
    }
    /// `totalDistance` and its unit (km, mi, m).
    public var distance: (value: String, unit: String)? {
        get { distanceValue.map { ($0, distanceUnit) } }
        set { distanceValue = newValue?.value; distanceUnit = newValue?.unit ?? "" }
    }
    /// `totalEnergyBurned` and its unit (kcal, kJ).
    public var energy: (value: String, unit: String)? {
        get { energyValue.map { ($0, energyUnit) } }
        set { energyValue = newValue?.value; energyUnit = newValue?.unit ?? "" }
    }
    private var durationValue: String?, durationUnit = ""
    private var distanceValue: String?, distanceUnit = ""
    private var energyValue: String?, energyUnit = ""
    /// `<WorkoutStatistics>` of HeartRate (average, maximum in count/min).
    public var heartRate: (average: Int, maximum: Int)? {
        get { heartRateAverage.map { ($0, heartRateMaximum) } }
        set { heartRateAverage = newValue?.average; heartRateMaximum = newValue?.maximum ?? 0 }
    }
    private var heartRateAverage: Int?, heartRateMaximum = 0
    /// `<WorkoutStatistics>` sums used when the attributes are missing (type, sum, unit).
    public var statistics: [String] = []
    public var route: Route = .none

    public init(activityType: String, sourceName: String, start: Int64, end: Int64, offset: Int32) {
        self.activityType = activityType
        self.sourceName = sourceName
        self.start = start
        self.end = end
        self.offset = offset
    }

    public var startText: String { FixtureTime.apple(start, offset: offset) }
    public var endText: String { FixtureTime.apple(end, offset: offset) }
}

/// An Apple Health `export.xml`: the DTD preamble, ExportDate and Me, then records (step counts
/// among other types), correlations (whose inner records repeat top-level ones), workouts and
/// activity summaries, in that order.
public struct AppleHealthExport: Sendable, Hashable {
    public var records: [HealthRecord]
    public var workouts: [HealthWorkout]
    /// `<Correlation>` elements with a step record inside (not to be counted).
    public var correlations = 0
    public var activitySummaries = 0

    public init(records: [HealthRecord], workouts: [HealthWorkout]) {
        self.records = records
        self.workouts = workouts
    }

    public var bytes: [UInt8] { Array(xml.utf8) }

    public var xml: String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 13 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
            <!ATTLIST HealthData locale CDATA #REQUIRED>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-01 09:00:00 +0100"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-02-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

            """
        for record in records { out += " " + element(record, closing: true) + "\n" }
        for index in 0..<correlations {
            out += " <Correlation type=\"HKCorrelationTypeIdentifierFood\" sourceName=\"Food\" creationDate=\"2024-01-0\(index % 9 + 1) 08:00:00 +0100\""
            out += " startDate=\"2024-01-01 08:00:00 +0100\" endDate=\"2024-01-01 08:00:00 +0100\">\n  "
            out += element(HealthRecord(sourceName: "Food", start: 1_704_092_400, end: 1_704_092_460, offset: 3600, value: "5"),
                           closing: true)
            out += "\n </Correlation>\n"
        }
        for workout in workouts { out += element(workout) }
        for index in 0..<activitySummaries {
            out += " <ActivitySummary dateComponents=\"2024-01-\(10 + index % 18)\" activeEnergyBurned=\"400\" activeEnergyBurnedUnit=\"kcal\"/>\n"
        }
        return out + "</HealthData>\n"
    }

    private func element(_ record: HealthRecord, closing: Bool) -> String {
        var out = "<Record type=\"\(record.type)\" sourceName=\"\(XMLText.escaped(record.sourceName))\" sourceVersion=\"17.2\""
        out += " unit=\"\(record.unit)\" creationDate=\"\(record.endText)\" startDate=\"\(record.startText)\""
        out += " endDate=\"\(record.endText)\" value=\"\(record.value)\""
        return out + (closing ? "/>" : ">")
    }

    private func element(_ workout: HealthWorkout) -> String {
        var out = " <Workout workoutActivityType=\"\(workout.activityType)\""
        if let duration = workout.duration { out += " duration=\"\(duration.value)\" durationUnit=\"\(duration.unit)\"" }
        if let distance = workout.distance { out += " totalDistance=\"\(distance.value)\" totalDistanceUnit=\"\(distance.unit)\"" }
        if let energy = workout.energy { out += " totalEnergyBurned=\"\(energy.value)\" totalEnergyBurnedUnit=\"\(energy.unit)\"" }
        out += " sourceName=\"\(XMLText.escaped(workout.sourceName))\" sourceVersion=\"10.1\" creationDate=\"\(workout.endText)\""
        out += " startDate=\"\(workout.startText)\" endDate=\"\(workout.endText)\">\n"
        out += "  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n"
        out += "  <WorkoutEvent type=\"HKWorkoutEventTypeSegment\" date=\"\(workout.startText)\" duration=\"1\" durationUnit=\"min\"/>\n"
        for statistic in workout.statistics { out += "  <WorkoutStatistics \(statistic)/>\n" }
        if let rate = workout.heartRate {
            out += "  <WorkoutStatistics type=\"HKQuantityTypeIdentifierHeartRate\" startDate=\"\(workout.startText)\" endDate=\"\(workout.endText)\""
            out += " average=\"\(rate.average)\" minimum=\"60\" maximum=\"\(rate.maximum)\" unit=\"count/min\"/>\n"
        }
        switch workout.route {
        case .none:
            break
        case .file(let path):
            out += "  <WorkoutRoute sourceName=\"\(XMLText.escaped(workout.sourceName))\" sourceVersion=\"10.1\" creationDate=\"\(workout.endText)\""
            out += " startDate=\"\(workout.startText)\" endDate=\"\(workout.endText)\">\n"
            out += "   <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"2\"/>\n"
            out += "   <FileReference path=\"\(path)\"/>\n  </WorkoutRoute>\n"
        case .inline(let locations):
            out += "  <WorkoutRoute sourceName=\"\(XMLText.escaped(workout.sourceName))\" startDate=\"\(workout.startText)\" endDate=\"\(workout.endText)\">\n"
            for location in locations {
                out += "   <Location date=\"\(FixtureTime.apple(location.time, offset: workout.offset))\" latitude=\"\(location.latitude)\""
                out += " longitude=\"\(location.longitude)\" altitude=\"\(location.altitude)\" horizontalAccuracy=\"5\" verticalAccuracy=\"3\""
                out += " course=\"-1\" speed=\"\(location.speed)\"/>\n"
            }
            out += "  </WorkoutRoute>\n"
        }
        return out + " </Workout>\n"
    }
}
